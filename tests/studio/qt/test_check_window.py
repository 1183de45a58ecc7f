"""Tools > Check integration in the window (pytest-qt, offscreen), on the homebrew NES game
(homebrew/nes/README.md: holding A adds 1 to the score a frame, score at $20 ``<u2``; the game
over at frame 900 of the demo state, the flag at $12; the dying byte at $34 is negative after
every death, so a done on it fires at the first one)."""

from __future__ import annotations

import json

import pytest

from studio.model.scenario.integration_check import GO_TO_FRAME, OPEN_VARIABLE, SUGGEST_DONE
from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import hold, open_window

SCORE, GAME_OVER, DYING = 0x20, 0x12, 0x34


@pytest.fixture
def played(qtbot, tmp_path):
    """A bare NES integration with a score found from screen (a reward), one recorded episode
    that ends at a marked game over, and that game over's rule accepted."""
    window = open_window(qtbot, make_bare_nes(tmp_path))
    session, finder = window.session, window.search_tabs.from_screen
    session.movies.start_episode_recording(tmp_path / "episodes")
    for frames in (30, 45, 80):
        hold(session, "A", frames)
        finder.shown.setText(f"{session.emulator.memory.read(SCORE, '<u2'):05d}")
        finder.shown.returnPressed.emit()
    index = next(i for i, c in enumerate(finder.results) if (c.address, c.type) == (SCORE, "<u2"))
    finder.make_variable(index, "score")
    while not session.emulator.read(GAME_OVER, "|u1"):
        hold(session, "A", 1)
    window.menu_actions["mark_over"].trigger()
    session.movies.stop_recording()
    box = window.scenario_editor.done_suggest
    box.suggest()
    box.accept()
    box.accept()  # one game over: the second press writes it
    return window


def test_a_sound_integration_checks_out_and_the_check_is_beside_export(played):
    from studio.qt.scenario.integration_check_dialog import CheckDialog, run_check

    window = played
    file_menu = window.menuBar().actions()[0].menu()
    titles = [a.text() for a in file_menu.actions()]
    assert titles.index("&Check integration on the recorded play...") == titles.index("&Export integration...") + 1
    check = run_check(window)
    assert check.ok, [r.message for r in check.rows]
    assert any("done fires at the game over (frame 899)" in r.message for r in check.rows)
    assert len(check.movies) == 1 and check.report is not None and check.report.frames >= 900, check.rows
    assert any("score \u00d7 1 pays what the screen showed at all 3 checkpoints" in r.message for r in check.rows)
    dialog = CheckDialog(window, check)
    assert dialog.summary.text().startswith("No problem found: 1 movie replayed")
    assert dialog.tree.topLevelItemCount() == len(check.rows)


@pytest.mark.slow  # long replays
def test_a_wrong_multiplier_and_an_early_done_are_rows_to_act_on(played):
    from studio.qt.scenario.integration_check_dialog import CheckDialog, run_check

    window = played
    folder = window.session.folder
    scenario = json.loads((folder / "scenario.json").read_text())
    scenario["reward"]["variables"]["score"]["reward"] = 10.0
    data = json.loads((folder / "data.json").read_text())
    data["info"]["dying"] = {"address": DYING, "type": "|i1"}
    (folder / "data.json").write_text(json.dumps(data))
    scenario["done"] = {"variables": {"dying": {"op": "negative"}}}
    (folder / "scenario.json").write_text(json.dumps(scenario))
    check = run_check(window)
    assert not check.ok
    paid = [r for r in check.rows if r.severity == "problem" and r.variable == "score"]
    assert paid and "but the reward pays" in paid[0].message and paid[0].action == OPEN_VARIABLE
    early = next(r for r in check.rows if r.severity == "problem" and SUGGEST_DONE in r.action)
    assert GO_TO_FRAME in early.action and early.frame is not None and early.frame < 900
    dialog = CheckDialog(window, check)
    index = check.rows.index(early)
    said = dialog.act(index, GO_TO_FRAME)
    assert said.startswith(f"paused at frame {early.frame}") and window.session.frame == early.frame
    assert window.session.emulator.read(DYING, "|i1") < 0  # where the rule fired: the first death
    assert "rule" in dialog.act(index, SUGGEST_DONE)  # the Done tab suggests again
    assert window.scenario_editor.done_suggest.rules
    assert dialog.act(check.rows.index(paid[0]), OPEN_VARIABLE) == "score selected in the Variables dock"
    assert window.variables_panel.selected_names() == ["score"]
