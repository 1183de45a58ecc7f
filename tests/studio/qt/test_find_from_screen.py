"""Find from screen and the lives wizard, in the Search dock (pytest-qt, offscreen).

Ground truth: the homebrew NES game's README (holding A adds 1 to the score a frame, the top
line shows ``SCORE ddddd``; 3 lives, one lost every 300 play frames; score at $20 ``<u2`` and
its digits at $22 ``>n5``, lives at $13 ``|u1``) and stable-retro's shipped Breakout
integration. What a test "reads off the screen" is that ground truth, typed as the digits drawn.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import emucore
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.qt.search.screen_values_panel import VALUE_NOW
from tests.studio.model.test_find_from_screen import bare_nes  # noqa: F401  (the fixture)

SCORE, LIVES = 0x20, 0x13


def open_window(qtbot, folder: Path):
    from studio.model.workspace import Workspace
    from studio.qt.main_window import MainWindow

    window = MainWindow(Workspace(Session(*resolve_game(str(folder), None)), Settings()), persist=False)
    window.timer.stop()  # the test steps the game itself
    qtbot.addWidget(window)
    window.show()
    return window


def hold(session: Session, button: str | None, frames: int) -> None:
    session.set_buttons(0, 1 << session.system.buttons.index(button) if button else 0)
    session.advance(frames)
    session.set_buttons(0, 0)


def test_the_score_from_typed_values_becomes_a_variable_and_the_reward(qtbot, bare_nes):  # noqa: F811
    window = open_window(qtbot, bare_nes)
    session, dock = window.session, window.search_tabs
    window.menu_actions["find_from_screen"].trigger()  # Ctrl+J: the field, ready to type
    assert dock.current_page is dock.from_screen
    assert window.menu_actions["find_from_screen"].shortcut().toString() == "Ctrl+J"
    finder = dock.from_screen
    for frames in (30, 45, 80):
        hold(session, "A", frames)
        shown = f"{session.emulator.memory.read(SCORE, '<u2'):05d}"  # SCORE ddddd
        finder.shown.setText(shown)
        picture = session.screen().copy()
        finder.shown.returnPressed.emit()
        assert np.array_equal(session.screen(), picture)  # the solver loads the checkpoints: the picture stays
    assert finder.checkpoints.count() == 3 and finder.table.rowCount() >= 2
    best = finder.results[0]
    assert (best.address, best.type, best.scale, best.bias) in {(SCORE, "<u2", 1, 0), (0x22, ">n5", 1, 0)}
    assert finder.table.item(0, VALUE_NOW).text() == str(session.emulator.memory.read(SCORE, "<u2"))  # live value
    hold(session, "A", 5)  # frames run: the value follows (at most 10 times a second)
    qtbot.waitUntil(lambda: finder.table.item(0, VALUE_NOW).text() == str(session.emulator.memory.read(SCORE, "<u2")),
                    timeout=1000)
    assert finder.make_variable(0, finder.watch.unique_name("score")) == "score"
    assert finder.message.text().startswith("Made score (") and "its increase is the reward" in finder.message.text()
    data = json.loads((bare_nes / "data.json").read_text())["info"]
    assert data["score"] == {"address": best.address, "type": best.type}
    assert window.watch.provenance.get("score").how == "find from screen"
    assert window.watch.provenance.get("score").steps[0].startswith("frame ")
    assert window.watch.provenance.screenshot("score").any()  # the game's picture, not a cleared buffer
    window.close()
    # the saved integration trains on it: holding A, one reward a frame
    env = emucore.make(str(bare_nes), inttype=emucore.data.Integrations.ALL)
    env.reset(seed=0)
    a_button = np.array([1 if b == "A" else 0 for b in env.unwrapped.buttons], dtype=env.action_space.dtype)
    rewards = [env.step(a_button)[1] for _ in range(20)]
    env.close()
    assert rewards[-5:] == [1.0] * 5


def test_a_scale_goes_to_the_reward_multiplier_and_a_bias_is_said(qtbot, bare_nes):  # noqa: F811
    window = open_window(qtbot, bare_nes)
    session, finder = window.session, window.search_tabs.from_screen
    for frames in (20, 35, 50):  # the screen draws a trailing zero: 10 points a unit
        hold(session, "A", frames)
        finder.finder.add(f"{session.emulator.memory.read(SCORE, '<u2') * 10:06d}")
    finder.refresh()
    # the score's digits read x 10 (the digits followed by a zero byte, read as >n6, rank first)
    scaled = next(i for i, c in enumerate(finder.results) if (c.address, c.type, c.scale) == (0x22, ">n5", 10))
    finder.make_variable(scaled, "points")
    assert "reward \u00d7 10" in finder.message.text()
    reward = json.loads((bare_nes / "scenario.json").read_text())["reward"]["variables"]["points"]
    assert reward["reward"] == 10.0
    # lives shown as stored + 1 (a bias): the variable keeps the stored value, and says so
    finder.clear()
    for frame in (10, 320, 620):
        session.advance(frame - session.frame)
        finder.finder.add(str(session.emulator.memory.read(LIVES, "|u1") + 1))
    finder.refresh()
    biased = next(i for i, c in enumerate(finder.results) if (c.address, c.type, c.bias) == (LIVES, "|u1", 1))
    finder.as_reward.setChecked(False)
    finder.make_variable(biased, "lives")
    assert "the screen shows stored + 1" in finder.message.text()
    assert json.loads((bare_nes / "data.json").read_text())["info"]["lives"] == {"address": LIVES, "type": "|u1"}
    assert "stored + 1" in window.watch.provenance.tooltip("lives")


def test_the_lives_wizard_finds_the_counter_and_its_search_refines(qtbot, bare_nes):  # noqa: F811
    window = open_window(qtbot, bare_nes)
    session, dock = window.session, window.search_tabs
    wizard = dock.labels
    assert "Label the counter" in wizard.message.text()
    wizard.label_now()
    assert "at least two" in wizard.message.text() or len(wizard.labels.labels) == 1
    for frame, lives in ((100, 3), (350, 2), (650, 1)):
        session.advance(frame - session.frame)
        wizard.value.setValue(lives)
        wizard.label_now()
    wizard.remove_selected()  # nothing selected: nothing removed
    wizard.list.setCurrentRow(0)
    wizard.remove_selected()  # the first label (3 at power-on) goes
    assert len(wizard.labels.labels) == 3
    name = wizard.compare()
    assert name == "lives (equal)" and dock.current_page is dock.panel
    model = dock.panel.model
    tops = {model.data(model.index(r, 0)): model.index(r, 0) for r in range(model.rowCount())}
    assert "0x13" in tops and model.data(tops["0x13"].siblingAtColumn(1)) == "|u1"
    dock.panel.make_variable_from(tops["0x13"], "lives")
    provenance = window.watch.provenance.get("lives")
    assert provenance.how == "lives wizard" and "lives = 2 at frame 350" in provenance.steps
    assert json.loads((bare_nes / "data.json").read_text())["info"]["lives"] == {"address": LIVES, "type": "|u1"}


def test_searches_survive_a_restart_of_the_studio(qtbot, bare_nes):  # noqa: F811
    """The Search dock's searches, their histories and value boxes come back with the game."""
    window = open_window(qtbot, bare_nes)
    panel = window.search_panel
    panel.types.setCurrentText("1 byte")
    panel.start()
    hold(window.session, "A", 20)
    panel.refine("changed")
    panel.value.setText("3")
    history = [panel.history.item(i).text() for i in range(panel.history.count())]
    window.close()
    again = open_window(qtbot, bare_nes)
    restored = again.search_panel
    assert restored.book.names() == ["Search 1"] and restored.value.text() == "3"
    assert [restored.history.item(i).text() for i in range(restored.history.count())] == history
    assert restored.undo_button.isEnabled()
