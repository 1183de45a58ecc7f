"""The scenario dock: reward terms, the done tree, crop, actions and Lua, with a live reward readout.

Every edit goes through :class:`studio.model.scenario.scenario_doc.ScenarioDocument`, which saves
scenario.json at once, lints it and rebuilds the evaluator. Lint findings are shown beside the
field at fault (a red line under the table or tree, and the row tinted). The readout and the
cumulative-reward timeline refresh at most 10 times a second and follow rewinds.
"""

from __future__ import annotations

import json
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QColor, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from emucore.integration import SCENARIO_FILE, IntegrationError, LintFinding
from emucore.operations import Operation
from emucore.scenario.explain import reasons_text
from emucore.scenario.model import done_key
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.scenario.scenario_doc import MEASUREMENTS, NodePath, ScenarioDocument
from studio.model.workspace import Workspace
from studio.qt.delegates import ChoiceDelegate
from studio.qt.problems import UnreadableBanner
from studio.qt.scenario.done_marks_panel import DoneSuggestPanel

REFRESH_MS = 100  # 10 Hz
SUGGEST_TAB = 2
SUGGEST_PLOT_HEIGHT = 90  # the live readout and a strip of the plot stay in view while suggesting
VARIABLE, MEASUREMENT, OP, REFERENCE, REWARD, PENALTY = range(6)
HEADERS = ("Variable", "Measurement", "Op", "Reference", "Reward", "Penalty")
NO_OP = "(value)"
OP_CHOICES = (NO_OP, *(op.value for op in Operation))
ERROR_TINT = QColor(255, 90, 90, 70)
WARNING_TINT = QColor(255, 190, 0, 60)
Index = QModelIndex | QPersistentModelIndex


def _tint(findings: list[LintFinding]) -> QColor | None:
    if any(f.level == "error" for f in findings):
        return ERROR_TINT
    return WARNING_TINT if findings else None


def _messages(findings: list[LintFinding]) -> str:
    return "\n".join(f"{f.level}: {f.key}: {f.message}" if f.key else f"{f.level}: {f.message}" for f in findings)


def _number(text: Any, kind: type) -> Any:
    try:
        return kind(float(str(text).strip() or 0)) if kind is int else kind(str(text).strip() or 0)
    except ValueError:
        return None


class RewardTermsModel(QAbstractTableModel):
    """Player 1's reward terms as rows; edits call the document."""

    def __init__(self, doc: ScenarioDocument):
        super().__init__()
        self.doc = doc
        self.names: list[str] = []
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        self.names = list(self.doc.reward_terms())
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.names)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def flags(self, index: Index):
        return super().flags(index) | Qt.ItemFlag.ItemIsEditable

    def key(self, row: int) -> str:
        return f"{self.doc.reward_key}.variables.{self.names[row]}"

    def _spec(self, row: int) -> dict:
        spec = self.doc.reward_terms().get(self.names[row])
        return spec if isinstance(spec, dict) else {}

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            spec = self._spec(row)
            return (
                self.names[row],
                spec.get("measurement", "delta"),
                spec.get("op", NO_OP),
                spec.get("reference", 0),
                spec.get("reward", 0.0),
                spec.get("penalty", 0.0),
            )[column]
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole):
            findings = self.doc.findings_for(self.key(row))
            return _tint(findings) if role == Qt.ItemDataRole.BackgroundRole else (_messages(findings) or None)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        row, column = index.row(), index.column()
        name = self.names[row]
        if column == VARIABLE:
            new = str(value).strip()
            if not new or new in self.names:
                return False
            self.doc.rename_reward_term(name, new)
            return True
        spec = self._spec(row)
        fields = {
            "measurement": spec.get("measurement", "delta"),
            "op": spec.get("op"),
            "reference": spec.get("reference", 0),
            "reward": spec.get("reward", 0.0),
            "penalty": spec.get("penalty", 0.0),
        }
        if column == MEASUREMENT:
            fields["measurement"] = str(value)
        elif column == OP:
            fields["op"] = None if str(value) in ("", NO_OP) else str(value)
        else:
            kind = int if column == REFERENCE else float
            number = _number(value, kind)
            if number is None:
                return False
            fields[("reference", "reward", "penalty")[column - REFERENCE]] = number
        self.doc.set_reward_term(name, **fields)
        return True


class ScenarioEditor(QWidget):
    """The open integration's scenario: edit it, lint it, and watch its reward live.

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
        self._in_tree_edit = False
        tabs = QTabWidget()
        tabs.addTab(self._reward_tab(), "Reward")
        tabs.addTab(self._done_tab(), "Done")
        tabs.addTab(self._suggest_tab(), "Suggest done")
        tabs.addTab(self._layout_tab(), "Actions && crop")
        tabs.addTab(self._lua_tab(), "Lua")
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
        restart.clicked.connect(lambda: self.doc.restart())
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
        self.terms.doc = self.doc
        self.done_suggest.bind(workspace)
        self._connect()
        self._stale = True
        self._document_changed()
        self.refresh()

    def unbind(self) -> None:
        self._connections.disconnect_all()
        self.done_suggest.unbind()

    # ---- tabs ----

    def _reward_tab(self) -> QWidget:
        self.terms = RewardTermsModel(self.doc)
        self.table = QTableView()
        self.table.setModel(self.terms)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setItemDelegateForColumn(VARIABLE, ChoiceDelegate(lambda: self.doc.variable_names, True, self))
        self.table.setItemDelegateForColumn(MEASUREMENT, ChoiceDelegate(lambda: MEASUREMENTS, parent=self))
        self.table.setItemDelegateForColumn(OP, ChoiceDelegate(lambda: OP_CHOICES, parent=self))
        add, remove = QPushButton("Add term"), QPushButton("Remove term")
        add.clicked.connect(self._add_term)
        remove.clicked.connect(self._remove_term)
        self.time_reward = QLineEdit()
        self.time_reward.setPlaceholderText("0 (e.g. -0.01 per frame)")
        self.time_reward.editingFinished.connect(self._time_edited)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        buttons.addWidget(QLabel("Time reward:"))
        buttons.addWidget(self.time_reward)
        self.reward_lint = self._lint_label()
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.reward_lint)
        layout.addLayout(buttons)
        return tab

    def _done_tab(self) -> QWidget:
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Node / variable", "Condition / op", "Reference", "Measurement"])
        self.tree.itemChanged.connect(self._tree_edited)
        self.done_lint = self._lint_label()
        buttons = QHBoxLayout()
        for title, slot in (("Add node", self._add_node), ("Add test", self._add_test), ("Remove", self._remove_done)):
            button = QPushButton(title)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.done_lint)
        layout.addLayout(buttons)
        return tab

    def _suggest_tab(self) -> QWidget:
        self.done_suggest = DoneSuggestPanel(self.workspace)  # marks -> a suggested rule
        area = QScrollArea()  # below its minimum height the tab scrolls rather than squeezing boxes over each other
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidget(self.done_suggest)
        return area

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

    def _layout_tab(self) -> QWidget:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        row = QHBoxLayout()
        self.crop_boxes: list[QSpinBox] = []
        for title in ("x", "y", "width", "height"):
            box = QSpinBox()
            box.setRange(0, 4096)
            box.editingFinished.connect(self._crop_edited)
            row.addWidget(QLabel(title))
            row.addWidget(box)
            self.crop_boxes.append(box)
        layout.addWidget(QLabel("Crop (0 width/height: to the edge)"))
        layout.addLayout(row)
        self.crop_lint = self._lint_label()
        layout.addWidget(self.crop_lint)
        hint = 'Actions: JSON groups of combos, e.g. [[[], ["UP"]], [[], ["START"]]] (empty: the system\'s)'
        hint_label = QLabel(hint)
        hint_label.setWordWrap(True)  # a long hint wraps rather than widening the dock
        hint_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(hint_label)
        self.actions_edit = QLineEdit()
        self.actions_edit.editingFinished.connect(self._actions_edited)
        layout.addWidget(self.actions_edit)
        self.actions_lint = self._lint_label()
        layout.addWidget(self.actions_lint)
        layout.addStretch(1)
        return tab

    def _lua_tab(self) -> QWidget:
        tab = QWidget()
        layout = QVBoxLayout(tab)
        row = QHBoxLayout()
        row.addWidget(QLabel("Scripts:"))
        self.scripts_edit = QLineEdit()
        self.scripts_edit.setPlaceholderText("script.lua, other.lua")
        self.scripts_edit.editingFinished.connect(self._scripts_edited)
        row.addWidget(self.scripts_edit, 1)
        self.script_choice = QComboBox()
        self.script_choice.currentTextChanged.connect(self._show_script)
        row.addWidget(self.script_choice)
        layout.addLayout(row)
        self.lua = QPlainTextEdit()
        self.lua.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.lua.setPlaceholderText("-- Lua: function reward() return data.score end")
        layout.addWidget(self.lua, 1)
        self.lua_status = self._lint_label()
        layout.addWidget(self.lua_status)
        buttons = QHBoxLayout()
        check, save = QPushButton("Check"), QPushButton("Save")
        check.clicked.connect(self.check_lua)
        save.clicked.connect(self.save_lua)
        buttons.addWidget(check)
        buttons.addWidget(save)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        return tab

    @staticmethod
    def _lint_label() -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setStyleSheet("color: #c62828;")
        label.hide()
        return label

    @staticmethod
    def _show_lint(label: QLabel, findings: list[LintFinding]) -> None:
        label.setText(_messages(findings))
        label.setVisible(bool(findings))

    # ---- the document changed: reload every view of it ----

    def _document_changed(self) -> None:
        doc = self.doc
        self.unreadable.show_problem(doc.load_error)
        self.tabs.setEnabled(not doc.load_error)
        self.terms.reload()
        time = doc.time_term()
        self.time_reward.setText(str(time.get("reward", 0.0)) if time else "")
        if self._in_tree_edit:  # the edited item must outlive its own itemChanged signal
            QTimer.singleShot(0, self._fill_tree)
        else:
            self._fill_tree()
        for box, value in zip(self.crop_boxes, doc.crop, strict=True):
            box.setValue(int(value))
        self.actions_edit.setText(json.dumps(doc.actions) if doc.actions else "")
        self.scripts_edit.setText(", ".join(doc.scripts))
        current = self.script_choice.currentText()
        self.script_choice.blockSignals(True)
        self.script_choice.clear()
        self.script_choice.addItems(doc.scripts)
        if current in doc.scripts:
            self.script_choice.setCurrentText(current)
        self.script_choice.blockSignals(False)
        if self.lua.toPlainText() == "" or current not in doc.scripts:
            self._show_script(self.script_choice.currentText())
        key = doc.reward_key
        self._show_lint(self.reward_lint, [f for f in doc.findings if f.key == key or f.key.startswith(key + ".")
                                           or f.key == "rewards"])
        self._show_lint(self.done_lint, doc.findings_for("done"))
        self._show_lint(self.crop_lint, doc.findings_for("crop") + doc.findings_for("crops"))
        self._show_lint(self.actions_lint, doc.findings_for("actions"))
        self._show_lua_findings()

    def _fill_tree(self) -> None:
        tree = self.tree
        tree.blockSignals(True)
        tree.clear()
        root = self.doc.done_node(())
        if root is not None:
            tree.addTopLevelItem(self._node_item(root, ()))
        tree.expandAll()
        for column in range(4):
            tree.resizeColumnToContents(column)
        tree.blockSignals(False)

    def _node_item(self, node: dict, path: NodePath) -> QTreeWidgetItem:
        key = done_key(path)
        item = QTreeWidgetItem([path[-1] if path else "done", "all" if node.get("condition") == "all" else "any"])
        item.setData(0, Qt.ItemDataRole.UserRole, ("node", path, None))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        own = [f for f in self.doc.findings if f.key in (key, f"{key}.condition")]
        self._decorate(item, own)
        variables = node.get("variables")
        variables = variables if isinstance(variables, dict) else {}
        for name, spec in variables.items():
            spec = spec if isinstance(spec, dict) else {}
            child = QTreeWidgetItem([
                name, spec.get("op", NO_OP), str(spec.get("reference", 0)), spec.get("measurement", "absolute"),
            ])
            child.setData(0, Qt.ItemDataRole.UserRole, ("test", path, name))
            child.setFlags(child.flags() | Qt.ItemFlag.ItemIsEditable)
            self._decorate(child, self.doc.findings_for(f"{key}.variables.{name}"))
            item.addChild(child)
        nodes = node.get("nodes")
        nodes = nodes if isinstance(nodes, dict) else {}
        for name, sub in nodes.items():
            if isinstance(sub, dict):
                item.addChild(self._node_item(sub, (*path, name)))
        return item

    @staticmethod
    def _decorate(item: QTreeWidgetItem, findings: list[LintFinding]) -> None:
        tint = _tint(findings)
        if tint is None:
            return
        for column in range(4):
            item.setBackground(column, tint)
            item.setToolTip(column, _messages(findings))

    # ---- edits ----

    def _add_term(self) -> None:
        used = set(self.doc.reward_terms())
        free = [name for name in self.doc.variable_names if name not in used]
        if free:
            self.doc.set_reward_term(free[0], reward=1.0)

    def _remove_term(self) -> None:
        index = self.table.currentIndex()
        if index.isValid():
            self.doc.remove_reward_term(self.terms.names[index.row()])

    def _time_edited(self) -> None:
        value = _number(self.time_reward.text(), float)
        time = self.doc.time_term() or {}
        if value is not None and value != time.get("reward", 0.0):
            self.doc.set_time_reward(value)

    def _selected(self) -> tuple[str, NodePath, str | None]:
        item = self.tree.currentItem()
        if item is None:
            return ("node", (), None)
        return item.data(0, Qt.ItemDataRole.UserRole)

    def _add_node(self) -> None:
        kind, path, _ = self._selected()
        name, ok = QInputDialog.getText(self, "Add done node", "Node name:")
        if ok and name.strip():
            self.doc.add_done_node(path, name.strip())

    def _add_test(self) -> None:
        kind, path, _ = self._selected()
        node = self.doc.done_node(path) or {}
        used = set(node.get("variables") or {})
        free = [name for name in self.doc.variable_names if name not in used]
        if free:
            self.doc.set_done_test(path, free[0], op="equal", reference=0)

    def _remove_done(self) -> None:
        kind, path, name = self._selected()
        if kind == "test" and name is not None:
            self.doc.remove_done_test(path, name)
        elif self.tree.currentItem() is not None:
            self.doc.remove_done_node(path)

    def _tree_edited(self, item: QTreeWidgetItem, column: int) -> None:
        self._in_tree_edit = True
        try:
            self._apply_tree_edit(item, column)
        finally:
            self._in_tree_edit = False

    def _apply_tree_edit(self, item: QTreeWidgetItem, column: int) -> None:
        kind, path, name = item.data(0, Qt.ItemDataRole.UserRole)
        text = [item.text(c).strip() for c in range(4)]
        doc = self.doc
        if kind == "node":
            if column == 1:
                doc.set_done_condition(path, text[1])
            elif column == 0 and path and text[0] and text[0] != path[-1]:
                doc.rename_done_node(path, text[0])
            else:
                QTimer.singleShot(0, self._fill_tree)
            return
        reference = _number(text[2], int)
        op = None if text[1] in ("", NO_OP) else text[1]
        if column == 0 and text[0] != name:
            doc.remove_done_test(path, name)
            name = text[0]
        doc.set_done_test(path, name, op=op, reference=reference or 0, measurement=text[3] or "absolute")

    def _crop_edited(self) -> None:
        crop = [box.value() for box in self.crop_boxes]
        if crop != self.doc.crop:
            self.doc.set_crop(crop)

    def _actions_edited(self) -> None:
        text = self.actions_edit.text().strip()
        try:
            groups = json.loads(text) if text else None
        except json.JSONDecodeError as e:
            self._show_lint(self.actions_lint, [LintFinding("error", SCENARIO_FILE, "actions", f"not JSON: {e}")])
            return
        if groups != self.doc.actions:
            self.doc.set_actions(groups)

    def _scripts_edited(self) -> None:
        names = [n.strip() for n in self.scripts_edit.text().split(",") if n.strip()]
        if names != self.doc.scripts:
            self.doc.set_scripts(names)

    def _show_script(self, name: str) -> None:
        self.lua.setPlainText(self.doc.lua_source(name) if name else "")
        self._show_lua_findings()

    def check_lua(self) -> None:
        """Compiles the editor's text and marks the line of the error, if any."""
        name = self.script_choice.currentText() or "script.lua"
        error = self.doc.check_lua(self.lua.toPlainText(), name)
        self._mark_lua_error(error.line if error else None, error.message if error else "no syntax error")

    def save_lua(self) -> None:
        name = self.script_choice.currentText()
        try:
            if name:
                self.doc.set_lua_source(name, self.lua.toPlainText())
        except IntegrationError as exc:  # a script outside the integration folder is not written
            self._mark_lua_error(None, f"error: {exc}")

    def _show_lua_findings(self) -> None:
        name = self.script_choice.currentText()
        error = self.doc.lua_errors.get(name) or self.doc.load_errors.get(name)
        findings = [f for f in self.doc.findings if f.file == name or f.key.startswith("scripts")]
        if error is not None:
            self._mark_lua_error(error.line, _messages(findings))
        else:
            self._mark_lua_error(None, _messages(findings))

    def _mark_lua_error(self, line: int | None, message: str) -> None:
        selections = []
        if line:
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(ERROR_TINT)
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            cursor = QTextCursor(self.lua.document().findBlockByLineNumber(line - 1))
            selection.cursor = cursor
            selections.append(selection)
        self.lua.setExtraSelections(selections)
        self.lua_status.setText(message)
        self.lua_status.setStyleSheet("color: #c62828;" if line or "error" in message else "color: #2e7d32;")
        self.lua_status.setVisible(bool(message))
        self.lua_error_line = line

    # ---- live ----

    def _evaluated(self) -> None:
        self._stale = True

    def refresh(self) -> None:
        """Readout and timeline, when the evaluation moved on (called at 10 Hz)."""
        self.doc.follow_data_json()
        doc = self.doc
        if not self._stale:
            return
        self._stale = False
        if doc.error:
            self.readout.setText(f"Evaluation stopped: {doc.error}")
        else:
            done = f"yes: {reasons_text(doc.done_reasons)}" if doc.done else "no"
            self.readout.setText(f"frame {self.session.frame}   reward {doc.reward:g}   "
                                 f"total {doc.cumulative:g}   done {done}")
        frames, cumulative, done_frames = doc.timeline()
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
