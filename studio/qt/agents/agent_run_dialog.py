"""The Run agent dialog: play an integration headless with an agent, watch it, and read the report.

The run happens on a worker thread (``studio.model.agents.agent_run.run_episodes``); the worker only stores
the newest frame and reward points under a lock, and a 15 Hz timer on the GUI thread draws them.
Episode ends and the final report cross threads as queued Qt signals. With a Ray cluster address
the episodes are played on the cluster: each shows (table row and reward curve) as it comes back.
The dialog opens with the last run's choices (kept in the studio's settings) or, the first time,
the sanity preset: one episode of random held buttons but START and SELECT, whose step budget is
doubled once when no episode ended within it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.agents.agent_run import EpisodeResult, RunChoices, RunReport, StepEvent, make_agent, run_episodes
from studio.model.agents.run_log import run_log_folder
from studio.model.settings import Settings
from studio.qt.agents.agent_run_form import AgentForm
from studio.qt.play.session_view import GameView

REFRESH_MS = 66  # ~15 Hz


class _Bridge(QObject):
    """Signals emitted from the worker thread, delivered queued on the GUI thread."""

    episode_done = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    extended = Signal(int)


class AgentDialog(QDialog):
    """Runs an agent on the integration in ``folder`` from ``state`` (None: the default state) and shows the results.

    Args:
        folder: The integration folder (the one the session has open; never looked up by name).
        state: A state name or path, or None for the game's default state.
        parent: The parent widget.
        scenario: A scenario name or ``.json`` path to start with (None: ``scenario.json``).
        settings: The studio's settings, where the dialog keeps its choices (``agent_run``) between
            runs; None: the defaults, kept nowhere.
    """

    def __init__(self, folder: Path, state: str | None, parent: QWidget | None = None, scenario: str | None = None,
                 settings: Settings | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Run agent - {folder.name}")
        self.folder = folder
        self.game = folder.name
        self.state = state
        self.report: RunReport | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._points: list[tuple[int, int, float]] = []  # (episode, step, cumulative) since last draw
        self._last_frame_copy = 0.0
        self._curves: dict[int, tuple[pg.PlotDataItem, list[float], list[float]]] = {}
        self._on_ray = False
        self._bridge = _Bridge()
        self._bridge.episode_done.connect(self._episode_done)
        self._bridge.finished.connect(self._finished)
        self._bridge.failed.connect(self._failed)
        self._bridge.extended.connect(self._extended)

        self.settings = settings
        self.form = form = AgentForm(scenario, self)
        self.agent_box, self.file_edit, self.file_button = form.agent_box, form.file_edit, form.file_button
        self.scenario_edit, self.episodes_box, self.steps_box = form.scenario_edit, form.episodes_box, form.steps_box
        self.seed_box, self.ray_edit, self.tensorboard_box = form.seed_box, form.ray_edit, form.tensorboard_box
        if settings is not None:  # the last run's choices
            self.form.show_choices(RunChoices.from_dict(settings.agent_run))

        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.run)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.save_button = QPushButton("Save best episode as .bk2...")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._save_best)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.stop_button, self.save_button):
            buttons.addWidget(b)
        buttons.addStretch(1)

        self.game_view = GameView()
        self.game_view.setMinimumSize(256, 224)
        self.plot = pg.PlotWidget(background=self.palette().color(QPalette.ColorRole.Base))
        self.plot.setLabel("left", "cumulative reward")
        self.plot.setLabel("bottom", "step")
        self.plot.addLegend()
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Episode", "Return", "Length", "Done condition", "Node"])
        header = self.table.horizontalHeader()
        for column in (0, 1, 2, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the done condition: the long one
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.flags_list = QListWidget()
        self.flags_list.setWordWrap(True)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.status = QLabel("")
        self.status.setWordWrap(True)  # a TensorBoard folder's path can be long
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # to copy the command

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addLayout(self.form)
        left_layout.addLayout(buttons)
        left_layout.addWidget(self.game_view, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.plot)
        right.addWidget(self.table)
        flags = QWidget()
        flags_layout = QVBoxLayout(flags)
        flags_layout.setContentsMargins(0, 0, 0, 0)
        flags_layout.addWidget(self.summary)
        flags_layout.addWidget(QLabel("Flags"))
        flags_layout.addWidget(self.flags_list)
        right.addWidget(flags)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)

        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._refresh)
        self.resize(1100, 640)

    # ---- controls ----

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> None:
        """Starts a run with the chosen settings on a worker thread."""
        if self.running:
            return
        self._keep_choices()
        try:
            agent = make_agent(self.agent_box.currentText(), seed=self.seed_box.value(),
                               path=self.file_edit.text().strip() or None)
        except Exception as exc:  # a bad movie or model file: say so, keep the dialog
            QMessageBox.warning(self, "Run agent", f"Cannot create the agent: {exc}")
            return
        self.report = None
        self.table.setRowCount(0)
        self.flags_list.clear()
        self.summary.setText("")
        self.plot.clear()
        self._curves.clear()
        self._points.clear()
        self._stop.clear()
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.save_button.setEnabled(False)
        address = self.ray_edit.text().strip() or None
        self._on_ray = address is not None
        self.game_view.show_placeholder(f"Playing on the Ray cluster at {address}: the frames stay there. Each "
                                        "episode shows on the right as it comes back." if address else "")
        self.status.setText(f"Running on the Ray cluster at {address}..." if address else "Running...")
        kwargs = {
            "state": self.state,
            "scenario": self.scenario_edit.text().strip() or None,
            "agent": agent,
            "episodes": self.episodes_box.value(),
            "max_steps": self.steps_box.value(),
            "on_step": self._on_step,
            "on_episode": self._bridge.episode_done.emit,
            "stop": self._stop,
            "ray_address": address,
            "log_dir": (run_log_folder(self.game, agent.name) if self.tensorboard_box.isChecked() else None),
            "on_extend": self._bridge.extended.emit,
        }
        self._thread = threading.Thread(target=self._work, args=(kwargs,), name="agent-run", daemon=True)
        self._thread.start()
        self._timer.start()

    def stop(self) -> None:
        """Asks the run to stop after the current step."""
        self._stop.set()

    def _work(self, kwargs: dict) -> None:
        try:
            report = run_episodes(self.folder, **kwargs)
        except Exception as exc:
            self._bridge.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self._bridge.finished.emit(report)

    def _on_step(self, event: StepEvent) -> None:
        """Worker thread: keep the newest frame (copied at most every refresh) and the curve point."""
        with self._lock:
            self._points.append((event.episode, event.step, event.total))
            now = time.monotonic()
            if event.obs.ndim == 3 and now - self._last_frame_copy >= REFRESH_MS / 2000:
                self._frame = event.obs.copy()
                self._last_frame_copy = now

    # ---- GUI thread ----

    def _refresh(self) -> None:
        with self._lock:
            frame, self._frame = self._frame, None
            points, self._points = self._points, []
        if frame is not None:
            self.game_view.show_frame(frame)
        touched = set()
        for episode, step, total in points:
            _, xs, ys = self._curve(episode)
            xs.append(step)
            ys.append(total)
            touched.add(episode)
        for episode in touched:
            curve, xs, ys = self._curves[episode]
            curve.setData(xs, ys)

    def _curve(self, episode: int) -> tuple[pg.PlotDataItem, list[float], list[float]]:
        if episode not in self._curves:
            pen = pg.mkPen(pg.intColor(episode, hues=9, values=1, maxValue=230), width=1.5)
            self._curves[episode] = (self.plot.plot([], [], pen=pen, name=f"episode {episode + 1}"), [], [])
        return self._curves[episode]

    def _episode_done(self, result: EpisodeResult) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        values = [str(result.index + 1), f"{result.total:g}", str(result.length), result.done_reason, result.node]
        for column, text in enumerate(values):
            self.table.setItem(row, column, QTableWidgetItem(text))
        curve, xs, ys = self._curve(result.index)
        if self._on_ray and result.length:  # played elsewhere: its curve comes with it
            xs.extend(range(1, result.length + 1))
            ys.extend(np.cumsum(result.rewards).tolist())
            curve.setData(xs, ys)
        self.status.setText(f"Episode {result.index + 1}: return {result.total:g} in {result.length} steps"
                            + (f" on {result.node}" if self._on_ray else ""))

    def _extended(self, budget: int) -> None:
        """No episode ended within the budget: the run is played again with ``budget`` steps."""
        self.table.setRowCount(0)
        self.plot.clear()
        self._curves.clear()
        with self._lock:
            self._points.clear()
        self.status.setText(f"No episode ended within {self.steps_box.value():,} steps: playing again with the "
                            f"budget extended once, to {budget:,} steps...")

    def _keep_choices(self) -> None:
        if self.settings is not None:
            self.settings.agent_run = dict(self.form.choices().to_dict())

    def _finished(self, report: RunReport) -> None:
        self._timer.stop()
        self._refresh()
        self.report = report
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.save_button.setEnabled(report.best_movie is not None)
        self.flags_list.clear()
        for flag in report.flags:
            self.flags_list.addItem(f"{flag.name}: {flag.detail}")
        if report.checks:
            self.flags_list.addItem(("" if report.flags else "No likely scenario bug found. ")
                                    + "Checks passed: " + "; ".join(report.checks))
        if report.unchecked:
            self.flags_list.addItem("Not checked: " + "; ".join(report.unchecked))
        self.summary.setText(report.summary)
        if report.episodes:
            best = report.episodes[report.best_index or 0]
            mean = float(np.mean(report.returns))
            count = len(report.episodes)
            self.status.setText(f"{count} episode{'s' * (count != 1)}, mean return {mean:g}, "
                                f"best {best.total:g} (episode {best.index + 1})"
                                + (" - stopped" if report.stopped else ""))
        else:
            self.status.setText("Stopped before any episode ended" if report.stopped else "No episode")
        if report.log_dir is not None:
            self.status.setText(f"{self.status.text()}. TensorBoard: tensorboard --logdir {report.log_dir.parent}")

    def _failed(self, message: str) -> None:
        self._timer.stop()
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.status.setText(f"Failed: {message}")

    def _save_best(self) -> None:
        if self.report is None or self.report.best_movie is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save best episode", f"{self.game}-best.bk2", "Movies (*.bk2)")
        if path:
            self.report.save_best(path)

    def wait(self, timeout: float | None = None) -> None:
        """Joins the worker thread (tests; closing)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def done(self, result: int) -> None:  # noqa: D401 - Qt override: stop the worker on close
        self._keep_choices()
        self._stop.set()
        self.wait(5)
        self._timer.stop()
        super().done(result)
