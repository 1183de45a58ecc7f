"""Opening something that cannot be opened is a message naming it, from every entry point; never an exit."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from emucore.paths import integrations_dir
from studio.app import main as studio_main
from studio.model.commands import advance
from studio.model.opening import OpenError, resolve_game
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.model.workspace import Workspace
from studio.qt import commands
from studio.qt.main_window import MainWindow


@pytest.fixture
def romless(tmp_path):
    """An integration folder whose ROM is not there (as stable-retro's folders ship)."""
    folder = tmp_path / "NoRom-Genesis"
    shutil.copytree(integrations_dir() / "StudioDemo-Genesis", folder)
    (folder / "rom.md").unlink()
    return folder


def test_resolve_names_the_folder_and_the_problem(romless, tmp_path):
    with pytest.raises(OpenError, match=r"NoRom-Genesis: this integration has no ROM"):
        resolve_game(str(romless), None)
    with pytest.raises(OpenError, match="nowhere: no such file, folder or integration"):
        resolve_game(str(tmp_path / "nowhere"), None)
    (romless / "rom.md").write_bytes((integrations_dir() / "StudioDemo-Genesis" / "rom.md").read_bytes())
    with pytest.raises(OpenError, match=r"NoSuch\.state: no such state"):
        resolve_game(str(romless), "NoSuch")
    (romless / "metadata.json").write_text("{not json")  # opens at power-on; the session reports it
    assert resolve_game(str(romless), None)[1] is None


def test_resolve_finds_studio_integrations_by_name(ale_rom):
    Session(ale_rom("pong", "Pong.a26")).close()
    rom, state = resolve_game("Pong-Atari2600", None)
    assert rom.name == "rom.a26" and rom.parent.name == "Pong-Atari2600" and state is None


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


def test_another_rom_of_the_same_file_name_gets_its_own_integration(tmp_path):
    """Two different ROMs both named Game.nes: the second is not run under the first one's folder."""
    import shutil

    from studio.model.opening import integration_folder_for

    first, second = tmp_path / "a" / "Game.nes", tmp_path / "b" / "Game.nes"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copyfile(integrations_dir() / "StudioDemo-Nes" / "rom.nes", path)
    body = bytearray(second.read_bytes())
    body[100] ^= 0xFF
    second.write_bytes(bytes(body))
    folder_a, created_a = integration_folder_for(first)
    folder_b, created_b = integration_folder_for(second)
    assert created_a and created_b and folder_a.name == "Game-Nes" and folder_b.name == "Game2-Nes"
    assert integration_folder_for(first) == (folder_a, False) and integration_folder_for(second) == (folder_b, False)
