"""The Search dock: memory search, find from screen, and the lives wizard, as tabs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget

from studio.model.provenance import Provenance
from studio.qt.labels_panel import LabelsPanel
from studio.qt.screen_finder import ScreenFinderPanel
from studio.qt.search_panel import MemorySearchPanel


class SearchDock(QTabWidget):
    """The three ways to find a variable, over one session.

    Args:
        session: The open game.
        watch: The variables a find is added to.
        scenario: Gives the scenario document (a reward term for a found score).
        add_variable: Called as ``add_variable(name, address, type, provenance)`` for the memory
            search's "Make variable" (the Variables dock's slot).
        remembered_types: system -> type list title (see :class:`MemorySearchPanel`).

    Signals:
        screen_typed(): a number the screen shows was entered (the window gives the game the focus).
    """

    screen_typed = Signal()

    def __init__(self, session: Any, watch: Any, scenario: Callable[[], Any] | None = None,
                 add_variable: Callable[[str, int, str, Provenance], Any] | None = None,
                 remembered_types: dict[str, str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.scenario = scenario
        self.add_variable = add_variable
        self.panel = MemorySearchPanel(session, remembered_types=remembered_types)
        self.panel.make_variable.connect(self._made_from_search)
        self.addTab(_scrolled(self.panel), "Search")
        self.from_screen: ScreenFinderPanel
        self.labels: LabelsPanel
        self._build_tabs(session, watch)

    def _build_tabs(self, session: Any, watch: Any) -> None:
        self.from_screen = ScreenFinderPanel(session, watch, self.scenario)
        self.from_screen.setToolTip("Type the number the screen shows at a few moments: the variable that holds it")
        self.from_screen.done_typing.connect(self.screen_typed)
        self.labels = LabelsPanel(session, self.panel.book, self.panel.chosen_types)
        self.labels.compared.connect(lambda _name: self.show_page(self.panel))
        self.insertTab(1, _scrolled(self.from_screen), "From screen")
        self.insertTab(2, _scrolled(self.labels), "Lives")

    def set_session(self, session: Any, watch: Any) -> None:
        """Searches another game (after the window opened another one)."""
        self.panel.set_session(session)
        self.from_screen.close_panel()
        for old in (self.from_screen, self.labels):
            index = self._index_of(old)
            holder = self.widget(index)
            self.removeTab(index)
            if holder is not None:
                holder.deleteLater()
        self._build_tabs(session, watch)

    def _made_from_search(self, name: str, address: int, type_text: str) -> None:
        if self.add_variable is None:
            return
        search = self.panel.book.current
        steps = [f"{entry.label}: {entry.count:,}" for entry in self.panel.book.history()[: search.position + 1]] \
            if search is not None else []
        how = "lives wizard" if any(step.startswith("states ") for step in steps) else "memory search"
        if how == "lives wizard":
            steps = self.labels.labels.steps() + steps
        details = {"type": type_text, "search": self.panel.book.current_name or ""}
        self.add_variable(name, address, type_text, Provenance(how, steps, details=details))

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


def _scrolled(page: QWidget) -> QScrollArea:
    """Each tab scrolls on its own, so the tallest one does not set the dock's height for all."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area
