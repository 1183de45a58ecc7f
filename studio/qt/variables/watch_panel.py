"""The variables dock: data.json as an editable table with live values, freezes and a plot.

Every edit goes through :class:`studio.model.variables.watch.Watch`, which saves data.json at once. The
live values and the plot of the selected variables refresh at most 15 times a second; the
samples themselves are taken every frame by the model and follow rewinds.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.model.events import Connections
from studio.model.variables.provenance import Provenance
from studio.model.variables.ram import RAM_VIEW_TYPES, parse_number
from studio.model.variables.watch import Watch
from studio.model.workspace import Workspace
from studio.qt.delegates import ChoiceDelegate
from studio.qt.search.screen_reader_series import ScreenSeries
from studio.qt.throttle import Throttle
from studio.qt.variables.watch_actions import VariableActions

REFRESH_HZ = 15.0
NAME, ADDRESS, TYPE, MASK, VALUE, FREEZE = range(6)
HEADERS = ("Name", "Address", "Type", "Mask", "Value", "Freeze")
WARNING = QColor(200, 120, 0)
Index = QModelIndex | QPersistentModelIndex


class VariablesModel(QAbstractTableModel):
    """The watch's variables as table rows; edits call the watch and report errors to ``report``."""

    def __init__(self, watch: Watch, report=None):
        super().__init__()
        self.watch = watch
        self.report = report or (lambda text, warning=False: None)
        self.names: list[str] = []
        self.values: dict[str, int | None] = {}  # read once per refresh, not once per cell and role
        self.warnings: dict[tuple[str, int], str | None] = {}  # (name, column) -> message
        self.colors: dict[str, QColor] = {}  # plotted variables: their curve's colour
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        self.names = list(self.watch.variables)
        self._read()
        self.endResetModel()

    def _read(self) -> None:
        self.values = {name: self.watch.value(name) for name in self.names}
        self.warnings = {}
        for name in self.names:
            unmapped = self.watch.address_warning(name)
            self.warnings.update({(name, ADDRESS): unmapped, (name, VALUE): unmapped})
            self.warnings[(name, TYPE)] = self.watch.type_warning(name)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt's names)
        return 0 if parent.isValid() else len(self.names)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == FREEZE:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        name = self.names[index.row()]
        variable = self.watch.variables.get(name)
        if variable is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DecorationRole and column == NAME:
            return self.colors.get(name)
        if role == Qt.ItemDataRole.CheckStateRole and column == FREEZE:
            return Qt.CheckState.Checked if name in self.watch.frozen else Qt.CheckState.Unchecked
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == NAME:
                return name
            if column == ADDRESS:
                return f"0x{variable.address:X}"
            if column == TYPE:
                return variable.type
            if column == MASK:
                return "" if variable.mask is None else f"0x{variable.mask:X}"
            if column == VALUE:
                value = self.values.get(name)
                return "unmapped" if value is None and role == Qt.ItemDataRole.DisplayRole else value
        if role == Qt.ItemDataRole.ToolTipRole and column == NAME:
            return self.watch.provenance.tooltip(name)  # how it was found
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (ADDRESS, MASK, VALUE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column in (ADDRESS, TYPE, VALUE) and role in (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.ToolTipRole):
            warning = self.warnings.get((name, column))
            if role == Qt.ItemDataRole.ForegroundRole:
                return WARNING if warning else None
            if warning:
                return warning
            value = self.values.get(name)
            return f"{value} = {value & ((1 << 64) - 1):#x}" if column == VALUE and value is not None else None
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        name = self.names[index.row()]
        column = index.column()
        try:
            if column == FREEZE and role == Qt.ItemDataRole.CheckStateRole:
                if Qt.CheckState(value) == Qt.CheckState.Checked:
                    self.watch.freeze(name)
                else:
                    self.watch.unfreeze(name)
                return True
            if role != Qt.ItemDataRole.EditRole:
                return False
            text = str(value).strip()
            if column == NAME:
                name = self.watch.rename(name, text)
            elif column == ADDRESS:
                self.watch.edit(name, address=parse_number(text))
            elif column == TYPE:
                self.watch.edit(name, type=text)
            elif column == MASK:
                self.watch.edit(name, mask=parse_number(text) if text else None)
            elif column == VALUE:
                self.watch.poke(name, parse_number(text))
                self.values[name] = self.watch.value(name)
                self.dataChanged.emit(index, index)
        except (ValueError, IndexError, KeyError) as exc:
            self.report(str(exc).strip("'\""))
            return False
        warning = self.watch.warning(name)
        self.report(warning or "", bool(warning))
        return True

    def refresh_values(self) -> None:
        """Reads the live values again and tells the view."""
        self.values = {name: self.watch.value(name) for name in self.names}
        if self.names:
            self.dataChanged.emit(self.index(0, VALUE), self.index(len(self.names) - 1, VALUE))


class VariablesPanel(QWidget):
    """The integration's variables: edit, poke, freeze and plot them.

    Args:
        workspace: The open game; its ``watch`` holds the variables (shared with the RAM viewer).
        parent: The Qt parent.
    """

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.watch: Watch = workspace.watch
        watch = self.watch
        self._throttle = Throttle(self, REFRESH_HZ, self.refresh)

        self.model = VariablesModel(watch, self.say)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setAlternatingRowColors(True)
        self.type_delegate = ChoiceDelegate(self._types, editable=True, parent=self.table)
        self.table.setItemDelegateForColumn(TYPE, self.type_delegate)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(FREEZE, QHeaderView.ResizeMode.ResizeToContents)
        for column in (ADDRESS, TYPE, MASK):  # these change only when edited
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.resizeSection(VALUE, self.fontMetrics().horizontalAdvance("0" * 10) + 16)

        add, remove = QPushButton("Add"), QPushButton("Remove")
        add.setToolTip("Add a variable (saved to data.json at once)")
        remove.setToolTip("Remove the selected variables from data.json")
        add.clicked.connect(self._add_clicked)
        remove.clicked.connect(self.remove_selected)
        poke, about = QPushButton("Poke test..."), QPushButton("About...")
        poke.setToolTip("Poke a value on a scratch copy of the game: a real counter, a copy, or not shown?")
        about.setToolTip("How the selected variable was found, and your note about it")
        #: Poke test, "About this variable" and the table's context menu.
        self.variable_actions = VariableActions(self, self)
        poke.clicked.connect(lambda: self.variable_actions.open_poke_test())
        about.clicked.connect(lambda: self.variable_actions.show_about())
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(
            lambda pos: self.variable_actions.context_menu(pos).popup(self.table.viewport().mapToGlobal(pos)))
        self.message = QLabel()
        self.message.setWordWrap(True)
        buttons = QHBoxLayout()
        for button in (add, remove, poke, about):
            buttons.addWidget(button)
        buttons.addWidget(self.message, 1)

        self.plot = pg.PlotWidget(background=self.palette().color(QPalette.ColorRole.Base))
        self.plot.setLabel("bottom", "frame")
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.setMenuEnabled(False)
        self.plot.setMinimumHeight(120)
        self.curves: dict[str, pg.PlotDataItem] = {}
        #: The number read off the screen, beside a variable found with it.
        self.screen_series = ScreenSeries(self.plot, watch, getattr(workspace, "screen_reader", None))
        self.hint = pg.TextItem("Select variables to plot them", anchor=(0.5, 0.5), color=(128, 128, 128))

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.table)
        top_layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(self.plot)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([300, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._rebuild_curves())
        self._connections = Connections()
        self._attach()
        self._rebuild_curves()
        if watch.load_error:
            self.say(watch.load_error)

    # ---- session wiring ----

    def _types(self) -> tuple[str, ...]:
        return tuple(self.watch.session.system.types or RAM_VIEW_TYPES)

    def _attach(self) -> None:
        self._connections.connect(self.watch.session.events.frame, self._throttle.request)
        self._connections.connect(self.watch.events.changed, self._variables_changed)
        if self.screen_series.screen is not None:
            self._connections.connect(self.screen_series.screen.events.changed, self._rebuild_curves)

    def unbind(self) -> None:
        self._connections.disconnect_all()

    def bind(self, workspace: Workspace) -> None:
        """Shows the variables of the workspace's game (after the window opened another game)."""
        self.watch = workspace.watch
        self.model.watch = self.watch
        self.screen_series.watch, self.screen_series.screen = self.watch, workspace.screen_reader
        self._attach()
        self._variables_changed()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.refresh()  # frames ran while it was hidden

    def refresh(self) -> None:
        """Re-reads the live values and redraws the plot now."""
        self._throttle.mark()
        if self.table.state() != QAbstractItemView.State.EditingState:
            self.model.refresh_values()
        for name, curve in self.curves.items():
            frames, values = self.watch.samples(name)
            curve.setData(frames, values)
        self.screen_series.refresh()

    def _variables_changed(self) -> None:
        selected = self.selected_names()
        self.model.reload()
        selection = self.table.selectionModel()
        for name in selected:
            if name in self.model.names:
                row = self.model.names.index(name)
                selection.select(
                    self.model.index(row, 0),
                    selection.SelectionFlag.Select | selection.SelectionFlag.Rows,
                )
        self._rebuild_curves()

    # ---- editing ----

    def say(self, text: str, warning: bool = False) -> None:
        color = "#b9770e" if warning else "#c0392b"
        self.message.setStyleSheet(f"color: {color}")
        self.message.setText(text)
        self.message.setToolTip("")

    def selected_names(self) -> list[str]:
        rows = sorted(index.row() for index in self.table.selectionModel().selectedRows())
        return [self.model.names[r] for r in rows if r < len(self.model.names)]

    def add_variable(self, name: str, address: int, type: str, provenance: Provenance | None = None) -> str | None:
        """Adds a variable (the name made unique) and selects it; returns its name, None if invalid.

        This is the slot for the memory search's "make variable"; ``provenance`` says how it was found.
        """
        try:
            name = self.watch.add(self.watch.unique_name(name), address, type, provenance=provenance)
        except ValueError as exc:
            self.say(str(exc))
            return None
        warning = self.watch.warning(name)
        self.say(warning or f"Added {name!r} to data.json", bool(warning))
        self.select(name)
        return name

    def select(self, name: str) -> bool:
        """Selects and shows the variable ``name`` (False when there is none of that name)."""
        if name not in self.model.names:
            return False
        row = self.model.names.index(name)
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, NAME))
        return True

    def _add_clicked(self) -> None:
        blocks = self.watch.session.emulator.memory.blocks
        name = self.add_variable("var", blocks[0].start if blocks else 0, "|u1", Provenance("typed in", []))
        if name is not None:
            self.table.edit(self.model.index(self.model.names.index(name), NAME))

    def remove_selected(self) -> None:
        """Removes the selected variables from data.json."""
        names = self.selected_names()
        for name in names:
            self.watch.remove(name)
        if names:
            self.say(f"Removed {', '.join(names)}")

    # ---- plot ----

    def _rebuild_curves(self) -> None:
        for curve in self.curves.values():
            self.plot.removeItem(curve)
        self.curves = {}
        colors = {}
        for i, name in enumerate(self.selected_names()):
            colors[name] = pg.intColor(i, hues=9, values=1, maxValue=230)
            self.curves[name] = self.plot.plot([], [], pen=pg.mkPen(colors[name], width=1.5), name=name)
        self.model.colors = colors  # the table shows each curve's colour beside its name
        self.screen_series.rebuild(list(colors))
        if self.model.names:
            last = len(self.model.names) - 1
            self.model.dataChanged.emit(self.model.index(0, NAME), self.model.index(last, NAME))
        if self.curves:
            self.plot.removeItem(self.hint)
        elif self.hint.scene() is None:
            self.plot.addItem(self.hint, ignoreBounds=True)
            self.hint.setPos(0.5, 0.5)
        self.refresh()
