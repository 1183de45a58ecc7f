"""The main window: the game view, a status bar, and the play controls."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox

from studio.model.play_session import PlaySession
from studio.qt.game_view import GameView
from studio.qt.keys import key_name

TICK_MS = 4


class MainWindow(QMainWindow):
    def __init__(self, session: PlaySession):
        super().__init__()
        self.session = session
        self.setWindowTitle(f"Retro Integration Studio - {session.title}")
        self.view = GameView(self)
        geometry = session.emulator.geometry
        if geometry.aspect_ratio > 0:
            self.view.aspect_ratio = geometry.aspect_ratio
        else:
            self.view.aspect_ratio = geometry.base_width / max(geometry.base_height, 1)
        self.setCentralWidget(self.view)
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self._build_menus()
        self._fps_frames = 0
        self._fps_since = time.perf_counter()
        self._fps = 0.0
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.tick)
        self.timer.start(TICK_MS)
        self.view.show_frame(session.screen())
        self._update_status()

    def _build_menus(self) -> None:
        actions = [
            ("&File", "&Quit", "Ctrl+Q", self.close),
            ("&Emulation", "&Pause", "P", lambda: self.session.set_paused(not self.session.paused)),
            ("&Emulation", "&Frame advance", "F", lambda: self.advance(1)),
            ("&Emulation", "&Reset to start state", "Ctrl+R", self._reset),
            ("&Help", "&Controls", "F12", self._show_controls),
        ]
        menus = {}
        for menu_title, title, shortcut, callback in actions:
            menu = menus.get(menu_title) or self.menuBar().addMenu(menu_title)
            menus[menu_title] = menu
            action = QAction(title, self)
            action.setShortcut(QKeySequence(shortcut))
            action.triggered.connect(callback)
            menu.addAction(action)

    def advance(self, frames: int) -> None:
        self.session.set_paused(True)
        self.session.advance(frames)
        self.view.show_frame(self.session.screen())
        self._update_status()

    def _reset(self) -> None:
        self.session.reset_to_start()
        self.view.show_frame(self.session.screen())

    def _show_controls(self) -> None:
        system = self.session.system
        lines = [f"{button}: {key}" for button, key in zip(system.buttons, system.keybinds) if button and key]
        QMessageBox.information(self, "Controls", "\n".join(lines))

    def tick(self) -> None:
        ran = self.session.tick()
        if ran:
            self.view.show_frame(self.session.screen())
            self._fps_frames += ran
        now = time.perf_counter()
        if now - self._fps_since >= 0.5:
            self._fps = self._fps_frames / (now - self._fps_since)
            self._fps_frames = 0
            self._fps_since = now
            self._update_status()

    def _update_status(self) -> None:
        state = "paused" if self.session.paused else f"{self._fps:5.1f} fps"
        self.status.setText(f"frame {self.session.frames}   {state}   {self.session.emulator.core.lib}")

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        name = key_name(event.key())
        if event.isAutoRepeat() or name is None or not self.session.key_down(name):
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        name = key_name(event.key())
        if event.isAutoRepeat() or name is None or not self.session.key_up(name):
            super().keyReleaseEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.timer.stop()
        self.session.close()
        super().closeEvent(event)
