"""The main window: a composition root. It wires the session to the views and the action table
to menus; behaviour lives in ``studio.model``."""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
)

from emucore.errors import EmucoreError
from emucore.integration import STATE_SUFFIX
from studio.model.actions import ACTIONS, REWIND_KEY
from studio.model.bindings import key_map
from studio.model.gamepad import GamepadPoller
from studio.model.recovery import Recovery
from studio.model.session import SPEEDS, Session
from studio.model.set_aside import OpenProblem
from studio.model.settings import Settings
from studio.model.watch import Watch
from studio.qt.audio import AudioOutput
from studio.qt.game_input import GameInput
from studio.qt.game_view import GameView
from studio.qt.problems import ProblemNotice
from studio.qt.ram_viewer import RamViewer
from studio.qt.scenario_editor import ScenarioEditor
from studio.qt.search_dock import SearchDock
from studio.qt.states_panel import StatesPanel
from studio.qt.variables_panel import VariablesPanel

TICK_MS = 4


class MainWindow(QMainWindow):
    def __init__(self, session: Session, settings: Settings | None = None, recovery: Recovery | None = None,
                 *, persist: bool = True, problems: Iterable[OpenProblem] = ()):
        super().__init__()
        self.session = session
        self.settings = settings or Settings()
        self.persist = persist  # False: the layout and settings are never written (screenshot runs)
        self.recovery = recovery
        self.setWindowTitle(f"Retro Integration Studio - {session.name}")
        self.setAcceptDrops(True)
        self.view = GameView(self)
        geometry = session.emulator.geometry
        self.view.aspect_ratio = geometry.aspect_ratio if geometry.aspect_ratio > 0 else (
            geometry.base_width / max(geometry.base_height, 1)
        )
        self.view.integer_scaling = self.settings.integer_scaling
        self.setCentralWidget(self.view)
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self.states_panel = StatesPanel(session, self)
        self.states_dock = self._dock("States", self.states_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.watch = Watch(session)
        self.ram_viewer = RamViewer(self.watch, self)
        self.ram_dock = self._dock("RAM", self.ram_viewer, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.variables_panel = VariablesPanel(self.watch, self)
        self.variables_dock = self._dock("Variables", self.variables_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.scenario_editor = ScenarioEditor(session, self)
        self.scenario_editor.done_suggest.watch = self.watch
        self.search_tabs = SearchDock(session, self.watch, lambda: self.scenario_editor.doc,
                                      self.variables_panel.add_variable, self.settings.search_types, self)
        self.search_tabs.screen_typed.connect(lambda: self.view.setFocus())
        self.search_panel = self.search_tabs.panel
        self.search_dock = self._dock("Search", self.search_tabs, Qt.DockWidgetArea.RightDockWidgetArea)
        self.scenario_dock = self._dock("Scenario", self.scenario_editor, Qt.DockWidgetArea.RightDockWidgetArea)
        self._regression_timer = QTimer(self)  # scenario edits re-check the attached movies, debounced
        self._regression_timer.setSingleShot(True)
        self._regression_timer.setInterval(700)
        self._regression_timer.timeout.connect(self._recheck_regression)
        self.scenario_editor.doc.on_change(self._regression_timer.start)
        self.tabifyDockWidget(self.states_dock, self.variables_dock)
        self.tabifyDockWidget(self.variables_dock, self.search_dock)
        self.tabifyDockWidget(self.search_dock, self.scenario_dock)
        self.states_dock.raise_()
        self.actions: dict[str, QAction] = {}
        self._build_menus()
        self.game_input = GameInput(self, lambda: self.session, key_map(session.system, self.settings),
                                    self.view.set_keys_to_game)
        self._advance_count = 10
        self.audio = AudioOutput(session.emulator.get_audio_rate())
        self.audio.set_volume(self.settings.volume)
        self.audio.set_muted(self.settings.muted)
        self.pads = GamepadPoller()
        self._fps_frames = 0
        self._fps_since = time.perf_counter()
        self._fps = 0.0
        self._listen_to(session)
        self._default_layout_due = not self._restore_layout()
        if self._default_layout_due:
            self.resize(1280, 860)
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.tick)
        self.timer.start(TICK_MS)
        self.view.show_frame(session.screen())
        self._update_status()
        self._record_recovery(force=True)
        self.problem_notice = ProblemNotice(self, self.statusBar())  # files that could not be read
        self.problem_notice.add([*problems, *session.problems])

    # ---- construction ----

    def _dock(self, title: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title}")
        self._set_dock_content(dock, widget)
        self.addDockWidget(area, dock)
        return dock

    @staticmethod
    def _set_dock_content(dock: QDockWidget, widget) -> None:
        """The dock's panel, scrolling when the dock is smaller than it, so no panel sets the window's minimum."""
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidget(widget)
        dock.setWidget(area)

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
        side = (self.states_dock, self.variables_dock, self.search_dock, self.scenario_dock)
        needed = max(dock.widget().widget().minimumSizeHint().width() for dock in side) + 8
        width = min(max(needed, int(self.width() * 0.3)), int(self.width() * 0.45))
        self.resizeDocks([self.states_dock], [width], Qt.Orientation.Horizontal)
        self.resizeDocks([self.ram_dock], [max(150, int(self.height() * 0.24))], Qt.Orientation.Vertical)

    def _build_menus(self) -> None:
        menus = {}
        for spec in ACTIONS:
            menu = menus.get(spec.menu) or self.menuBar().addMenu(spec.menu)
            menus[spec.menu] = menu
            action = QAction(spec.title, self)
            if spec.shortcut:
                action.setShortcut(QKeySequence(spec.shortcut))
            action.setCheckable(spec.checkable)
            action.triggered.connect(getattr(self, spec.handler))
            menu.addAction(action)
            self.actions[spec.id] = action
        for dock in (self.states_dock, self.variables_dock, self.search_dock, self.scenario_dock, self.ram_dock):
            menus["&View"].addAction(dock.toggleViewAction())
        menus["&File"].insertAction(self.actions["quit"], self.actions["check_integration"])  # beside Export
        self.recent_menu = menus["&File"].addMenu("Open &recent")
        menus["&File"].insertMenu(self.actions["quit"], self.recent_menu)
        self._build_recent_menu()
        self.actions["integer_scaling"].setChecked(self.settings.integer_scaling)
        self.actions["mute"].setChecked(self.settings.muted)

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
        self.settings.window_geometry = bytes(self.saveGeometry().toBase64()).decode()
        self.settings.window_state = bytes(self.saveState().toBase64()).decode()
        self.settings.save()

    # ---- the frame ticker ----

    def tick(self) -> None:
        session = self.session
        if self.pads.available:
            for player, mask in enumerate(self.pads.poll()):
                session.set_buttons(player, mask | self.game_input.masks[player])
        ran = session.tick()
        self.audio.feed(session.audio)  # every tick, so the device never runs dry between frames
        session.audio.clear()
        if ran:
            self._record_recovery()
        self._fps_frames += ran
        now = time.perf_counter()
        if now - self._fps_since >= 0.5:
            self._fps = self._fps_frames / (now - self._fps_since)
            self._fps_frames = 0
            self._fps_since = now
            self._update_status()

    def _record_recovery(self, force: bool = False) -> None:
        """Keeps what is open, and a recent state of it, for a restore after a crash."""
        if self.recovery is None:
            return
        if force or self.recovery.due():
            self.recovery.record(str(self.session.folder), self.session.emulator.get_state(), self.session.frame,
                                 force=True)
            self.save_layout()  # panels and settings survive a crash too

    def _listen_to(self, session: Session) -> None:
        session.on("frame", self._frame_changed)
        session.on("paused", self._update_status)
        session.on("movie", self._update_status)
        session.on("notice", self._show_notice)
        session.on("problem", lambda: self.problem_notice.add(session.problems[-1:]))

    def _show_notice(self) -> None:
        self.statusBar().showMessage(self.session.notice, 3000)

    def _frame_changed(self) -> None:
        self.view.show_frame(self.session.screen())

    def _update_status(self) -> None:
        session = self.session
        speed = "unbounded" if session.speed > 100 else f"{session.speed:g}x"
        state = "paused" if session.paused else ("rewinding" if session.rewinding else f"{self._fps:5.1f} fps")
        movie = f"   {session.movie_state}" if session.movie_state else ""
        self.status.setText(f"frame {session.frame}   {state}   speed {speed}{movie}   {session.emulator.core.lib}")
        self.actions["pause"].setChecked(session.paused)

    # ---- commands (named in the action table) ----

    def toggle_pause(self) -> None:
        self.session.set_paused(not self.session.paused)

    def advance_one(self) -> None:
        self.advance(1)

    def advance_n(self) -> None:
        frames, ok = QInputDialog.getInt(self, "Frame advance", "Frames:", self._advance_count, 1, 100000)
        if ok:
            self._advance_count = frames
            self.advance(frames)

    def advance(self, frames: int) -> None:
        self.session.set_paused(True)
        self.session.advance(frames)
        self._update_status()

    def _set_speed_index(self, step: int) -> None:
        speeds = [s for s in SPEEDS if s > 0]
        current = self.session.speed if self.session.speed <= 100 else speeds[-1] * 2
        index = min(range(len(speeds)), key=lambda i: abs(speeds[i] - current))
        if step > 0 and current > speeds[-1]:
            return
        if step > 0 and index == len(speeds) - 1:
            self.session.set_speed(0)
        else:
            self.session.set_speed(speeds[max(0, min(len(speeds) - 1, index + step))])
        self._update_status()

    def slower(self) -> None:
        self._set_speed_index(-1)

    def faster(self) -> None:
        self._set_speed_index(1)

    def normal_speed(self) -> None:
        self.session.set_speed(1.0)
        self._update_status()

    def reset_to_start(self) -> None:
        self.session.reset_to_start()

    def hard_reset(self) -> None:
        self.session.hard_reset()

    def save_named_state(self) -> None:
        self.states_panel.save_as()

    def record_movie(self, power_on: bool = False) -> None:
        default = str(self.session.states.workspace / f"{self.session.name}-{int(time.time())}.bk2")
        path, _ = QFileDialog.getSaveFileName(self, "Record a movie", default, "Movies (*.bk2)")
        if path:
            players, ok = QInputDialog.getInt(self, "Record a movie", "Players:", 1, 1, 2)
            if ok:
                self._guard(lambda: self.session.start_recording(path, power_on=power_on, players=players))

    def record_movie_power_on(self) -> None:
        self.record_movie(power_on=True)

    def record_episodes(self) -> None:
        default = str(self.session.states.workspace / "episodes")
        folder = QFileDialog.getExistingDirectory(self, "Folder for the episodes' movies", default)
        if folder:
            self._guard(lambda: self.session.start_episode_recording(folder))

    def stop_movie(self) -> None:
        if self.session.recorder is not None:
            path = self.session.stop_recording()
            self.statusBar().showMessage(f"saved {path}", 4000)
        self.session.stop_movie()

    def play_movie_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Play a movie", "", "Movies (*.bk2 *.fm2)")
        if path:
            self._guard(lambda: self.session.play_movie(path))

    def toggle_integer_scaling(self) -> None:
        self.settings.integer_scaling = self.actions["integer_scaling"].isChecked()
        self.view.integer_scaling = self.settings.integer_scaling
        self.view.update()

    def toggle_mute(self) -> None:
        self.settings.muted = self.actions["mute"].isChecked()
        self.audio.set_muted(self.settings.muted)

    def choose_volume(self) -> None:
        percent, ok = QInputDialog.getInt(self, "Volume", "Volume (%):", round(self.settings.volume * 100), 0, 100)
        if ok:
            self.settings.volume = percent / 100
            self.audio.set_volume(self.settings.volume)
            self.settings.save()

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a ROM, state or movie")
        if path:
            self.open_path(Path(path))

    def export_dialog(self) -> None:
        from studio.model.export import export_integration
        from studio.qt.check_dialog import offer_check_before_export

        if not offer_check_before_export(self):
            return
        folder = QFileDialog.getExistingDirectory(self, "Export the integration into")
        if not folder:
            return
        include_rom = QMessageBox.question(
            self, "Export", "Include the ROM in the exported folder?"
        ) == QMessageBox.StandardButton.Yes

        def run() -> None:
            result = export_integration(self.session.folder, folder, include_rom=include_rom)
            lines = [f"{result.folder}: {len(result.files)} files."]
            lines += [f"warning: {w}" for w in result.warnings]
            lines += [f"{f.level}: {f.file} {f.key}: {f.message}" for f in result.findings[:20]]
            QMessageBox.information(self, "Export", "\n".join(lines))

        self._guard(run)

    def check_integration(self) -> None:
        from studio.qt.check_dialog import CheckDialog, run_check

        def check() -> None:
            self.session.set_paused(True)
            self.check_dialog = CheckDialog(self, run_check(self))
            self.check_dialog.show()

        self._guard(check)

    def run_agent(self) -> None:
        from studio.qt.agent_dialog import AgentDialog

        self.session.set_paused(True)
        AgentDialog(self.session.folder, self.session.state_name, self).exec()

    def attach_regression_movie(self) -> None:
        from studio.model.regression import RegressionSuite

        path, _ = QFileDialog.getOpenFileName(self, "Attach a movie", str(self.session.folder), "Movies (*.bk2)")
        if path:
            def attach() -> None:
                expectation = RegressionSuite(self.session.folder).attach(Path(path))
                QMessageBox.information(self, "Regression", f"{expectation.movie}: total reward "
                                        f"{expectation.total_reward:g}, done at line {expectation.done_frame}")

            self._guard(attach)

    def _recheck_regression(self) -> None:
        """After a scenario edit: replay the attached movies and say which changed."""
        from studio.model.regression import RegressionSuite

        try:
            outcomes = RegressionSuite(self.session.folder).check()
        except EmucoreError as exc:  # regression.json cannot be read
            self.statusBar().showMessage(f"regression: {exc}", 10000)
            return
        if not outcomes:
            return
        changed = [o.expectation.movie for o in outcomes if o.changed]
        text = f"regression: {len(outcomes) - len(changed)} ok"
        if changed:
            text += f", changed: {', '.join(changed)}"
        self.statusBar().showMessage(text, 10000)
        self.last_regression = outcomes

    def check_regression(self) -> None:
        from emucore.scenario.explain import reasons_text
        from studio.model.regression import RegressionSuite

        def check() -> None:
            outcomes = RegressionSuite(self.session.folder).check()
            if not outcomes:
                QMessageBox.information(self, "Regression", "No movie is attached to this integration yet.")
                return
            lines = [
                f"{'CHANGED' if o.changed else 'ok'}  {o.expectation.movie}: reward {o.total_reward:g} "
                f"(expected {o.expectation.total_reward:g}), done at {o.done_frame} "
                f"(expected {o.expectation.done_frame})"
                + (f", because {reasons_text(o.done_reasons)}" if o.done_reasons else "")
                + (f"  {o.error}" if o.error else "")
                for o in outcomes
            ]
            QMessageBox.information(self, "Regression", "\n".join(lines))

        self._guard(check)

    def find_from_screen(self) -> None:
        self.search_dock.show()
        self.search_dock.raise_()
        self.search_tabs.find_from_screen()

    def mark_alive(self) -> None:
        self.statusBar().showMessage(self.scenario_editor.done_suggest.mark_alive(), 5000)

    def mark_game_over(self) -> None:
        self.statusBar().showMessage(self.scenario_editor.done_suggest.mark_over(), 5000)

    def open_game_list(self) -> None:
        from studio.qt.game_list import GameListDialog

        dialog = GameListDialog(self)
        if dialog.exec() and dialog.chosen is not None:
            self._guard(lambda: self.open_game(dialog.chosen))

    def _build_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        for target in self.settings.recent:
            action = menu.addAction(target)
            action.triggered.connect(lambda _=False, t=target: self._guard(lambda: self.open_game(Path(t))))
        menu.setEnabled(bool(self.settings.recent))

    def open_path(self, path: Path) -> None:
        """A .state loads into the running game, a .bk2 plays, a ROM or folder opens a new game."""
        suffix = path.suffix.lower()
        if suffix == STATE_SUFFIX:
            self._guard(lambda: self.session.load_state_file(path))
        elif suffix in (".bk2", ".fm2"):
            self._guard(lambda: self.session.play_movie(path))
        else:
            self._guard(lambda: self.open_game(path))

    def open_game(self, target: Path, state: str | None = None) -> None:
        """Replaces the running game; errors leave the current one running."""
        from studio.model.opening import resolve_game

        rom, state_path = resolve_game(str(target), state)
        session = Session(rom, state_path, rewind_seconds=self.settings.rewind_seconds)
        old, self.session = self.session, session
        self.watch.close()
        self.watch = Watch(session)
        self.ram_viewer.set_watch(self.watch)
        self.variables_panel.set_watch(self.watch)
        self.search_tabs.set_session(session, self.watch)
        self.scenario_editor.doc.close()
        self.scenario_editor = ScenarioEditor(session, self)
        self.scenario_editor.done_suggest.watch = self.watch
        self.scenario_editor.doc.on_change(self._regression_timer.start)
        self._set_dock_content(self.scenario_dock, self.scenario_editor)
        old.close()
        self._listen_to(session)
        self.problem_notice.add(session.problems)
        self.states_panel.set_session(session)
        self.audio.set_session_rate(session.emulator.get_audio_rate())
        self.game_input.set_keys(key_map(session.system, self.settings))
        self.setWindowTitle(f"Retro Integration Studio - {session.name}")
        self.settings.add_recent(str(target))
        self._build_recent_menu()
        self._record_recovery(force=True)
        self._frame_changed()
        self._update_status()
        if session.created:
            self.offer_known_integration()

    def offer_known_integration(self) -> None:
        from studio.qt.known_rom_prompt import offer_on_open

        self._guard(lambda: offer_on_open(self))

    def show_controls(self) -> None:
        from studio.qt.controls_dialog import ControlsDialog

        if ControlsDialog(self.session.system, self.settings, self).exec():
            self.game_input.set_keys(key_map(self.session.system, self.settings))

    def show_shortcuts(self) -> None:
        rows = [f"{spec.shortcut or '-'}\t{spec.title.replace('&', '')}" for spec in ACTIONS]
        rows += [f"{REWIND_KEY.title()} (hold)\tRewind", "F1-F10\tLoad a quick slot", "Shift+F1-F10\tSave a quick slot"]
        QMessageBox.information(self, "Keyboard shortcuts", "\n".join(rows))

    def show_about(self) -> None:
        QMessageBox.about(self, "About Retro Integration Studio",
                          "Retro Integration Studio\nTurn classic console games into RL environments.")

    def _guard(self, action) -> None:
        try:
            action()
        except (EmucoreError, OSError, ValueError, RuntimeError) as exc:  # OpenError is a ValueError
            QMessageBox.warning(self, "Retro Integration Studio", str(exc))

    # ---- drag and drop ----

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            self.open_path(Path(url.toLocalFile()))

    def closeEvent(self, event) -> None:  # noqa: N802
        self.timer.stop()
        self.game_input.close()
        self.save_layout()
        self.search_panel.close_panel()
        self.search_tabs.from_screen.close_panel()
        self.session.close()
        if self.recovery is not None:
            self.recovery.finish()
        self.audio.close()
        self.pads.close()
        super().closeEvent(event)
