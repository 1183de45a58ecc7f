"""The Done tab of the main window: the shortcuts mark, the box suggests, previews and accepts through the open views.

Ground truth: the homebrew NES game's README (the game is over at frame counter 900, with game_over at $12).
The marks and rules themselves are tested without Qt in ``tests/studio/model/test_done_marks.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.model.scenario.regression import RegressionSuite
from tests.studio.model.test_done_marks import (
    GAME_OVER,
    mark_two_games,
    nes,  # noqa: F401  (the fixture)
    open_session,
    to_game_over,
)


def open_window(qtbot, folder: Path):
    from studio.model.settings import Settings
    from studio.model.workspace import Workspace
    from studio.qt.main_window import MainWindow

    window = MainWindow(Workspace(open_session(folder), Settings()), persist=False)
    window.timer.stop()  # the test steps the game itself
    qtbot.addWidget(window)
    return window


def test_the_done_tab_marks_suggests_previews_and_accepts_through_the_open_views(qtbot, nes):  # noqa: F811
    """The shortcuts mark, the box lists the terms and the preview per regression movie, and
    Accept writes through the variables dock's Watch and the scenario document."""
    from studio.model.menus import MENU_ITEMS

    session = open_session(nes)
    session.movies.start_recording(nes / "to-the-end.bk2")
    to_game_over(session)
    session.advance(10)
    session.movies.stop_recording()
    session.close()
    RegressionSuite(nes).attach(nes / "to-the-end.bk2")  # no done yet: expected None
    window = open_window(qtbot, nes)
    box = window.scenario_editor.done_suggest
    shortcuts = {item.shortcut for item in MENU_ITEMS if item.shortcut}
    assert len(shortcuts) == len([item for item in MENU_ITEMS if item.shortcut])  # no shortcut twice
    assert window.menu_actions["mark_alive"].shortcut().toString() == "Ctrl+Shift+L"
    assert "no game-over example yet" in box.suggest() and not box.message.isHidden()
    session = window.session
    mark_two_games(session, alive=window.menu_actions["mark_alive"].trigger, over=box.buttons["over"].click)
    assert window.statusBar().currentMessage() == "marked frame 1799 as alive"
    assert box.counts.text() == ("alive marks: 9   game-over marks: 2 (2 with the play before it)   "
                                 "episode movies: 0")
    assert "rules, most robust first" in box.suggest()
    assert box.rule_list.item(0).text() == "1. gameover (new variable, 0x12 |u1) nonzero"
    line = 900 - 1  # the game over's session frame; the movie's line 0 (its reset frame) was session frame 1
    assert box.preview.text() == f"to-the-end.bk2: fires at frame {line}, expected: no done  (differs)"
    assert box.cautions.isHidden()  # two game overs, each with the play before it: nothing to weigh
    accepted = box.accept()
    assert accepted.startswith("accepted gameover nonzero: data.json: added gameover (0x12 |u1)")
    window.scenario_editor.refresh()
    assert window.scenario_editor.readout.text().endswith("done yes: gameover != 0 (is 1)")  # at once, paused
    assert window.watch.provenance.get("gameover").how == "done suggestion"
    assert window.watch.variables["gameover"].address == GAME_OVER  # the variables dock has it
    assert window.scenario_editor.doc.data["done"] == {"variables": {"gameover": {"op": "nonzero"}}}
    assert window.scenario_editor.tree.topLevelItemCount() >= 1
    (nes / "scenario.json").write_text("{")
    window.scenario_editor.doc.reload()
    assert "fix scenario.json first; nothing was saved" in box.accept() and not box.message.isHidden()


def test_accept_asks_to_weigh_the_warnings_first(qtbot, nes):  # noqa: F811
    """One game over seen: the box says so beside the rule, and Accept writes only when pressed again."""
    window = open_window(qtbot, nes)
    box, session = window.scenario_editor.done_suggest, window.session
    session.advance(600)
    box.mark_alive()
    to_game_over(session)
    box.mark_over()
    box.suggest()
    assert "one game over seen" in box.message.text() and "one game over seen" in box.cautions.text()
    assert not box.cautions.isHidden()
    first = box.accept()
    assert first.startswith("Before accepting, weigh: one game over seen")
    assert box.accept_button.text() == "Accept anyway"
    assert "done" not in json.loads((nes / "scenario.json").read_text())  # nothing written yet
    box.rule_list.setCurrentRow(min(1, box.rule_list.count() - 1))
    box.rule_list.setCurrentRow(0)  # another choice asks again
    assert box.accept_button.text() == "Accept"
    box.accept()
    assert box.accept().startswith("accepted ")
    assert json.loads((nes / "scenario.json").read_text())["done"] == box.rules[0].done
