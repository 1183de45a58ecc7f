"""Find from screen without Qt: checkpoints and labels kept across restarts, and a real game's score found from
the numbers typed (the Search dock's walkthroughs: ``tests/studio/qt/test_find_from_screen.py``).

Ground truth: the homebrew NES game's README and stable-retro's shipped Pong integration.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from emucore.paths import integrations_dir
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.search.screen_values import ScreenValueFinder, check_shown
from studio.model.search.state_labels import StateLabels


@pytest.fixture
def bare_nes(tmp_path) -> Path:
    return make_bare_nes(tmp_path)


def make_bare_nes(tmp_path: Path) -> Path:
    """The NES demo with no variables and no reward or done: a bare ROM to integrate."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    (folder / "data.json").write_text(json.dumps({"info": {}}))
    (folder / "scenario.json").write_text(json.dumps({"reward": {"variables": {}}, "done": {"variables": {}}}))
    return folder


def test_checkpoints_and_labels_survive_a_restart_and_bad_files_are_set_aside(bare_nes):
    session = Session(*resolve_game(str(bare_nes), None))
    finder, labels = ScreenValueFinder(session), StateLabels(session)
    session.advance(40)
    finder.add("00000")
    labels.label_now(3)
    session.close()
    again = Session(*resolve_game(str(bare_nes), None))
    try:
        restored, relabelled = ScreenValueFinder(again), StateLabels(again)
        assert [c.shown for c in restored.checkpoints] == ["00000"] and restored.checkpoints[0].frame == 40
        assert [label.value for label in relabelled.labels] == [3]
        (restored.folder / "screen_values.json").write_text("{not json")
        problems = []
        assert ScreenValueFinder(again, report=problems.append).checkpoints == []
        assert problems and "screen_values.json" in str(problems[0].path)
        assert not (restored.folder / "screen_values.json").exists()  # set aside, not reused
    finally:
        again.close()
    with pytest.raises(ValueError, match="the number the screen shows"):
        check_shown("12a")
    assert check_shown(" 0120") == "0120"


@pytest.mark.slow  # long play of a real game
def test_pong_score_from_the_screen(tmp_path):
    """A real game: Pong (ale-py's ROM), the score read off as stable-retro's integration defines it."""
    from bench.atari_games import ale_rom, stable_data

    data_root, rom = stable_data(), ale_rom("Pong")
    if data_root is None or rom is None:
        pytest.skip("stable-retro's Pong-Atari2600-v0 or ale-py's ROM for it is not installed")
    truth = json.loads((data_root / "Pong-Atari2600-v0" / "data.json").read_text())["info"]["score1"]
    folder = tmp_path / "Pong-Atari2600-v0"
    shutil.copytree(data_root / folder.name, folder)  # its start state; no variables: found, not given
    shutil.copyfile(rom, folder / "rom.a26")
    (folder / "data.json").write_text(json.dumps({"info": {}}))
    session = Session(*resolve_game(str(folder), None))
    try:
        finder = ScreenValueFinder(session)
        buttons = session.system.buttons
        fire, left, right = (1 << buttons.index(b) for b in ("BUTTON", "LEFT", "RIGHT"))
        rng = np.random.default_rng(1)
        for _ in range(6000):
            session.set_buttons(0, int(rng.choice([fire, left, right, fire | left, fire | right])))
            session.advance(1)
            score = session.emulator.memory.read(truth["address"], truth["type"])
            if score in (2, 7, 13) and score not in [int(c.shown) for c in finder.checkpoints]:
                finder.add(str(score))  # as drawn: no leading zeros
            if len(finder.checkpoints) == 3:
                break
        assert len(finder.checkpoints) == 3, "the left player scored too rarely"
        found = finder.candidates()
        best = found[0]
        assert (best.address, best.type, best.scale, best.bias) == (truth["address"], truth["type"], 1, 0)
    finally:
        session.close()
