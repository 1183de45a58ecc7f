"""The memory search dock: named searches, refinements, history, and the candidates.

Everything goes through :class:`studio.model.search.search_book.SearchBook`. The candidates are a tree
(:mod:`studio.qt.search.search_book_tree`): one row per address with the types that fit there inside,
the most plausible first. Live values refresh at most 10 times a second, for the rows in view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from emucore.operations import AMOUNTS, SEARCH_MEANINGS, VALUE_COMPARISONS, Change
from emucore.search import OPS
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.search.search_book import (
    TYPE_PRESETS,
    SearchBook,
    default_preset,
    parse_value,
    proposed_name,
    switch_hint,
)
from studio.model.workspace import Workspace
from studio.qt.forms import box, button, line, message_label, row
from studio.qt.search.search_book_tree import CandidateTreeModel, CandidateViews
from studio.qt.throttle import Throttle

REFRESH_HZ = 10.0
VALUE_OPS = VALUE_COMPARISONS  # compare with the value box, else a snapshot
AMOUNT_OPS = AMOUNTS  # need the value box
SNAPSHOT_OPS = tuple(op for op in OPS if op not in VALUE_OPS + AMOUNT_OPS)  # ignore the value box
OP_TITLES: dict[str, str] = {  # the value comparisons' from their meanings ("<"), the changes' from their names
    **{op: meaning.title for op, meaning in SEARCH_MEANINGS.items()},
    **{change: change.replace("-", " ") for change in Change},
}
FAMILY_FILTERS: dict[str, frozenset[str] | None] = {
    "All type families": None,
    "Binary (u)": frozenset({"binary"}),
    "Signed (i)": frozenset({"signed"}),
    "BCD (d)": frozenset({"bcd"}),
    "Digits (n)": frozenset({"nibble"}),
}


class MemorySearchPanel(QWidget):
    """Memory search over the open game's emulator.

    Args:
        workspace: The open game; its ``searches`` are shown, and the type list chosen per system is
            remembered in its settings' ``search_types`` (system -> type list title, saved with the settings).
        on_make_variable: Also called as ``on_make_variable(name, address, type)`` on "Make variable".
        parent: The Qt parent.

    Signals:
        make_variable(str, int, str): the user made a variable from a candidate (name, address, type).
    """

    make_variable = Signal(str, int, str)

    def __init__(self, workspace: Workspace, on_make_variable: Callable[[str, int, str], Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.session: Session = workspace.session
        self.book: SearchBook = workspace.searches
        self.on_make_variable = on_make_variable
        self.remembered_types = workspace.settings.search_types
        self._throttle = Throttle(self, REFRESH_HZ, self.refresh_values)

        self.names = QComboBox()
        self.names.setToolTip("Searches side by side: each keeps its own candidates, history and value box")
        self.names.activated.connect(lambda i: self._guard(lambda: self.book.select(self.names.itemText(i))))
        self.types = QComboBox()
        self.types.addItems(list(TYPE_PRESETS))
        self.types.setToolTip("The data.json types tried at every address (remembered per system)")
        self.types.activated.connect(self._types_chosen)
        self.start_value = line("unknown", "Start from this value, or leave empty for an unknown value")
        self.start_value.returnPressed.connect(self.start)
        self.value = line("value box", "This search's value: =, \u2260, <, > compare with it (empty: with the "
                           "snapshot chosen next to it);\nincreased by / decreased by: the exact amount")
        self.value.textChanged.connect(self._value_edited)
        self.against = QComboBox()
        self.against.addItems(["previous", "first"])
        self.against.setToolTip("The snapshot compared with when the value box is empty")
        self.against.currentTextChanged.connect(lambda _: self._title_buttons())
        self.op_buttons = {op: button(OP_TITLES[op], op, lambda _=False, op=op: self.refine(op)) for op in OPS}
        ops = QGridLayout()
        for i, op_button in enumerate(self.op_buttons.values()):
            ops.addWidget(op_button, i // 5, i % 5)

        self.history = QListWidget()
        self.history.setToolTip("Refinements and the candidates left after each")
        self.undo_button = button("Undo", "Back one refinement", lambda: self.book.undo())
        self.redo_button = button("Redo", "Forward one undone refinement", lambda: self.book.redo())

        self.model = CandidateTreeModel()
        self.views = CandidateViews(self.model)
        for view in (self.views.tree, self.views.flat):
            view.doubleClicked.connect(lambda index: self.make_variable_from(index))
        self.group = QCheckBox("By address")
        self.group.setChecked(True)
        self.group.setToolTip("One row per address, the types that fit there inside (most plausible first)")
        self.families = QComboBox()
        self.families.addItems(list(FAMILY_FILTERS))
        self.families.setToolTip("Show one family of types only")
        self.hide_zero = QCheckBox("Hide zero-extended")
        self.hide_zero.setChecked(True)
        self.hide_zero.setToolTip("Hide wider types whose extra bytes were zero at every snapshot of the search,\n"
                                  "when a narrower type reads the same bytes")
        for check in (self.group, self.hide_zero):
            check.toggled.connect(lambda _: self._view_options_changed())
        self.families.currentIndexChanged.connect(lambda _: self._view_options_changed())
        self.count = QLabel()
        self.message = message_label()

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(box(self.history, row(self.undo_button, self.redo_button)))
        candidates = box(self.views, row(
            (self.count, 1),
            button("Make variable...", "Add the selected candidate to the integration's variables",
                    lambda: self.make_variable_from(self.table.currentIndex())),
            button("Remove", "Drop the selected candidates from this search (undoable)", self.remove_selected),
        ))
        layout_of_candidates = candidates.layout()
        assert isinstance(layout_of_candidates, QVBoxLayout)
        layout_of_candidates.insertLayout(0, row(self.group, (self.families, 1), self.hide_zero))
        splitter.addWidget(candidates)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([120, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row((self.names, 1), button("New", "A new search beside the others", self.new_search),
                              button("Rename...", "Rename this search", self.rename_search),
                              button("Delete", "Delete this search", self.delete_search)))
        layout.addLayout(row(QLabel("Types"), (self.types, 1), QLabel("Value"), self.start_value,
                              button("Start", "Start this search over from memory now", self.start)))
        layout.addLayout(ops)
        layout.addLayout(row((self.value, 1), QLabel("against"), self.against))
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

        self._connections = Connections()
        self.bind(workspace)

    # ---- session wiring ----

    def _system_name(self) -> str | None:
        system = getattr(self.session.emulator, "system", None)
        return getattr(system, "name", None)

    def bind(self, workspace: Workspace) -> None:
        """Searches the workspace's game (at start, and after the window opened another one)."""
        self.session, self.book = workspace.session, workspace.searches
        self._connections.connect(self.session.events.frame, self._throttle.request)
        self._connections.connect(self.book.events.searches, self._searches_changed)
        self._connections.connect(self.book.events.candidates, self._candidates_changed)
        self.types.setCurrentText(default_preset(self._system_name(), self.remembered_types))
        self._searches_changed()
        self._candidates_changed()

    def unbind(self) -> None:
        """Stops listening to the game and lets go of its candidates (before it closes)."""
        self._connections.disconnect_all()
        self._throttle.stop()
        self.model.set_search(None)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.refresh_values()

    def refresh_values(self) -> None:
        """Re-reads the values of the rows in view now."""
        self._throttle.mark()
        self.model.refresh_values()
        self.table.viewport().update()

    # ---- model events ----

    def _searches_changed(self) -> None:
        """The names or the current one changed (the candidates follow with their own event when they change)."""
        self.names.blockSignals(True)
        self.names.clear()
        self.names.addItems(self.book.names())
        if self.book.current_name is not None:
            self.names.setCurrentText(self.book.current_name)
        self.names.blockSignals(False)
        self.value.blockSignals(True)
        self.value.setText(self.book.value_texts.get(self.book.current_name or "", ""))
        self.value.blockSignals(False)
        self._title_buttons()

    def _candidates_changed(self) -> None:
        """The current search's candidates changed (grouping them is the costly part, done once per change)."""
        search = self.book.current
        self._guard(lambda: self.model.set_search(search), clear=False)
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
        for undone in range(position + 1, self.history.count()):  # can be redone
            self.history.item(undone).setForeground(self.palette().placeholderText())
        self.undo_button.setEnabled(search is not None and search.can_undo)
        self.redo_button.setEnabled(search is not None and search.can_redo)
        self._show_count()

    def _show_count(self) -> None:
        search = self.book.current
        if search is None:
            self.count.setText("No search: press Start")
            return
        text = f"{search.count:,} candidates"
        if self.model.grouped is not None:
            groups = len(self.model.grouped)
            text += f" at {groups:,} address{'es' if groups != 1 else ''}"
        self.count.setText(text + (f" ({self.model.note})" if self.model.note else ""))

    def _view_options_changed(self) -> None:
        self._guard(lambda: self.model.set_view_options(
            group_by_address=self.group.isChecked(), families=FAMILY_FILTERS[self.families.currentText()],
            hide_zero_extended=self.hide_zero.isChecked()))
        self._show_count()

    def _value_edited(self, text: str) -> None:
        if self.book.current_name is not None:
            self.book.set_value_text(self.book.current_name, text)
        self._title_buttons()

    def _title_buttons(self) -> None:
        """The buttons say what they compare with: this search's value box or a snapshot."""
        text = self.value.text().strip()
        snapshot = self.against.currentText()
        for op, op_button in self.op_buttons.items():
            if op in VALUE_OPS:
                op_button.setText(f"{OP_TITLES[op]} {text}" if text else OP_TITLES[op])
                op_button.setToolTip(f"Keep the candidates {op} {text} (the value box)" if text else
                                     f"Keep the candidates {op} to their value at the {snapshot} snapshot")
            elif op in AMOUNT_OPS:
                op_button.setText(f"{OP_TITLES[op]} {text}" if text else f"{OP_TITLES[op]}\u2026")
                op_button.setToolTip(f"Keep the candidates {op.replace('-', ' ')} exactly the value box's amount")
            else:
                op_button.setToolTip(f"Keep the candidates {op} since the {snapshot} snapshot")

    def _types_chosen(self, _index: int = 0) -> None:
        if system := self._system_name():
            self.remembered_types[system] = self.types.currentText()

    # ---- commands ----

    def _say(self, text: str) -> None:
        self.message.setText(text)

    def _guard(self, action: Callable[[], Any], clear: bool = True) -> Any:
        try:
            result = action()
        except (ValueError, KeyError, IndexError) as exc:
            self._say(str(exc).strip("'\""))
            return None
        if clear:
            self._say("")
        return result

    def chosen_types(self) -> tuple[str, ...]:
        """The type strings of the list chosen in "Types"."""
        types = TYPE_PRESETS[self.types.currentText()]
        return types if types is not None else self.book.default_types()

    def new_search(self) -> None:
        self._guard(lambda: self.book.create(types=self.chosen_types()))

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
        name = self.book.current_name
        if name is not None:
            self._guard(lambda: self.book.delete(name))

    def start(self) -> None:
        """Starts the current search over (a new one if there is none) with the chosen types and value."""
        self._guard(lambda: self.book.start(parse_value(self.start_value.text()), self.chosen_types()))
        self._hint()

    def refine(self, op: str) -> None:
        """Refines the current search with ``op`` and the value box (see the box's tooltip)."""
        def go() -> bool:
            value = parse_value(self.value.text())
            if op in SNAPSHOT_OPS:
                value = None
            if self.book.current is None:
                raise ValueError("press Start first")
            self.book.refine(op, value, against=self.against.currentText())
            return True
        began = time.perf_counter()
        if self._guard(go):
            self._say(f"{op}: {(time.perf_counter() - began) * 1000:.1f} ms")
            self._hint()

    def _hint(self) -> None:
        search = self.book.current
        hint = switch_hint(self.types.currentText(), search.count) if search is not None else ""
        if hint:
            self._say(hint)

    @property
    def table(self) -> QAbstractItemView:
        """The candidates' view shown now (a tree while grouped by address, else a table)."""
        return self.views.view

    def selected_indexes(self) -> list[QModelIndex]:
        return [index for index in self.table.selectionModel().selectedRows()]

    def remove_selected(self) -> None:
        """Drops the selected candidates; an address row drops every type listed in it."""
        rows: set[int] = set()
        for index in self.selected_indexes():
            rows.add(self.model.row_of(index))
            if index.internalId() == 0:  # an address row: its types inside too
                for child in range(self.model.rowCount(index)):
                    rows.add(self.model.row_of(self.model.index(child, 0, index)))
        rows.discard(-1)
        if rows:
            self._guard(lambda: self.book.remove(sorted(rows)))

    def make_variable_from(self, index: QModelIndex | int, name: str | None = None) -> str | None:
        """Emits :attr:`make_variable` for a candidate (an index, or a top row number), asking for
        a name unless given."""
        if isinstance(index, int):
            index = self.model.index(index, 0) if index >= 0 else QModelIndex()
        found = self.model.candidate(index)
        if found is None:
            self._say("select a candidate first")
            return None
        address, type_text = found
        if name is None:
            name, ok = QInputDialog.getText(self, "Make variable", f"Name for 0x{address:X} {type_text}:",
                                            text=proposed_name(self.book.current_name, address))
            if not ok or not name.strip():
                return None
        name = name.strip()
        self.make_variable.emit(name, address, type_text)
        if self.on_make_variable is not None:
            self.on_make_variable(name, address, type_text)
        return name

