"""The studio's window plays the game with the keyboard; the screenshot command (the session without Qt:
``tests/studio/model/test_play.py``)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from studio.app import main as studio_main
from studio.model.commands import advance
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.workspace import Workspace
from studio.qt.main_window import MainWindow


def test_window_plays_with_the_keyboard(qtbot):
    rom, state = resolve_game(None, None)
    window = MainWindow(Workspace(Session(rom, state)))
    qtbot.addWidget(window)
    window.timer.stop()
    qtbot.keyPress(window, Qt.Key.Key_Right)
    advance(window.workspace, 12)
    qtbot.keyRelease(window, Qt.Key.Key_Right)
    assert window.session.emulator.read(0xFF000E, ">i2") == 1
    assert "frame 12" in window.status.text()
    image = window.grab().toImage()
    assert image.width() > 300 and image.height() > 200


def test_screenshot_command(tmp_path):
    out = tmp_path / "shot.png"
    assert studio_main(["--screenshot", str(out), "--frames", "30"]) == 0
    assert out.stat().st_size > 1000
