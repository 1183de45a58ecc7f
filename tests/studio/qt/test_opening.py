"""Opening something that cannot be opened is a message naming it, from every entry point; never an exit."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from studio.app import main as studio_main
from studio.model.commands import advance
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.model.workspace import Workspace
from studio.qt import commands
from studio.qt.main_window import MainWindow


@pytest.mark.parametrize("where", ["romless", "missing"])
def test_the_command_line_says_one_line_and_exits_2(where, romless, tmp_path, capsys):
    target = str(romless if where == "romless" else tmp_path / "gone")
    assert studio_main([target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"retro-studio: {target}: ")


def test_a_bad_window_size_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        studio_main(["--size", "huge"])
    assert exit_info.value.code == 2 and "'huge' is not a window size" in capsys.readouterr().err


@pytest.fixture
def window(qtbot, demo, monkeypatch):
    rom, state = demo
    win = MainWindow(Workspace(Session(rom, state), Settings.load()))
    qtbot.addWidget(win)
    win.timer.stop()
    win.show()
    win.shown = []
    monkeypatch.setattr("studio.qt.commands.QMessageBox.warning", lambda *a: win.shown.append(a[2]))
    return win


def _still_running(window, name="StudioDemo-Genesis") -> None:
    assert window.isVisible()
    assert window.session.name == name
    advance(window.workspace, 2)


def test_file_open_of_a_folder_without_rom(window, romless):
    commands.open_path(window, romless)
    assert len(window.shown) == 1 and str(romless) in window.shown[0] and "no ROM" in window.shown[0]
    _still_running(window)


def test_drop_of_a_folder_without_rom(window, romless):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(romless))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert len(window.shown) == 1 and str(romless) in window.shown[0]
    _still_running(window)


def test_open_recent_on_a_moved_integration(window, tmp_path):
    moved = tmp_path / "Moved-Genesis"
    window.settings.add_recent(str(moved))
    commands.build_recent_menu(window)
    window.recent_menu.actions()[0].trigger()
    assert len(window.shown) == 1 and str(moved) in window.shown[0]
    _still_running(window)


def test_game_list_refuses_a_folder_without_rom(window, romless, tmp_path, qtbot):
    from studio.qt.game_list import GameListDialog

    listed = tmp_path / "data" / "integrations" / romless.name
    shutil.copytree(romless, listed)
    dialog = GameListDialog(window)
    qtbot.addWidget(dialog)
    dialog.search.setText(romless.name)
    assert dialog.proxy.rowCount() == 1 and dialog.proxy.index(0, 2).data() == "missing"
    dialog.table.selectRow(0)
    dialog.accept()
    assert dialog.chosen is None and "has no ROM here yet" in dialog.message.text()
    commands.guard(window, lambda: window.open_game(listed))  # what the game list runs with its choice
    assert len(window.shown) == 1 and str(listed) in window.shown[0]
    _still_running(window)
