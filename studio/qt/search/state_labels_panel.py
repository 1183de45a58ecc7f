"""The Search dock's "Lives" tab: label moments "lives = N", compare, and refine the result.

The labels are kept by :class:`studio.model.search.state_labels.StateLabels`; "Compare" adds a search
of the matching addresses to the Search tab's book, where it is grouped and refined like any
other search (the window shows that tab).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QInputDialog, QLabel, QListWidget, QSpinBox, QVBoxLayout, QWidget

from emucore.errors import EmucoreError
from studio.model.play.session import Session
from studio.model.search.search_book import SearchBook
from studio.model.search.state_labels import MODES, StateLabels
from studio.model.workspace import Workspace
from studio.qt.forms import box, button, line, message_label, row

MESSAGE_LINES = 5


class LabelsPanel(QWidget):
    """The lives wizard for the open game.

    Args:
        workspace: The open game: its ``labels``, and its ``searches``, where the comparison is added.
        types: The type strings to compare with (the Search tab's choice); None: the system's.
        parent: The Qt parent.

    Signals:
        compared(str): a search of that name was added to the book.
    """

    compared = Signal(str)

    def __init__(self, workspace: Workspace, types: Callable[[], tuple[str, ...]] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._types = types
        self._take(workspace)
        self.counter = line("lives", "What is counted (the new search is named after it)")
        self.counter.setText(self.labels.name)
        self.counter.editingFinished.connect(self._rename_counter)
        self.value = QSpinBox()
        self.value.setRange(-(1 << 31), (1 << 31) - 1)
        self.value.setValue(3)
        self.value.setToolTip("The value the counter has now (what the screen shows)")
        self.list = QListWidget()
        self.list.setToolTip("The labelled moments")
        self.mode = QComboBox()
        for mode, text in MODES.items():
            self.mode.addItem(mode)
            self.mode.setItemData(self.mode.count() - 1, text, 3)  # 3: Qt.ToolTipRole
        self.mode.setToolTip("equal: the value is the label; order: it rises and falls with the labels "
                             "(stored off by one); order-either: or the reverse")
        self.message = message_label()
        # a fixed height: a longer message must not push the list and its Compare button about
        self.message.setFixedHeight(self.fontMetrics().lineSpacing() * MESSAGE_LINES + 4)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row(QLabel("Counter"), (self.counter, 1), QLabel("="), self.value,
                             button("Label now", "Label the moment now with this value", self.label_now)))
        # clicked(bool) would hand its checked flag to the slot as the state's name
        layout.addLayout(row(button("Label a saved state...", "Label one of the integration's save states",
                                    lambda: self.label_saved_state()), (QLabel(""), 1)))
        layout.addWidget(box(self.list, row(
            button("Remove", "Forget the selected label", self.remove_selected),
            button("Clear", "Forget every label", self.clear),
            (QLabel(""), 1), self.mode,
            button("Compare", "Find the addresses whose values match the labels (a new search)", self.compare),
        )), 1)
        layout.addWidget(self.message)
        self.refresh()

    def _take(self, workspace: Workspace) -> None:
        self.session: Session = workspace.session
        self.book: SearchBook = workspace.searches
        self.labels: StateLabels = workspace.labels
        self.types = self._types or self.book.default_types

    def bind(self, workspace: Workspace) -> None:
        """The wizard of the workspace's game (after the window opened another one)."""
        self._take(workspace)
        self.counter.setText(self.labels.name)
        self.refresh()

    def unbind(self) -> None:
        """Nothing to end: the wizard listens to no model (its list changes only by its own buttons)."""

    def _guard(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except (ValueError, IndexError, KeyError, EmucoreError) as exc:
            self.message.setText(str(exc).strip("'\""))
            return None

    def _rename_counter(self) -> None:
        self.labels.name = self.counter.text().strip() or "lives"
        self.refresh()

    def refresh(self) -> None:
        self.list.clear()
        self.list.addItems(self.labels.steps())
        count = len(self.labels.labels)
        hint = ("Label the counter at a few moments with different values (3 at the start, 2 after a death...), "
                "then Compare.") if count < 2 else f"{count} labels: Compare, or label more moments."
        self.message.setText(hint)

    def label_now(self) -> None:
        if self._guard(lambda: self.labels.label_now(self.value.value())) is not None:
            self.refresh()

    def label_saved_state(self, name: str | None = None, value: int | None = None) -> None:
        """Labels one of the integration's save states; asks for the state and the value not given."""
        names = self.session.states.names()
        if not names:
            self.message.setText("the integration has no saved states yet")
            return
        if name is None:
            name, ok = QInputDialog.getItem(self, "Label a saved state", "State:", names, 0, False)
            if not ok:
                return
        if value is None:
            value, ok = QInputDialog.getInt(self, "Label a saved state", f"{self.labels.name} in {name}:",
                                            self.value.value())
            if not ok:
                return
        if self._guard(lambda: self.labels.label_state(name, value)) is not None:
            self.refresh()

    def remove_selected(self) -> None:
        index = self.list.currentRow()
        if index >= 0 and self._guard(lambda: self.labels.remove(index)) is not False:
            self.refresh()

    def clear(self) -> None:
        self.labels.clear()
        self.refresh()

    def compare(self) -> str | None:
        """Adds the comparison as a new search (and, in equal mode, the labels one off that find
        something); returns the name of the search shown."""
        found = self._guard(lambda: self.labels.comparison(self.book, self.mode.currentText(), self.types()))
        if found is None:
            return None
        self.message.setText(found.says())
        self.compared.emit(found.shown)
        return found.shown
