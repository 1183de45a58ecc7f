"""The main window with pytest-qt, offscreen: keys, slots, movies, layout and states kept across runs."""

from __future__ import annotations

from PySide6.QtCore import Qt

from emucore.paths import integrations_dir
from studio.model.commands import advance
from studio.model.menus import MENU_ITEMS
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.model.workspace import Workspace
from studio.qt import commands
from studio.qt.main_window import MainWindow


def make_window(qtbot, demo) -> MainWindow:
    rom, state = demo
    window = MainWindow(Workspace(Session(rom, state), Settings.load()))
    qtbot.addWidget(window)
    window.timer.stop()  # the tests drive frames themselves
    return window


def score(window: MainWindow) -> int:
    return window.session.emulator.read(0xFF0000, ">u4")


def test_every_action_is_in_a_menu(qtbot, demo):
    window = make_window(qtbot, demo)
    assert set(window.menu_actions) == {item.id for item in MENU_ITEMS}
    assert window.menu_actions["pause"].shortcut().toString() == "P"


def test_keyboard_play_and_quick_slots(qtbot, demo):
    window = make_window(qtbot, demo)
    qtbot.keyPress(window, Qt.Key.Key_X)  # Genesis B
    advance(window.workspace, 10)
    qtbot.keyRelease(window, Qt.Key.Key_X)
    assert score(window) == 10
    qtbot.keyPress(window, Qt.Key.Key_F2, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyPress(window, Qt.Key.Key_X)
    advance(window.workspace, 5)
    qtbot.keyRelease(window, Qt.Key.Key_X)
    assert score(window) == 15
    qtbot.keyPress(window, Qt.Key.Key_F2)
    assert score(window) == 10
    assert "Slot 2" in window.states_panel.list.item(window.states_panel.list.count() - 1).text()


def test_rewind_key(qtbot, demo):
    window = make_window(qtbot, demo)
    window.session.set_buttons(0, 1)
    window.session.advance(40)
    qtbot.keyPress(window, Qt.Key.Key_Backspace)
    assert window.session.rewinding
    window.session.rewind_frames(10)
    qtbot.keyRelease(window, Qt.Key.Key_Backspace)
    assert not window.session.rewinding and window.session.frame == 30


def test_record_and_stop_a_movie(qtbot, demo, tmp_path):
    window = make_window(qtbot, demo)
    window.session.movies.start_recording(tmp_path / "m.bk2")
    advance(window.workspace, 20)
    assert "recording" in window.status.text()
    window.command("stop_movie")()
    assert (tmp_path / "m.bk2").exists() and "recording" not in window.status.text()


def test_layout_and_states_are_there_after_a_restart(qtbot, demo):
    window = make_window(qtbot, demo)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, window.states_dock)
    window.session.save_state("Kept")
    window.close()
    again = make_window(qtbot, demo)
    assert again.dockWidgetArea(again.states_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    names = [again.states_panel.list.item(i).text() for i in range(again.states_panel.list.count())]
    assert any(name.startswith("Kept") for name in names)
    again.session.states.delete("Kept")


def test_a_corrupt_state_file_is_a_message_not_a_crash(qtbot, demo, tmp_path, monkeypatch):
    window = make_window(qtbot, demo)
    bad = tmp_path / "bad.state"
    bad.write_bytes(b"not gzip")
    shown = []
    monkeypatch.setattr("studio.qt.commands.QMessageBox.warning", lambda *a: shown.append(a[2]))
    commands.open_path(window, bad)
    assert shown and "bad.state" in shown[0]
    commands.open_path(window, tmp_path / "game.unknownext")
    assert len(shown) == 2 and "unknownext" in shown[1]


def test_controls_dialog_rebinds_per_player(qtbot, demo):
    from studio.qt.play.bindings_dialog import ControlsDialog

    window = make_window(qtbot, demo)
    dialog = ControlsDialog(window.session.system, window.settings, window)
    qtbot.addWidget(dialog)
    b_row = dialog.buttons.index("B")
    dialog.table.setCurrentCell(b_row, 1)  # player 2's B
    qtbot.keyPress(dialog.table, Qt.Key.Key_K)
    dialog.table.setCurrentCell(b_row, 0)  # player 1's B moves from X to J
    qtbot.keyPress(dialog.table, Qt.Key.Key_J)
    dialog.accept()
    from studio.model.play.bindings import key_map

    keys = key_map(window.session.system, window.settings)
    assert keys["K"] == (1, 1) and keys["J"] == (0, 1) and "X" not in keys
    assert Settings.load().bindings["Genesis"]["2"]["B"] == "K"


def test_game_list_shows_which_games_have_a_rom(qtbot):
    from studio.qt.game_list import GameListDialog

    dialog = GameListDialog()
    qtbot.addWidget(dialog)
    dialog.search.setText("studiodemo")
    rows = {dialog.proxy.index(r, 0).data(): dialog.proxy.index(r, 2).data() for r in range(dialog.proxy.rowCount())}
    assert rows == {"StudioDemo-Genesis": "yes", "StudioDemo-Nes": "yes"}
    dialog.table.selectRow(0)
    dialog.accept()
    assert dialog.chosen is not None and dialog.chosen.name.startswith("StudioDemo")


def test_opening_another_game_replaces_the_session(qtbot, demo):

    window = make_window(qtbot, demo)
    window.open_game(integrations_dir() / "StudioDemo-Nes")
    assert window.session.system.name == "Nes" and "StudioDemo-Nes" in window.windowTitle()
    assert window.recent_menu.actions()[0].text().endswith("StudioDemo-Nes")
    advance(window.workspace, 3)
    assert window.session.frame == 3


def test_a_scenario_edit_rechecks_the_attached_movies(qtbot, demo):
    import numpy as np

    from studio.model.scenario.regression import RegressionSuite

    window = make_window(qtbot, demo)
    session = window.session
    movie = session.folder / "take.bk2"
    session.movies.start_recording(movie)
    for mask in np.random.default_rng(3).integers(0, 1 << 12, 60):
        session.set_buttons(0, int(mask) | 1)
        session.advance(1)
    session.movies.stop_recording()
    RegressionSuite(session.folder).attach(movie)
    recheck = window.workspace.recheck
    window.scenario_editor.doc.set_reward_term("score", reward=3.0)
    assert recheck.busy and recheck.poll() is None  # due after a pause in the edits, then on its own thread
    qtbot.waitUntil(lambda: recheck.poll() is not None, timeout=10000)  # what the window's tick calls
    assert [o.changed for o in recheck.last.outcomes] == [True]
    assert "changed: take.bk2" in window.statusBar().currentMessage()


def test_check_regression_says_why_done_fired(qtbot, demo, monkeypatch):
    import numpy as np

    from studio.model.scenario.regression import RegressionSuite

    window = make_window(qtbot, demo)
    session = window.session
    movie = session.folder / "take.bk2"
    session.movies.start_recording(movie)
    for mask in np.random.default_rng(3).integers(0, 1 << 12, 60):
        session.set_buttons(0, int(mask))
        session.advance(1)
    session.movies.stop_recording()
    RegressionSuite(session.folder).attach(movie)
    window.scenario_editor.doc.set_done_test((), "frame", op="greater-than", reference=50)
    shown: list[str] = []
    monkeypatch.setattr("studio.qt.commands.QMessageBox.information", lambda *a: shown.append(a[2]))
    window.command("check_regression")()
    assert len(shown) == 1 and "CHANGED" in shown[0] and "because frame > 50 (is 51)" in shown[0]
