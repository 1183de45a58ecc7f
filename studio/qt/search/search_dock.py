"""The Search dock: memory search, find from screen, and the lives wizard, as tabs."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QScrollArea, QTabWidget, QWidget

from studio.model.variables.provenance import Provenance
from studio.model.workspace import Workspace
from studio.qt.forms import scrolling
from studio.qt.search.screen_values_panel import ScreenFinderPanel
from studio.qt.search.search_book_panel import MemorySearchPanel
from studio.qt.search.state_labels_panel import LabelsPanel


class SearchDock(QTabWidget):
    """The three ways to find a variable, over the open game.

    Args:
        workspace: The open game.

    Signals:
        screen_typed(): a number the screen shows was entered (the window gives the game the focus).
        variable_found(str, int, str, Provenance): the memory search's "Make variable" (name, address, type,
            how it was found), for the Variables dock to add.
    """

    screen_typed = Signal()
    variable_found = Signal(str, int, str, object)

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.panel = MemorySearchPanel(workspace)
        self.panel.make_variable.connect(self._made_from_search)
        self.from_screen = ScreenFinderPanel(workspace)
        self.from_screen.setToolTip("Type the number the screen shows at a few moments: the variable that holds it")
        self.from_screen.done_typing.connect(self.screen_typed)
        self.labels = LabelsPanel(workspace, self.panel.chosen_types)
        self.labels.compared.connect(self._labels_compared)
        # each tab scrolls on its own, so the tallest one does not set the dock's height for all
        self.addTab(scrolling(self.panel), "Search")
        self.addTab(scrolling(self.from_screen), "From screen")
        self.addTab(scrolling(self.labels), "Lives")

    def bind(self, workspace: Workspace) -> None:
        """Searches the workspace's game (after the window opened another one)."""
        for page in (self.panel, self.from_screen, self.labels):
            page.bind(workspace)

    def unbind(self) -> None:
        for page in (self.panel, self.from_screen, self.labels):
            page.unbind()

    def _labels_compared(self, _name: str) -> None:
        """The wizard's comparison is a search: show it, with what the wizard said about it."""
        self.show_page(self.panel)
        self.panel.message.setText(self.labels.message.text())

    def _made_from_search(self, name: str, address: int, type_text: str) -> None:
        search = self.panel.book.current
        steps = [f"{entry.label}: {entry.count:,}" for entry in self.panel.book.history()[: search.position + 1]] \
            if search is not None else []
        how = "lives wizard" if any(step.startswith("states ") for step in steps) else "memory search"
        if how == "lives wizard":
            steps = self.labels.labels.steps() + steps
        details = {"type": type_text, "search": self.panel.book.current_name or ""}
        self.variable_found.emit(name, address, type_text, Provenance(how, steps, details=details))

    def _index_of(self, page: QWidget) -> int:
        return next(i for i in range(self.count()) if _page(self.widget(i)) is page)

    def show_page(self, page: QWidget) -> None:
        """Shows the tab of ``page`` (the panel, the finder or the wizard)."""
        self.setCurrentIndex(self._index_of(page))

    @property
    def current_page(self) -> QWidget:
        """The panel, finder or wizard shown now."""
        found = _page(self.currentWidget())
        assert found is not None
        return found

    def find_from_screen(self) -> None:
        """Shows the "From screen" tab with the cursor in its number field."""
        self.show_page(self.from_screen)
        self.from_screen.focus_field()


def _page(holder: QWidget | None) -> QWidget | None:
    """The panel inside a tab's scroll area."""
    return holder.widget() if isinstance(holder, QScrollArea) else None

