"""A search's candidates as a tree: one row per address, the other fitting types inside.

Grouping (:func:`emucore.search.grouping.group_candidates`) is used while the search has at most
:data:`~emucore.search.grouping.MAX_GROUPED` candidates at :data:`MAX_TREE_ROWS` addresses;
above that, or with grouping off, every candidate is a top-level row of its own, computed a
chunk at a time when the view asks for it,
so a million candidates cost no more than a hundred. Headers sort the groups (address, the most
plausible type first, value now, value at the compared snapshot, number of types); a flat list
keeps the search's order. Live values are read for the rows the view paints.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStackedWidget, QTableView, QTreeView, QWidget

from emucore.errors import EmulatorClosedError
from emucore.search import Candidates, MemorySearch
from emucore.search.candidates import values_of
from emucore.search.grouping import MAX_GROUPED, GroupedCandidates, group_candidates

ADDRESS, TYPE, VALUE, PREVIOUS, TYPES = range(5)
HEADERS = ("Address", "Type", "Value", "Previous", "Types")
HEADER_TIPS = (
    "The data.json address",
    "The most plausible type at this address first (expand the row for the others)",
    "The value in memory now",
    "The value at the snapshot the last refinement compared with",
    "How many types still fit at this address",
)
MAX_TREE_ROWS = 20_000  # address rows; a tree view lays out every top-level row (~8 us each in Python)
CHUNK = 256
MAX_CHUNKS = 64
NO_VALUE = np.iinfo(np.int64).min
Index = QModelIndex | QPersistentModelIndex


class CandidateTreeModel(QAbstractItemModel):
    """The current search's candidates (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.search: MemorySearch | None = None
        self.candidates: Candidates | None = None
        self.grouped: GroupedCandidates | None = None
        self.group_by_address = True
        self.families: Collection[str] | None = None
        self.hide_zero_extended = True
        self.note = ""  # why the list is flat, or what is hidden
        self._order = np.zeros(0, dtype=np.int64)  # top row -> group (grouped mode)
        self._top = np.zeros(0, dtype=np.int64)  # group -> top row
        self._values: OrderedDict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._sort: tuple[int, Qt.SortOrder] = (ADDRESS, Qt.SortOrder.AscendingOrder)
        self._count = 0  # top-level rows

    # ---- content ----

    def set_search(self, search: MemorySearch | None) -> None:
        """Shows ``search``'s current candidates (None: nothing)."""
        self.beginResetModel()
        self.search = search
        self.candidates = search.candidates if search is not None else None
        self.grouped = None
        self.note = ""
        if search is not None and self.group_by_address:
            if search.count > MAX_GROUPED:
                self.note = f"listed flat above {MAX_GROUPED:,} candidates: refine to group them by address"
            else:
                grouped = group_candidates(search, families=self.families,
                                           hide_zero_extended=self.hide_zero_extended)
                if len(grouped) > MAX_TREE_ROWS:
                    self.note = f"listed flat at {len(grouped):,} addresses: refine to group them by address"
                else:
                    self.grouped = grouped
                    self.note = self._hidden_note(grouped.hidden)
        self._values.clear()
        self._set_order(np.arange(len(self.grouped)) if self.grouped is not None else np.zeros(0, np.int64))
        self._count = len(self._order) if self.grouped is not None else len(self.candidates or ())
        self.endResetModel()
        if self.grouped is not None and self._sort != (ADDRESS, Qt.SortOrder.AscendingOrder):
            self.sort(*self._sort)

    def _hidden_note(self, hidden: int) -> str:
        if not hidden:
            return ""
        why = []
        if self.hide_zero_extended:
            why.append("wider types over bytes that were always zero")
        if self.families is not None:
            why.append("other type families")
        return f"{hidden:,} hidden: {' and '.join(why)}"

    def set_view_options(self, *, group_by_address: bool, families: Collection[str] | None,
                         hide_zero_extended: bool) -> None:
        """Changes how the candidates are listed (and lists them again)."""
        self.group_by_address = group_by_address
        self.families = families
        self.hide_zero_extended = hide_zero_extended
        self.set_search(self.search)

    @property
    def shown(self) -> int:
        """Candidates listed (top rows and their children)."""
        if self.grouped is not None:
            return len(self.grouped.rows)
        return len(self.candidates) if self.candidates is not None else 0

    def _set_order(self, order: np.ndarray) -> None:
        self._order = order
        self._top = np.empty(len(order), dtype=np.int64)
        self._top[order] = np.arange(len(order))

    # ---- Qt's tree structure ----

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt's names)
        if self.candidates is None:
            return 0
        if not parent.isValid():
            return self._count
        if self.grouped is None or parent.internalId() != 0 or parent.column() != 0:
            return 0
        group = int(self._order[parent.row()])
        return int(self.grouped.starts[group + 1] - self.grouped.starts[group]) - 1

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return len(HEADERS)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        return self.createIndex(row, column, int(self._order[parent.row()]) + 1)

    def parent(self, child: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not child.isValid() or child.internalId() == 0 or self.grouped is None:
            return QModelIndex()
        return self.createIndex(int(self._top[int(child.internalId()) - 1]), 0, 0)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        if not parent.isValid():
            return self._count > 0
        return self.grouped is not None and self.rowCount(parent) > 0

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS[section]
        return None

    # ---- rows ----

    def row_of(self, index: Index) -> int:
        """The candidate row (of the search's :class:`Candidates`) an index shows; -1 for none."""
        if not index.isValid() or self.candidates is None:
            return -1
        if self.grouped is None:
            return index.row() if index.internalId() == 0 else -1
        if index.internalId() == 0:
            group, at = int(self._order[index.row()]), 0
        else:
            group, at = int(index.internalId()) - 1, index.row() + 1
        return int(self.grouped.rows[self.grouped.starts[group] + at])

    def candidate(self, index: Index) -> tuple[int, str] | None:
        """``(address, type)`` of an index's candidate."""
        row = self.row_of(index)
        if row < 0 or self.candidates is None:
            return None
        positions, tids = self.candidates.rows(row, row + 1)
        return int(self.candidates.set.layout.addresses(positions)[0]), self.candidates.types[int(tids[0])]

    def _pairs(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert self.candidates is not None
        if self.grouped is not None:
            positions, tids = self.candidates.set.order()
            return positions[rows], tids[rows]
        return self.candidates.rows(int(rows[0]), int(rows[-1]) + 1) if len(rows) else (rows, rows)

    def _chunk(self, parent_group: int, chunk: int) -> tuple[np.ndarray, np.ndarray]:
        """Values now and at the compared snapshot of 256 rows (top rows, or one group's children)."""
        key = (parent_group, chunk)
        found = self._values.get(key)
        if found is not None:
            self._values.move_to_end(key)
            return found
        assert self.candidates is not None
        start = chunk * CHUNK
        if parent_group < 0:
            top = len(self._order) if self.grouped is not None else len(self.candidates)
            stop = min(start + CHUNK, top)
            if self.grouped is not None:
                rows = self.grouped.rows[self.grouped.starts[self._order[start:stop]]]
            else:
                rows = np.arange(start, stop, dtype=np.int64)
        else:
            assert self.grouped is not None
            members = self.grouped.members(parent_group)[1:]
            rows = members[start : start + CHUNK]
        positions, tids = self._pairs(rows)
        previous = values_of(self.candidates.reference, self.candidates.search_types, positions, tids)
        try:
            now = values_of(self.candidates.live, self.candidates.search_types, positions, tids)
        except EmulatorClosedError:  # closed under the panel: no live values
            now = np.full(len(previous), NO_VALUE)
        found = self._values[key] = (now, previous)
        if len(self._values) > MAX_CHUNKS:
            self._values.popitem(last=False)
        return found

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.candidates is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if column in (VALUE, PREVIOUS, TYPES):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        child = index.internalId() != 0
        if column == TYPES:
            return "" if child or self.grouped is None else str(self.rowCount(index.sibling(index.row(), 0)) + 1)
        found = self.candidate(index)
        if found is None:
            return None
        if column == ADDRESS:
            return "" if child else f"0x{found[0]:X}"
        if column == TYPE:
            return found[1]
        group = int(index.internalId()) - 1 if child else -1
        now, previous = self._chunk(group, index.row() // CHUNK)
        value = int((now if column == VALUE else previous)[index.row() % CHUNK])
        if value == NO_VALUE and column == VALUE:
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{value} (0x{value & 0xFFFFFFFFFFFFFFFF:X})"
        return str(value)

    def refresh_values(self) -> None:
        """Reads memory again: the next paint shows values now."""
        if self.candidates is None:
            return
        try:
            self.candidates.refresh()
        except EmulatorClosedError:
            return
        self._values.clear()

    # ---- sorting ----

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorts the address rows (a flat list keeps the search's order: by address, then type)."""
        self._sort = (column, order)
        grouped = self.grouped
        if grouped is None or self.candidates is None or not len(grouped):
            return
        self.layoutAboutToBeChanged.emit()
        firsts = grouped.first_rows()
        if column == TYPE:
            keys = grouped.rank
        elif column == TYPES:
            keys = np.diff(grouped.starts)
        elif column in (VALUE, PREVIOUS):
            positions, tids = self._pairs(firsts)
            snap = self.candidates.live if column == VALUE else self.candidates.reference
            keys = values_of(snap, self.candidates.search_types, positions, tids)
        else:
            keys = grouped.addresses
        ranked = np.lexsort([grouped.addresses, keys])
        self._set_order(ranked[::-1].copy() if order == Qt.SortOrder.DescendingOrder else ranked)
        self._values.clear()
        self.changePersistentIndexList(self.persistentIndexList(), [QModelIndex()] * len(self.persistentIndexList()))
        self.layoutChanged.emit()


class CandidateViews(QStackedWidget):
    """The model shown as a tree while grouped, as a plain table while flat: a tree view lays out
    every top-level row, which a table of a million candidates cannot afford."""

    def __init__(self, model: CandidateTreeModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.tree = QTreeView()
        self.tree.setUniformRowHeights(True)
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(ADDRESS, Qt.SortOrder.AscendingOrder)
        self.flat = QTableView()
        self.flat.verticalHeader().hide()
        self.flat.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.flat.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        for view in (self.tree, self.flat):
            view.setModel(model)
            view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.setAlternatingRowColors(True)
            self.addWidget(view)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.flat.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        model.modelAboutToBeReset.connect(self._detach_tree)  # a tree lays out every row, even hidden
        model.modelReset.connect(self.sync)

    def _detach_tree(self) -> None:
        self.setCurrentWidget(self.flat)
        self.tree.setModel(None)

    @property
    def view(self) -> QTreeView | QTableView:
        """The view shown now."""
        return self.tree if self.currentWidget() is self.tree else self.flat

    def sync(self) -> None:
        """Shows the tree while the model groups by address, else the table."""
        if self.model.grouped is not None:
            if self.tree.model() is None:
                self.tree.setModel(self.model)
                self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            self.setCurrentWidget(self.tree)
        else:
            self.setCurrentWidget(self.flat)


__all__ = ["ADDRESS", "CandidateTreeModel", "CandidateViews", "HEADERS", "PREVIOUS", "TYPE", "TYPES", "VALUE"]
