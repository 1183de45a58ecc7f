"""Suggest uses the play the studio holds: the rewind history before a marked game over is an
episode, deaths with lives left included (homebrew/nes/README.md: 3 lives, one lost every 300
play frames, the game over at frame 900 of the demo state; the dying byte at $34 is negative for
30 frames after each death and through the game over, so a rule on it fires at the first death).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from emucore.operations import Operation
from emucore.paths import integrations_dir
from emucore.search import Snapshot
from studio.model.play import play_history
from studio.model.scenario.done_marks import DoneMarks
from tests.studio.model.test_done_marks import open_session, to_game_over

GAME_OVER, DYING = 0x12, 0x34


@pytest.fixture
def bare(tmp_path):
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    (folder / "data.json").write_text(json.dumps({"info": {}}))
    (folder / "scenario.json").write_text(json.dumps({"reward": {"variables": {}}}))
    return folder


def alive_then_over(session, marks: DoneMarks, alive_at: int, keep_play: bool = True) -> None:
    """An alive mark at frame ``alive_at``, then a game-over mark where the game ends (without the
    play before it when ``keep_play`` is False: the rewind history is cleared first)."""
    session.advance(alive_at - session.frame)
    marks.mark_alive()
    to_game_over(session)
    if not keep_play:
        session.rewind.clear()
    marks.mark_over()


def fires_before(rule, frames: list[Snapshot], end: int) -> bool:
    return any(all(Operation(t.op).compute(snap.read(t.address, t.type), t.reference) for t in rule.tests)
               for snap in frames[:end])


def test_one_game_over_mark_with_the_play_before_it_gives_the_flag_not_the_first_death(bare):
    session = open_session(bare)
    marks = DoneMarks(session)
    alive_then_over(session, marks, 880)
    mark = marks.marks[-1]
    assert mark.play is not None and (marks.folder / mark.play).is_file()
    kept = play_history.load(marks.folder / mark.play, session.emulator)
    assert len(kept) > 400 and kept[-1].read(GAME_OVER, "|u1") and kept[0].frame < 300  # the deaths are in it
    rules = marks.suggest()
    assert rules[0].done == {"variables": {"gameover": {"op": "nonzero"}}}
    assert not any(len(r.tests) == 1 and r.tests[0].address == DYING for r in rules)  # fired at each death
    assert not any(fires_before(r, kept, len(kept) - 1 - 30) for r in rules)
    assert any("one game over seen" in w for w in rules.warnings)  # thin evidence is said

    session.rewind.clear()
    marks.clear()
    session.reset_to_start()
    alive_then_over(session, marks, 880, keep_play=False)  # the same marks without the play:
    # the first death is not ruled out
    blind = marks.suggest()
    assert any(fires_before(r, kept, len(kept) - 31) for r in blind)
    session.close()


def test_a_kept_play_that_cannot_be_read_is_set_aside_and_the_mark_stays(bare):
    session = open_session(bare)
    marks = DoneMarks(session)
    alive_then_over(session, marks, 100)
    play = marks.folder / marks.marks[-1].play
    play.write_bytes(b"not a play")
    rules = marks.suggest()
    assert rules and marks.marks[-1].play is None and marks.marks[-1].kind == "over"
    assert any("not a kept play" in p.problem for p in session.problems)
    np.savez(play, frames=np.arange(3), rows=np.zeros((3, 7), dtype=np.uint8))
    with pytest.raises(ValueError, match="another memory layout"):
        play_history.load(play, session.emulator)
    session.close()


def test_the_play_kept_before_a_second_game_over_starts_after_the_first_one(bare):
    """Two games in one rewind history: the play kept for the second game over starts after the
    first one was marked, so the game-over flag is not taken for an alive moment."""
    session = open_session(bare)
    marks = DoneMarks(session)
    to_game_over(session)
    marks.mark_over()
    first = marks.marks[-1].frame
    session.set_buttons(0, 1 << session.system.buttons.index("START"))
    session.advance(2)
    session.set_buttons(0, 0)
    to_game_over(session)
    marks.mark_over()
    kept = play_history.load(marks.folder / marks.marks[-1].play, session.emulator)
    assert kept[0].frame > first and not any(s.read(GAME_OVER, "|u1") for s in kept[:-40])
    rules = marks.suggest()
    assert rules[0].done == {"variables": {"gameover": {"op": "nonzero"}}}
    assert not any("one game over seen" in w for w in rules.warnings)
    session.close()


def test_a_kept_play_that_contradicts_the_marks_is_left_out_and_said(bare):
    """A play whose moments all hold the game over's memory (as a game left on its game-over
    screen long before the mark would): no rule separates it from the marks, so the marks alone
    give the rules, and the first warning says so."""
    session = open_session(bare)
    marks = DoneMarks(session)
    alive_then_over(session, marks, 300)
    path = marks.folder / marks.marks[-1].play
    with np.load(path) as kept:
        frames, rows = kept["frames"], kept["rows"]
    play_history.save(path, frames, np.repeat(rows[-1:], len(rows), axis=0))
    rules = marks.suggest()
    assert rules and rules.warnings[0].startswith("no rule separates the play kept before the game over at frame")
    session.close()
