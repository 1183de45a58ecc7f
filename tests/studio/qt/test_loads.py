"""Loads while paused repaint every view at once, say what was loaded, and become the reset target."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from studio.model.commands import advance
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.model.workspace import Workspace
from studio.qt.main_window import MainWindow

SCORE = 0xFF0000  # the demo game's score, >u4


def picture(window: MainWindow) -> np.ndarray:
    image = window.view._image
    assert image is not None
    return np.array(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())


def make_window(qtbot, demo) -> MainWindow:
    rom, state = demo
    window = MainWindow(Workspace(Session(rom, state), Settings.load()))
    qtbot.addWidget(window)
    window.timer.stop()
    window.show()
    return window


def play(window: MainWindow, frames: int) -> None:
    window.session.set_buttons(0, 1)  # B scores
    advance(window.workspace, frames)
    window.session.set_buttons(0, 0)
    advance(window.workspace, 2)


def test_a_quick_slot_load_while_paused_repaints_the_game_and_the_ram(qtbot, demo):
    window = make_window(qtbot, demo)
    play(window, 10)
    window.session.save_slot(3)
    at_save = picture(window).copy()
    play(window, 40)
    assert window.session.paused and not np.array_equal(picture(window), at_save)
    window.ram_viewer.go_to(f"{SCORE + 3:#x}")
    before = window.ram_viewer.readout_values()["|u1"]
    qtbot.keyPress(window, Qt.Key.Key_F3)
    assert np.array_equal(picture(window), at_save)
    assert window.statusBar().currentMessage() == "loaded slot 3"
    qtbot.waitUntil(lambda: window.ram_viewer.readout_values()["|u1"] != before, timeout=2000)
    assert window.ram_viewer.readout_values()["|u1"] == str(window.session.emulator.read(SCORE + 3, "|u1"))


def test_named_state_reset_and_movie_start_repaint_while_paused(qtbot, demo, tmp_path):
    window = make_window(qtbot, demo)
    start = picture(window).copy()
    play(window, 10)
    window.session.save_state("Ten")
    at_ten = picture(window).copy()
    window.session.movies.start_recording(tmp_path / "m.bk2")
    at_record = window.session.screen().copy()
    play(window, 20)
    window.command("stop_movie")()
    window.session.load_state("Ten")
    assert np.array_equal(picture(window), at_ten) and window.statusBar().currentMessage() == "loaded state Ten"
    play(window, 20)
    window.command("reset_to_start")()  # back to "Ten", the state last loaded
    assert np.array_equal(picture(window), at_ten)
    window.session.load_state_file(demo[1])
    assert np.array_equal(picture(window), start)
    window.session.movies.play(tmp_path / "m.bk2")
    assert np.array_equal(picture(window), at_record.reshape(at_record.shape[0], -1))
    window.session.movies.stop_playing()
    window.command("hard_reset")()
    shown = window.session.screen()
    assert np.array_equal(picture(window), shown.reshape(shown.shape[0], -1))
    assert window.statusBar().currentMessage() == "console reset"
