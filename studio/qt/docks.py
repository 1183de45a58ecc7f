"""The main window's docks, declared once: title, area and the panel each shows, made from the workspace.

Every panel is made by its factory from the workspace and has ``bind(workspace)`` / ``unbind()``: when
another game opens, the window unbinds every panel (``workspace.events.closing``) and binds it to the new
models (``events.opened``). A panel connects to the models only through a
:class:`~studio.model.events.Connections` that ``unbind`` ends, so a closed game keeps no view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from studio.model.events import Connections
from studio.model.workspace import Workspace
from studio.qt.forms import scrolling
from studio.qt.play.states_panel import StatesPanel
from studio.qt.scenario.scenario_doc_editor import ScenarioEditor
from studio.qt.search.search_dock import SearchDock
from studio.qt.variables.ram_viewer import RamViewer
from studio.qt.variables.watch_panel import VariablesPanel

P = TypeVar("P", bound=QWidget)
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


class Panel(Protocol):
    def bind(self, workspace: Workspace) -> None: ...

    def unbind(self) -> None: ...


@dataclass(frozen=True)
class DockSpec:
    key: str
    title: str
    area: Qt.DockWidgetArea
    factory: Callable[[Workspace], QWidget]


DOCKS: tuple[DockSpec, ...] = (
    DockSpec("states", "States", RIGHT, StatesPanel),
    DockSpec("variables", "Variables", RIGHT, VariablesPanel),
    DockSpec("search", "Search", RIGHT, SearchDock),
    DockSpec("scenario", "Scenario", RIGHT, ScenarioEditor),
    DockSpec("ram", "RAM", BOTTOM, RamViewer),
)
"""In this order; the docks of one area are tabbed, the first raised."""


class Docks:
    """The docks of ``DOCKS`` in ``window``, their panels bound to the workspace's game."""

    def __init__(self, window: QMainWindow, workspace: Workspace):
        self.workspace = workspace
        self.panels: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}
        for spec in DOCKS:
            panel = spec.factory(workspace)
            dock = QDockWidget(spec.title, window)
            dock.setObjectName(f"dock-{spec.title}")
            dock.setWidget(scrolling(panel))  # no panel sets the window's minimum size
            window.addDockWidget(spec.area, dock)
            self.panels[spec.key], self.docks[spec.key] = panel, dock
        for area in (RIGHT, BOTTOM):
            tabbed = [self.docks[spec.key] for spec in DOCKS if spec.area == area]
            for left, right in zip(tabbed, tabbed[1:]):
                window.tabifyDockWidget(left, right)
            if tabbed:
                tabbed[0].raise_()
        self._connections = Connections()
        self._connections.connect(workspace.events.closing, self.unbind)
        self._connections.connect(workspace.events.opened, self.bind)

    def panel(self, key: str, kind: type[P]) -> P:
        """The panel of dock ``key``, as the ``kind`` its factory makes."""
        panel = self.panels[key]
        assert isinstance(panel, kind)
        return panel

    def unbind(self) -> None:
        for panel in self.panels.values():
            _panel(panel).unbind()

    def bind(self) -> None:
        for panel in self.panels.values():
            _panel(panel).bind(self.workspace)

    def close(self) -> None:
        self.unbind()
        self._connections.disconnect_all()


def _panel(widget: QWidget) -> Panel:
    assert hasattr(widget, "bind") and hasattr(widget, "unbind"), f"{type(widget).__name__} has no bind/unbind"
    return widget

