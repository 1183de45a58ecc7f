"""The scenario editor's Reward tab: player 1's reward terms in a table, and the time reward.

A term's row is tinted when lint finds something wrong with it, and the findings about the
reward are listed under the table.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QTableView, QVBoxLayout, QWidget

from emucore.integration import scenario_walk as walk
from studio.model.scenario.scenario_doc import MEASUREMENTS, ScenarioDocument
from studio.qt.delegates import ChoiceDelegate
from studio.qt.scenario.scenario_doc_fields import NO_OP, OP_CHOICES, parse_number
from studio.qt.scenario.scenario_doc_lint_marks import finding_tint, findings_text, lint_label, show_lint
from studio.qt.scenario.scenario_doc_tab import DocumentTab

VARIABLE, MEASUREMENT, OP, REFERENCE, REWARD, PENALTY = range(6)
HEADERS = ("Variable", "Measurement", "Op", "Reference", "Reward", "Penalty")
Index = QModelIndex | QPersistentModelIndex


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
        return walk.key(walk.term_path(walk.edited_reward(self.doc.data), self.names[row]))

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
                spec.get(walk.MEASUREMENT, "delta"),
                spec.get(walk.OP, NO_OP),
                spec.get(walk.REFERENCE, 0),
                spec.get(walk.TERM_REWARD, 0.0),
                spec.get(walk.PENALTY, 0.0),
            )[column]
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole):
            findings = self.doc.findings_for(self.key(row))
            if role == Qt.ItemDataRole.BackgroundRole:
                return finding_tint(findings)
            return findings_text(findings) or None
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
            number = parse_number(value, kind)
            if number is None:
                return False
            fields[("reference", "reward", "penalty")[column - REFERENCE]] = number
        self.doc.set_reward_term(name, **fields)
        return True


class RewardTab(DocumentTab):
    """The reward terms' table with its buttons, the time reward, and the reward's lint findings.

    Args: those of :class:`DocumentTab`.
    """

    def __init__(self, doc: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(doc, parent)
        self.terms = RewardTermsModel(doc)
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
        self.lint = lint_label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.lint)
        layout.addLayout(buttons)

    def bind(self, doc: ScenarioDocument) -> None:
        super().bind(doc)
        self.terms.doc = doc

    def show_document(self) -> None:
        """The terms, the time reward and the findings as the document has them now."""
        doc = self.doc
        self.terms.reload()
        time = doc.time_term()
        self.time_reward.setText(str(time.get(walk.TERM_REWARD, 0.0)) if time else "")
        key = doc.reward_key
        show_lint(self.lint, [f for f in doc.findings if f.key == key or f.key.startswith(key + ".")
                              or f.key == walk.REWARDS])

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
        value = parse_number(self.time_reward.text(), float)
        time = self.doc.time_term() or {}
        if value is not None and value != time.get("reward", 0.0):
            self.doc.set_time_reward(value)
