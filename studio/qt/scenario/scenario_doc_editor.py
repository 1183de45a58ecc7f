"""The scenario dock: reward terms, the done tree, crop, actions and Lua, with a live reward readout.

Every edit goes through :class:`studio.model.scenario.scenario_doc.ScenarioDocument`, which saves
scenario.json at once, lints it and rebuilds the evaluator. Lint findings are shown beside the
field at fault (a red line under the table or tree, and the row tinted). The readout and the
cumulative-reward timeline refresh at most 10 times a second and follow rewinds.

The tabs are modules of their own (``scenario_doc_*_tab``); :class:`ScenarioEditor` puts them
together with the Suggest done tab and the live readout, and has every tab show the document
again when it changes.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from emucore.scenario.explain import reasons_text
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.scenario.scenario_doc import ScenarioDocument
from studio.model.workspace import Workspace
from studio.qt.forms import scrolling
from studio.qt.problems import UnreadableBanner
from studio.qt.scenario.done_marks_panel import DoneSuggestPanel
from studio.qt.scenario.scenario_doc_actions_tab import CropActionsTab
from studio.qt.scenario.scenario_doc_done_tab import DoneTreeTab
from studio.qt.scenario.scenario_doc_fields import NO_OP, OP_CHOICES
from studio.qt.scenario.scenario_doc_lua_tab import LuaTab
from studio.qt.scenario.scenario_doc_reward_tab import OP, REWARD, VARIABLE, RewardTab
from studio.qt.scenario.scenario_doc_tab import DocumentTab

REFRESH_MS = 100  # 10 Hz
SUGGEST_TAB = 2
SUGGEST_PLOT_HEIGHT = 90  # the live readout and a strip of the plot stay in view while suggesting


class ScenarioEditor(QWidget):
    """The open integration's scenario: edit it, lint it, and watch its reward live.

    The tabs' widgets that the window and the tests reach through the editor keep their names
    here: ``terms``, ``table`` and ``reward_lint`` (Reward), ``tree`` (Done), ``script_choice``,
    ``lua`` and ``lua_status`` (Lua).

    Args:
        workspace: The open game; its ``scenario`` is the document edited.
        parent: The Qt parent.
    """

    _plot_height: int | None = None  # the plot's height while the Suggest done tab takes some of it

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.workspace = workspace
        self.session: Session = workspace.session
        self.doc: ScenarioDocument = workspace.scenario
        self._stale = True  # the live result moved on since the readout was drawn
        self._connections = Connections()
        self.reward_tab = RewardTab(self.doc)
        self.done_tab = DoneTreeTab(self.doc)
        self.actions_tab = CropActionsTab(self.doc)
        self.lua_tab = LuaTab(self.doc)
        self.document_tabs: tuple[DocumentTab, ...] = (self.reward_tab, self.done_tab, self.actions_tab, self.lua_tab)
        reward, lua = self.reward_tab, self.lua_tab
        self.terms, self.table, self.reward_lint = reward.terms, reward.table, reward.lint
        self.tree = self.done_tab.tree
        self.script_choice, self.lua, self.lua_status = lua.script_choice, lua.lua, lua.status
        tabs = QTabWidget()
        tabs.addTab(self.reward_tab, "Reward")
        tabs.addTab(self.done_tab, "Done")
        tabs.addTab(self._suggest_tab(), "Suggest done")
        tabs.addTab(self.actions_tab, "Actions && crop")
        tabs.addTab(self.lua_tab, "Lua")
        self.tabs = tabs
        self.readout = QLabel()
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self.readout.setWordWrap(True)
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # wraps, never widens
        self.plot = pg.PlotWidget(background=self.palette().color(QPalette.ColorRole.Base))
        self.plot.setLabel("bottom", "frame")
        self.plot.setLabel("left", "cumulative reward")
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.curve = self.plot.plot([], [], pen=pg.mkPen((40, 120, 220), width=1.5))
        self.done_lines = self.plot.plot([], [], pen=pg.mkPen((220, 50, 50), width=1), connect="pairs")
        live = QWidget()
        live_layout = QVBoxLayout(live)
        live_layout.setContentsMargins(0, 0, 0, 0)
        restart = QPushButton("Restart episode")
        restart.clicked.connect(lambda: self.doc.live.restart())
        top = QHBoxLayout()
        top.addWidget(self.readout, 1)
        top.addWidget(restart)
        live_layout.addLayout(top)
        live_layout.addWidget(self.plot, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(tabs)
        splitter.addWidget(live)
        splitter.setSizes([320, 200])
        self.splitter = splitter
        tabs.currentChanged.connect(self._tab_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.unreadable = UnreadableBanner(lambda: self.doc.reload(), lambda: self.doc.replace_unreadable(),
                                           "an empty scenario")
        layout.addWidget(self.unreadable)  # scenario.json cannot be read: no edits until it is fixed or replaced
        layout.addWidget(splitter)
        self._connect()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)
        self._document_changed()
        self.refresh()

    def _connect(self) -> None:
        self._connections.connect(self.doc.events.changed, self._document_changed)
        self._connections.connect(self.doc.events.evaluated, self._evaluated)

    def bind(self, workspace: Workspace) -> None:
        """Edits the workspace's scenario (after the window opened another game)."""
        self.workspace, self.session, self.doc = workspace, workspace.session, workspace.scenario
        for tab in self.document_tabs:
            tab.bind(self.doc)
        self.done_suggest.bind(workspace)
        self._connect()
        self._stale = True
        self._document_changed()
        self.refresh()

    def unbind(self) -> None:
        self._connections.disconnect_all()
        self.done_suggest.unbind()

    # ---- tabs ----

    def _suggest_tab(self) -> QWidget:
        self.done_suggest = DoneSuggestPanel(self.workspace)  # marks -> a suggested rule
        return scrolling(self.done_suggest)  # below its minimum height the tab scrolls

    def _tab_changed(self, index: int) -> None:
        """The Suggest done tab needs height for its marks and rules: the plot gives it some while it is shown."""
        total = sum(self.splitter.sizes())
        if index == SUGGEST_TAB:
            self._plot_height = self.splitter.sizes()[1]
            self.splitter.setSizes([total - SUGGEST_PLOT_HEIGHT, SUGGEST_PLOT_HEIGHT])
        elif self._plot_height:
            self.splitter.setSizes([total - self._plot_height, self._plot_height])
            self._plot_height = None

    def show_suggest(self) -> None:
        """The Suggest done tab, in front."""
        self.tabs.setCurrentIndex(SUGGEST_TAB)

    def _document_changed(self) -> None:
        """The document changed: every tab shows it again (none can be edited while the file is unreadable)."""
        doc = self.doc
        self.unreadable.show_problem(doc.load_error)
        self.tabs.setEnabled(not doc.load_error)
        for tab in self.document_tabs:
            tab.show_document()

    # ---- the Lua tab, as the editor offered it before the tabs had modules of their own ----

    def check_lua(self) -> None:
        """Compiles the Lua tab's text and marks the line of the error, if any."""
        self.lua_tab.check_lua()

    def save_lua(self) -> None:
        """Writes the Lua tab's text to the script it shows."""
        self.lua_tab.save_lua()

    def _show_lua_findings(self) -> None:
        self.lua_tab.show_findings()

    @property
    def lua_error_line(self) -> int | None:
        """The line the Lua tab marks as the error's, or None."""
        return self.lua_tab.error_line

    # ---- live ----

    def _evaluated(self) -> None:
        self._stale = True

    def refresh(self) -> None:
        """Readout and timeline, when the evaluation moved on (called at 10 Hz)."""
        self.doc.follow_data_json()
        live = self.doc.live
        if not self._stale:
            return
        self._stale = False
        if live.error:
            self.readout.setText(f"Evaluation stopped: {live.error}")
        else:
            done = f"yes: {reasons_text(live.done_reasons)}" if live.done else "no"
            self.readout.setText(f"frame {self.session.frame}   reward {live.reward:g}   "
                                 f"total {live.cumulative:g}   done {done}")
        frames, cumulative, done_frames = live.timeline()
        self.curve.setData(frames, cumulative)
        if len(done_frames) and len(cumulative):
            lo, hi = float(cumulative.min()), float(cumulative.max())
            if hi == lo:
                lo, hi = lo - 0.5, hi + 0.5
            xs = done_frames.repeat(2)
            ys = [lo, hi] * len(done_frames)
            self.done_lines.setData(xs, ys)
        else:
            self.done_lines.setData([], [])

    def closeEvent(self, event) -> None:  # noqa: N802
        self.timer.stop()
        self.unbind()
        super().closeEvent(event)


__all__ = ["NO_OP", "OP", "OP_CHOICES", "REWARD", "VARIABLE", "ScenarioEditor"]
