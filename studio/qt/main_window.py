"""The main window: a composition root. It shows the workspace's game, makes the docks of ``DOCKS`` and the
menus of the menu table, and runs the frame tick; behaviour lives in ``studio.model`` (the workspace, its
models and commands) and the Qt-only commands in :mod:`studio.qt.commands`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtWidgets import QDialog, QLabel, QMainWindow

from studio.model.events import Connections
from studio.model.play.gamepad import GamepadPoller
from studio.model.play.recovery import Recovery
from studio.model.play.session import Session
from studio.model.scenario.regression_recheck import Recheck
from studio.model.set_aside import OpenProblem
from studio.model.variables.watch import Watch
from studio.model.workspace import Workspace
from studio.qt import commands, menus
from studio.qt.docks import Docks
from studio.qt.play.audio_buffer_output import AudioOutput
from studio.qt.play.input_router_keys import GameInput
from studio.qt.play.session_view import GameView
from studio.qt.play.states_panel import StatesPanel
from studio.qt.problems import ProblemNotice
from studio.qt.scenario.scenario_doc_editor import ScenarioEditor
from studio.qt.search.search_dock import SearchDock
from studio.qt.variables.ram_viewer import RamViewer
from studio.qt.variables.watch_panel import VariablesPanel

TICK_MS = 4


class MainWindow(QMainWindow):
    def __init__(self, workspace: Workspace, recovery: Recovery | None = None, *, persist: bool = True,
                 problems: Iterable[OpenProblem] = ()):
        super().__init__()
        self.workspace = workspace
        self.settings = workspace.settings
        self.persist = persist  # False: the layout and settings are never written (screenshot runs)
        self.recovery = recovery
        self.setAcceptDrops(True)
        self.view = GameView(self)
        self.view.integer_scaling = self.settings.integer_scaling
        self.setCentralWidget(self.view)
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self.docks = Docks(self, workspace)
        docks = self.docks
        self.states_panel = docks.panel("states", StatesPanel)
        self.variables_panel = docks.panel("variables", VariablesPanel)
        self.search_tabs = docks.panel("search", SearchDock)
        self.scenario_editor = docks.panel("scenario", ScenarioEditor)
        self.ram_viewer = docks.panel("ram", RamViewer)
        self.search_panel = self.search_tabs.panel
        self.check_dialog: QDialog | None = None  # the last integration check shown
        self.states_dock, self.variables_dock, self.search_dock, self.scenario_dock, self.ram_dock = (
            self.docks.docks[key] for key in ("states", "variables", "search", "scenario", "ram"))
        self.search_tabs.screen_typed.connect(lambda: self.view.setFocus())
        self.search_tabs.variable_found.connect(self.variables_panel.add_variable)
        reader_box = self.search_tabs.from_screen.reader_box  # Find from screen's box dragged on the game
        reader_box.box_wanted.connect(self.view.drag_box)
        self.view.box_dragged.connect(reader_box.box_dragged)
        reader_box.marked.connect(self.view.mark)
        self.menu_actions, self.recent_menu = menus.build_menus(self)
        commands.build_recent_menu(self)
        self.game_input = GameInput(self, workspace.input, self.view.set_keys_to_game)
        self.advance_count = 10
        self.audio = AudioOutput(workspace.session.emulator.get_audio_rate())
        self.audio.set_volume(self.settings.volume)
        self.audio.set_muted(self.settings.muted)
        self.pads = GamepadPoller()
        self._fps_frames, self._fps_since, self._fps = 0, time.perf_counter(), 0.0
        self.problem_notice = ProblemNotice(self, self.statusBar())  # files that could not be read
        self._game_connections = Connections()
        self._connections = Connections()
        self._connections.connect(workspace.events.closing, self._game_connections.disconnect_all)
        self._connections.connect(workspace.events.opened, self._game_opened)
        self._connections.connect(workspace.recheck.events.checked, self._regression_checked)
        self._default_layout_due = not self._restore_layout()
        if self._default_layout_due:
            self.resize(1280, 860)
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.tick)
        self.timer.start(TICK_MS)
        self._show_game()
        self.problem_notice.add([*problems, *workspace.session.problems])

    @property
    def session(self) -> Session:
        return self.workspace.session

    @property
    def watch(self) -> Watch:
        return self.workspace.watch

    # ---- construction ----

    def command(self, name: str) -> Callable[[], None]:
        """What the menu table's command ``name`` runs (see :mod:`studio.qt.menus`)."""
        return menus.command(self, name)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not event.spontaneous():
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)  # at start-up the keys play the game
        if self._default_layout_due:  # once the window has its real size
            self._default_layout_due = False
            QTimer.singleShot(0, self.apply_default_layout)

    def apply_default_layout(self) -> None:
        """The game takes most of the window: the side docks get what their panels need, 30% to 45% of the
        width (below that they scroll), and the RAM dock ~24% of the height."""
        side = (self.states_panel, self.variables_panel, self.search_tabs, self.scenario_editor)
        needed = max(panel.minimumSizeHint().width() for panel in side) + 8
        width = min(max(needed, int(self.width() * 0.3)), int(self.width() * 0.45))
        self.resizeDocks([self.states_dock], [width], Qt.Orientation.Horizontal)
        self.resizeDocks([self.ram_dock], [max(150, int(self.height() * 0.24))], Qt.Orientation.Vertical)

    def _restore_layout(self) -> bool:
        """Puts back the window and docks as they were; False on a first run."""
        if not self.settings.window_geometry:
            return False
        self.restoreGeometry(QByteArray.fromBase64(self.settings.window_geometry.encode()))
        if self.settings.window_state:
            self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))
        return True

    def save_layout(self) -> None:
        if not self.persist:
            return
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        self.settings.window_state = bytes(self.saveState().toBase64().data()).decode()
        self.settings.save()

    # ---- the game ----

    def _show_game(self) -> None:
        """Title, picture, sound rate and status of the workspace's game, and the window's slots on its session."""
        session = self.session
        self.setWindowTitle(f"Retro Integration Studio - {session.name}")
        geometry = session.emulator.geometry
        self.view.aspect_ratio = geometry.aspect_ratio if geometry.aspect_ratio > 0 else (
            geometry.base_width / max(geometry.base_height, 1))
        events = session.events
        for signal, slot in ((events.frame, self._frame_changed), (events.pause_toggled, self._update_status),
                             (events.speed_changed, self._update_status), (events.movie, self._update_status),
                             (events.notice, self._show_notice), (events.problem, self._show_problem)):
            self._game_connections.connect(signal, slot)
        self._frame_changed()
        self._update_status()
        self._record_recovery(force=True)

    def _game_opened(self) -> None:
        self.problem_notice.add(self.session.problems)
        self.audio.set_session_rate(self.session.emulator.get_audio_rate())
        self._show_game()

    def open_game(self, target: Path, state: str | None = None) -> None:
        """Replaces the running game; errors leave the current one running."""
        session = self.workspace.open(target, state)
        self.settings.add_recent(str(target))
        commands.build_recent_menu(self)
        if session.created:
            commands.offer_known_integration(self)

    # ---- the frame ticker ----

    def tick(self) -> None:
        session = self.session
        if self.pads.available:
            self.workspace.input.set_pads(self.pads.poll())
        ran = session.tick()
        self.audio.feed(session.audio)  # every tick, so the device never runs dry between frames
        session.audio.clear()
        self.workspace.recheck.poll()
        if ran:
            self._record_recovery()
        self._fps_frames += ran
        now = time.perf_counter()
        if now - self._fps_since >= 0.5:
            self._fps = self._fps_frames / (now - self._fps_since)
            self._fps_frames, self._fps_since = 0, now
            self._update_status()

    def _record_recovery(self, force: bool = False) -> None:
        """Keeps what is open, and a recent state of it, for a restore after a crash."""
        if self.recovery is None:
            return
        if force or self.recovery.due():
            self.recovery.record(str(self.session.folder), self.session.emulator.get_state(), self.session.frame,
                                 force=True)
            self.save_layout()  # panels and settings survive a crash too

    def _show_notice(self, notice: str) -> None:
        self.statusBar().showMessage(notice, 3000)

    def _show_problem(self, problem: OpenProblem) -> None:
        self.problem_notice.add([problem])

    def _regression_checked(self, result: Recheck) -> None:
        summary = result.summary()
        if summary:
            self.statusBar().showMessage(summary, 10000)

    def _frame_changed(self) -> None:
        self.view.show_frame(self.session.screen())
        if self.session.paused:  # a frame step: the frame number now (while running, twice a second)
            self._update_status()

    def _update_status(self) -> None:
        session = self.session
        speed = "unbounded" if session.speed > 100 else f"{session.speed:g}x"
        state = "paused" if session.paused else ("rewinding" if session.rewinding else f"{self._fps:5.1f} fps")
        movie = f"   {session.movies.status}" if session.movies.status else ""
        self.status.setText(f"frame {session.frame}   {state}   speed {speed}{movie}   {session.emulator.core.lib}")
        self.menu_actions["pause"].setChecked(session.paused)

    # ---- drag and drop, close ----

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            commands.open_path(self, Path(url.toLocalFile()))

    def closeEvent(self, event) -> None:  # noqa: N802
        self.timer.stop()
        self.game_input.close()
        self.save_layout()
        self._connections.disconnect_all()
        self._game_connections.disconnect_all()
        self.docks.close()
        self.workspace.close()
        if self.recovery is not None:
            self.recovery.finish()
        self.audio.close()
        self.pads.close()
        super().closeEvent(event)
