"""The memory search dock: named searches, refinements, history, and the candidates as a table.

Everything goes through :class:`studio.model.searches.SearchBook`. The candidate table is a
virtual model over the search's numpy arrays: rows are computed a chunk at a time when the view
asks for them, so a million candidates cost no more than a hundred. Live values refresh at most
10 times a second, decoding only the chunks the view shows.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from emucore.errors import EmulatorClosedError
from emucore.search import OPS, Candidates
from studio.model.searches import TYPE_PRESETS, SearchBook
from studio.qt.throttle import Throttle

REFRESH_HZ = 10.0
CHUNK = 256  # rows decoded together
MAX_CHUNKS = 64
ADDRESS, TYPE, VALUE, PREVIOUS = range(4)
HEADERS = ("Address", "Type", "Value", "Previous")
Index = QModelIndex | QPersistentModelIndex
OP_TITLES = {
    "equal": "=", "not-equal": "\u2260", "less": "<", "greater": ">", "increased": "increased",
    "decreased": "decreased", "changed": "changed", "unchanged": "unchanged",
    "increased-by": "increased by", "decreased-by": "decreased by",
}


def parse_value(text: str) -> int | None:
    """``""`` -> None; decimal, ``0x`` hex or ``$`` hex, optionally negative; ValueError otherwise."""
    text = text.strip().replace("_", "")
    if not text:
        return None
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-").strip()
    if text.startswith("$"):
        return sign * int(text[1:], 16)
    return sign * int(text, 0)


class CandidatesModel(QAbstractTableModel):
    """A search's candidates as rows (address, type, value now, value at the previous snapshot)."""

    def __init__(self) -> None:
        super().__init__()
        self.candidates: Candidates | None = None
        self._rows: OrderedDict[int, tuple[list[str], list[str]]] = OrderedDict()  # chunk -> texts
        self._values: OrderedDict[int, tuple[np.ndarray, np.ndarray]] = OrderedDict()  # chunk -> values

    def set_candidates(self, candidates: Candidates | None) -> None:
        self.beginResetModel()
        self.candidates = candidates
        self._rows.clear()
        self._values.clear()
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt's names)
        return 0 if parent.isValid() or self.candidates is None else len(self.candidates)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    @staticmethod
    def _cached(cache: OrderedDict, chunk: int, make: Callable[[], Any]) -> Any:
        found = cache.get(chunk)
        if found is None:
            found = cache[chunk] = make()
            if len(cache) > MAX_CHUNKS:
                cache.popitem(last=False)
        else:
            cache.move_to_end(chunk)
        return found

    def _chunk_rows(self, chunk: int) -> tuple[list[str], list[str]]:
        candidates = self.candidates
        assert candidates is not None
        start = chunk * CHUNK
        positions, tids = candidates.rows(start, start + CHUNK)
        addresses = candidates.set.layout.addresses(positions)
        types = candidates.types
        return [f"0x{int(a):X}" for a in addresses], [types[int(t)] for t in tids]

    def _chunk_values(self, chunk: int) -> tuple[np.ndarray, np.ndarray]:
        candidates = self.candidates
        assert candidates is not None
        start = chunk * CHUNK
        previous = candidates.previous(start, start + CHUNK)
        try:
            return candidates.values(start, start + CHUNK), previous
        except EmulatorClosedError:  # closed under the panel: no live values
            return np.full(len(previous), np.iinfo(np.int64).min), previous

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.candidates is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if column in (VALUE, PREVIOUS):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        row = index.row()
        if not 0 <= row < len(self.candidates):
            return None
        chunk, at = divmod(row, CHUNK)
        if column in (ADDRESS, TYPE):
            addresses, types = self._cached(self._rows, chunk, lambda: self._chunk_rows(chunk))
            return addresses[at] if column == ADDRESS else types[at]
        values, previous = self._cached(self._values, chunk, lambda: self._chunk_values(chunk))
        value = int(values[at] if column == VALUE else previous[at])
        if value == np.iinfo(np.int64).min and column == VALUE:
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{value} (0x{value & 0xFFFFFFFFFFFFFFFF:X})"
        return str(value)

    def candidate(self, row: int) -> tuple[int, str] | None:
        """``(address, type)`` of a row."""
        if self.candidates is None or not 0 <= row < len(self.candidates):
            return None
        return int(self.candidates.addresses(row, row + 1)[0]), self.candidates.types[
            int(self.candidates.type_indices(row, row + 1)[0])]

    def refresh_values(self, first: int, last: int) -> None:
        """Reads memory again and repaints the value column of rows ``first..last``."""
        if self.candidates is None or not len(self.candidates):
            return
        try:
            self.candidates.refresh()
        except EmulatorClosedError:
            return
        self._values.clear()
        last = min(last, len(self.candidates) - 1)
        if first <= last:
            self.dataChanged.emit(self.index(first, VALUE), self.index(last, VALUE), [Qt.ItemDataRole.DisplayRole])


def _button(title: str, tip: str, slot: Callable[..., Any]) -> QPushButton:
    button = QPushButton(title)
    button.setToolTip(tip)
    button.clicked.connect(slot)
    return button


def _line(placeholder: str, tip: str) -> QLineEdit:
    line = QLineEdit()
    line.setPlaceholderText(placeholder)
    line.setToolTip(tip)
    return line


def _row(*items: QWidget | tuple[QWidget, int]) -> QHBoxLayout:
    """A row of widgets; ``(widget, stretch)`` for the ones that take the room left."""
    row = QHBoxLayout()
    for item in items:
        widget, stretch = item if isinstance(item, tuple) else (item, 0)
        row.addWidget(widget, stretch)
    return row


def _box(widget: QWidget, below: QHBoxLayout) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(widget)
    layout.addLayout(below)
    return box


class MemorySearchPanel(QWidget):
    """Memory search over a session's emulator.

    Args:
        session: The open game (anything with ``emulator`` and ``on("frame", callback)``).
        book: The searches to show (default: a new book over ``session.emulator``).
        on_make_variable: Also called as ``on_make_variable(name, address, type)`` on "Make variable".
        parent: The Qt parent.

    Signals:
        make_variable(str, int, str): the user made a variable from a candidate (name, address, type).
    """

    make_variable = Signal(str, int, str)

    def __init__(self, session: Any, book: SearchBook | None = None,
                 on_make_variable: Callable[[str, int, str], Any] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.book = book or SearchBook(lambda: self.session.emulator)
        self.on_make_variable = on_make_variable
        self._throttle = Throttle(self, REFRESH_HZ, self.refresh_values)

        self.names = QComboBox()
        self.names.setToolTip("Searches side by side: each keeps its own candidates and history")
        self.names.activated.connect(lambda i: self._guard(lambda: self.book.select(self.names.itemText(i))))
        self.types = QComboBox()
        self.types.addItems(list(TYPE_PRESETS))
        self.types.setToolTip("The data.json types tried at every address")
        self.start_value = _line("unknown", "Start from this value, or leave empty for an unknown value")
        self.start_value.returnPressed.connect(self.start)
        self.value = _line("value / amount", "=, \u2260, <, >: compare with this value (empty: with the snapshot "
                           "chosen next to it);\nincreased by / decreased by: the exact amount")
        self.against = QComboBox()
        self.against.addItems(["previous", "first"])
        self.against.setToolTip("The snapshot compared with when no value is given")
        self.op_buttons = {op: _button(OP_TITLES[op], op, lambda _=False, op=op: self.refine(op)) for op in OPS}
        ops = QGridLayout()
        for i, button in enumerate(self.op_buttons.values()):
            ops.addWidget(button, i // 5, i % 5)

        self.history = QListWidget()
        self.history.setToolTip("Refinements and the candidates left after each")
        self.undo_button = _button("Undo", "Back one refinement", lambda: self.book.undo())
        self.redo_button = _button("Redo", "Forward one undone refinement", lambda: self.book.redo())

        self.model = CandidatesModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setAlternatingRowColors(True)
        self.table.doubleClicked.connect(lambda index: self.make_variable_from(index.row()))
        self.count = QLabel()
        self.message = QLabel()
        self.message.setWordWrap(True)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(_box(self.history, _row(self.undo_button, self.redo_button)))
        splitter.addWidget(_box(self.table, _row(
            (self.count, 1),
            _button("Make variable...", "Add the selected candidate to the integration's variables",
                    lambda: self.make_variable_from(next(iter(self.selected_rows()), -1))),
            _button("Remove", "Drop the selected candidates from this search (undoable)", self.remove_selected),
        )))
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([120, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(_row((self.names, 1), _button("New", "A new search beside the others", self.new_search),
                              _button("Rename...", "Rename this search", self.rename_search),
                              _button("Delete", "Delete this search", self.delete_search)))
        layout.addLayout(_row(QLabel("Types"), (self.types, 1), QLabel("Value"), self.start_value,
                              _button("Start", "Start this search over from memory now", self.start)))
        layout.addLayout(ops)
        layout.addLayout(_row((self.value, 1), QLabel("against"), self.against))
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

        self.book.listeners.append(self._book_changed)
        self._attach()
        self._book_changed("searches")

    # ---- session wiring ----

    def _attach(self) -> None:
        self.session.on("frame", self._frame)

    def _detach(self) -> None:
        self.session.off("frame", self._frame)

    def set_session(self, session: Any, book: SearchBook | None = None) -> None:
        """Searches another game (after the window opened another one)."""
        self._detach()
        if self._book_changed in self.book.listeners:
            self.book.listeners.remove(self._book_changed)
        self.session = session
        self.book = book or SearchBook(lambda: self.session.emulator)
        self.book.listeners.append(self._book_changed)
        self._attach()
        self._book_changed("searches")

    def close_panel(self) -> None:
        """Stops listening to the session and lets go of the candidates (before the game closes)."""
        self._detach()
        self._throttle.stop()
        self.model.set_candidates(None)

    def _frame(self) -> None:
        """Frames ran: refresh the visible values at most 10 times a second, and once at the end."""
        if not self.isVisible():
            return
        self._throttle.request()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.refresh_values()

    def visible_rows(self) -> tuple[int, int]:
        """The first and last rows the table shows (-1, -1 when none)."""
        rows = self.model.rowCount()
        if not rows:
            return -1, -1
        first = self.table.rowAt(0)
        last = self.table.rowAt(max(self.table.viewport().height() - 1, 0))
        first = 0 if first < 0 else first
        last = min(rows - 1, first + 200) if last < 0 else last
        return first, last

    def refresh_values(self) -> None:
        """Re-reads the values of the rows in view now."""
        self._throttle.mark()
        first, last = self.visible_rows()
        if first >= 0:
            self.model.refresh_values(first, last)

    # ---- model events ----

    def _book_changed(self, event: str) -> None:
        if event == "searches":
            self.names.blockSignals(True)
            self.names.clear()
            self.names.addItems(self.book.names())
            if self.book.current_name is not None:
                self.names.setCurrentText(self.book.current_name)
            self.names.blockSignals(False)
        search = self.book.current
        self.model.set_candidates(search.candidates if search is not None else None)
        self.history.clear()
        for entry in self.book.history():
            item = QListWidgetItem(f"{entry.label}: {entry.count:,}")
            if entry.current:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.history.addItem(item)
        position = search.position if search is not None else -1
        if position >= 0:
            self.history.setCurrentRow(position)
        for row in range(position + 1, self.history.count()):  # can be redone
            self.history.item(row).setForeground(self.palette().placeholderText())
        self.undo_button.setEnabled(search is not None and search.can_undo)
        self.redo_button.setEnabled(search is not None and search.can_redo)
        count = search.count if search is not None else 0
        self.count.setText(f"{count:,} candidates" if search is not None else "No search: press Start")

    # ---- commands ----

    def _say(self, text: str) -> None:
        self.message.setText(text)

    def _guard(self, action: Callable[[], Any]) -> Any:
        try:
            result = action()
        except (ValueError, KeyError, IndexError) as exc:
            self._say(str(exc).strip("'\""))
            return None
        self._say("")
        return result

    def new_search(self) -> None:
        self._guard(lambda: self.book.create(types=TYPE_PRESETS[self.types.currentText()]))

    def rename_search(self, new: str | None = None) -> None:
        old = self.book.current_name
        if old is None:
            return
        if not isinstance(new, str):
            new, ok = QInputDialog.getText(self, "Rename search", "New name:", text=old)
            if not ok:
                return
        self._guard(lambda: self.book.rename(old, new))

    def delete_search(self) -> None:
        if self.book.current_name is not None:
            self._guard(lambda: self.book.delete(self.book.current_name))

    def start(self) -> None:
        """Starts the current search over (a new one if there is none) with the chosen types and value."""
        def go() -> None:
            value = parse_value(self.start_value.text())
            types = TYPE_PRESETS[self.types.currentText()]
            self.book.start(value, types if types is not None else self.book.default_types())
        self._guard(go)

    def refine(self, op: str) -> None:
        """Refines the current search with ``op`` and the value field (see the field's tooltip)."""
        def go() -> bool:
            value = parse_value(self.value.text())
            if op in ("increased", "decreased", "changed", "unchanged"):
                value = None
            if self.book.current is None:
                raise ValueError("press Start first")
            self.book.refine(op, value, against=self.against.currentText())
            return True
        began = time.perf_counter()
        if self._guard(go):
            self._say(f"{op}: {(time.perf_counter() - began) * 1000:.1f} ms")

    def selected_rows(self) -> list[int]:
        return sorted({index.row() for index in self.table.selectionModel().selectedRows()})

    def remove_selected(self) -> None:
        rows = self.selected_rows()
        if rows:
            self._guard(lambda: self.book.remove(rows))

    def make_variable_from(self, row: int, name: str | None = None) -> str | None:
        """Emits :attr:`make_variable` for a row's candidate (asking for a name unless given)."""
        found = self.model.candidate(row)
        if found is None:
            self._say("select a candidate first")
            return None
        address, type_text = found
        if name is None:
            name, ok = QInputDialog.getText(self, "Make variable", f"Name for 0x{address:X} {type_text}:",
                                            text=f"var_{address:x}")
            if not ok or not name.strip():
                return None
        name = name.strip()
        self.make_variable.emit(name, address, type_text)
        if self.on_make_variable is not None:
            self.on_make_variable(name, address, type_text)
        return name


SearchPanel = MemorySearchPanel
