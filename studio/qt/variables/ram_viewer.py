"""The RAM viewer dock: a region's bytes in hex and ASCII, live, with pokes, freezes and a readout.

Blocks of the address space show data.json addresses and logical bytes (the Genesis overlay
applied); the core's raw regions show offsets and bytes as the core keeps them. Bytes that
changed are highlighted, fading over about a second of play. All writes go through the
:class:`Watch` and :class:`Ram` models.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from emucore.datatypes import parse_type
from emucore.errors import EmulatorClosedError
from studio.model.events import Connections
from studio.model.variables.provenance import Provenance
from studio.model.variables.ram import REFRESH_HZ
from studio.model.variables.watch import AddressFreeze
from studio.model.workspace import Workspace
from studio.qt.throttle import Throttle
from studio.qt.variables.ram_hex_view import HexView

READOUT_COLUMNS = 3


class RamViewer(QWidget):
    """Shows the memory of ``watch.session``'s game.

    Args:
        workspace: The open game; its ``watch`` holds the variables and freezes (shared with the variables panel).
        parent: The Qt parent.
    """

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        watch = self.watch = workspace.watch
        self.session = watch.session
        self.ram = workspace.ram
        self._space = self.session.emulator.memory
        self._throttle = Throttle(self, REFRESH_HZ, self.refresh)

        self.regions = QComboBox()
        self.regions.setToolTip("Address-space blocks use data.json addresses; raw regions are the core's buffers")
        self.regions.currentIndexChanged.connect(self._region_chosen)
        self.go = QLineEdit()
        self.go.setToolTip("An address in hex (FF0012, 0xFF0012, $FF0012) or decimal (16711698)")
        self.go.setClearButtonEnabled(True)
        self.go.returnPressed.connect(lambda: self.go_to(self.go.text()))
        self.message = QLabel()
        self.message.setStyleSheet("color: #c0392b")
        self.hex = HexView(self.ram)
        self.hex.fade_frames = max(1.0, self.session.emulator.get_screen_rate())
        self.hex.cursorMoved.connect(lambda _: self._update_readout())
        self.hex.pokeRequested.connect(self.poke)
        self.hex.menuRequested.connect(self._menu)

        top = QHBoxLayout()
        top.addWidget(self.regions, 1)
        top.addWidget(self.go, 1)
        self.readout_box = QGroupBox()
        self.readout_box.setCheckable(True)  # ticked: the value under the cursor in every type
        self.readout_box.setChecked(False)  # collapsed by default: the hex rows and the game get the room
        self.readout_box.setToolTip("Tick to show the value under the cursor in every type of the system")
        self.readout_box.toggled.connect(self._show_readout)
        grid = QGridLayout(self.readout_box)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        self.readout: dict[str, QLabel] = {}
        self._build_readout(grid)
        self.readout_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.hex)
        splitter.addWidget(self.readout_box)
        splitter.setStretchFactor(0, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)
        self.message.hide()
        self._fill_regions()
        self._connections = Connections()
        self._attach()

    # ---- session wiring ----

    def _attach(self) -> None:
        self._connections.connect(self.session.events.frame, self._throttle.request)
        self._connections.connect(self.watch.events.changed, self._freezes_changed)
        self._freezes_changed()

    def unbind(self) -> None:
        self._connections.disconnect_all()

    def bind(self, workspace: Workspace) -> None:
        """Shows the memory of the workspace's game (after the window opened another game)."""
        self.watch, self.session = workspace.watch, workspace.watch.session
        self.ram = workspace.ram
        self._space = self.session.emulator.memory
        self.hex.ram = self.ram
        self.hex.fade_frames = max(1.0, self.session.emulator.get_screen_rate())
        self._build_readout(self.readout_box.layout())
        self._fill_regions()
        self._attach()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.refresh()  # frames ran while it was hidden

    def refresh(self) -> None:
        """Re-reads memory now: change ages, the visible bytes and the readout."""
        now = self._throttle.mark()
        try:
            space = self.session.emulator.memory
        except EmulatorClosedError:
            return
        if space is not self._space:  # the core rebuilt its memory map
            self._space = space
            self.ram.reload_regions()
            self._fill_regions(keep=True)
        self.ram.refresh(self.session.frame, now=now, force=True)  # throttled here already
        self.hex.viewport().update()
        self._update_readout()

    # ---- regions and go-to ----

    def _fill_regions(self, keep: bool = False) -> None:
        current = self.ram.region
        self.regions.blockSignals(True)
        self.regions.clear()
        example = (self.ram.regions[0].start if self.ram.regions else 0) + 0x12
        self.go.setPlaceholderText(f"Go to: 0x{example:X} or {example}")
        for region in self.ram.regions:
            self.regions.addItem(region.label)
        if keep and current in self.ram.regions:
            self.regions.setCurrentIndex(self.ram.regions.index(current))
        self.regions.blockSignals(False)
        self._region_chosen(self.regions.currentIndex(), keep=keep)

    def _region_chosen(self, index: int, keep: bool = False) -> None:
        if 0 <= index < len(self.ram.regions):
            region = self.ram.regions[index]
            if keep and region == self.ram.region:
                return
            self.ram.select(region)
            self.ram.refresh(self.session.frame)
        self.hex.region_changed()
        self._freezes_changed()
        self._update_readout()

    def select_region(self, index: int) -> None:
        """Shows the ``index``-th region of :attr:`Ram.regions`."""
        self.regions.setCurrentIndex(index)

    def go_to(self, text: str) -> bool:
        """Moves the cursor to a typed address (switching to the block that holds it); False if none does."""
        try:
            region, offset = self.ram.locate(text)
        except ValueError as exc:
            self._say(str(exc))
            return False
        self._say("")
        if region != self.ram.region:
            self.regions.setCurrentIndex(self.ram.regions.index(region))
        self.hex.go_to(offset)
        self.hex.setFocus()
        self._update_readout()
        return True

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    # ---- readout ----

    def _build_readout(self, grid) -> None:
        while grid.count():
            item = grid.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.readout = {}
        types = self.ram.types
        rows = (len(types) + READOUT_COLUMNS - 1) // READOUT_COLUMNS
        for i, type_text in enumerate(types):
            row, column = i % rows, 2 * (i // rows)
            name = QLabel(type_text)
            name.setStyleSheet("color: palette(placeholder-text)")
            value = QLabel("")
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setFont(self.hex.font())
            grid.addWidget(name, row, column)
            grid.addWidget(value, row, column + 1)
            self.readout[type_text] = value
        for column in range(READOUT_COLUMNS):
            grid.setColumnStretch(2 * column + 1, 1)
        self._show_readout(self.readout_box.isChecked())

    def _show_readout(self, shown: bool) -> None:
        for label in self.readout_box.findChildren(QLabel):
            label.setVisible(shown)
        self.readout_box.setFlat(not shown)  # collapsed: the title alone, no empty frame
        title_only = self.readout_box.fontMetrics().height() + 8
        self.readout_box.setMaximumHeight(16777215 if shown else title_only)

    def _update_readout(self) -> None:
        region = self.ram.region
        if region is None or not region.size:
            self.readout_box.setTitle("No memory")
            return
        offset = self.hex.cursor_offset
        where = f"offset 0x{offset:X} of {region.raw}" if region.raw else f"0x{region.start + offset:X}"
        self.readout_box.setTitle(f"Value at {where}")
        for type_text, value in self.ram.readout(offset):
            label = self.readout[type_text]
            label.setText(str(value))
            label.setToolTip(f"{type_text} = {value} = {value & ((1 << 64) - 1):#x}")

    def readout_values(self) -> dict[str, str]:
        """What the readout shows, by type string."""
        return {t: label.text() for t, label in self.readout.items()}

    # ---- pokes and freezes ----

    def poke(self, offset: int, value: int) -> None:
        """Writes one byte at a logical offset of the shown region (a frozen |u1 there is held at it)."""
        self.ram.poke(offset, value & 0xFF)
        target = self._target(offset, "|u1")
        if target in self.watch.frozen_addresses:
            self.watch.freeze_address(target.address, "|u1", value & 0xFF, target.region)
        self.refresh()

    def _target(self, offset: int, type_text: str) -> AddressFreeze:
        region = self.ram.region
        assert region is not None
        return AddressFreeze(region.start + offset, type_text, region.raw)

    def freeze(self, offset: int, type_text: str = "|u1") -> None:
        """Holds the value now at ``offset`` (decoded as ``type_text``) after every frame."""
        value = parse_type(type_text).decode(self.ram.read_bytes(offset, 8))
        target = self._target(offset, type_text)
        self.watch.freeze_address(target.address, type_text, value, target.region)

    def unfreeze(self, offset: int) -> None:
        """Releases every freeze of the shown region that covers ``offset``."""
        for target in self._freezes_at(offset):
            self.watch.unfreeze_address(target)

    def _freezes_at(self, offset: int) -> list[AddressFreeze]:
        region = self.ram.region
        if region is None:
            return []
        address = region.start + offset
        return [
            t for t in self.watch.frozen_addresses
            if t.region == region.raw and t.address <= address < t.address + max(parse_type(t.type).width, 1)
        ]

    def _freezes_changed(self) -> None:
        """Marks the frozen bytes of the shown region (address freezes and frozen variables)."""
        region = self.ram.region
        offsets: set[int] = set()
        if region is not None:
            spans = [(t.address, t.type) for t in self.watch.frozen_addresses if t.region == region.raw]
            if region.raw is None:
                spans += [(v.address, v.type) for n, v in self.watch.variables.items() if n in self.watch.frozen]
            for address, type_text in spans:
                for k in range(parse_type(type_text).width):
                    if region.contains(address + k):
                        offsets.add(address + k - region.start)
        self.hex.frozen = offsets
        self.hex.viewport().update()

    def _menu(self, offset: int, where: QPoint) -> None:
        menu = self.build_menu(offset)
        menu.exec(where)

    def build_menu(self, offset: int) -> QMenu:
        """The right-click menu of a byte: poke, freeze (as any type), unfreeze, add a variable, copy."""
        region = self.ram.region
        assert region is not None
        address = region.start + offset
        menu = QMenu(self)
        menu.addAction("Poke...", lambda: self.hex.start_edit(offset))
        value = self.ram.read_bytes(offset, 1)[0]
        menu.addAction(f"Freeze at {value:02X} (|u1)", lambda: self.freeze(offset, "|u1"))
        freeze_as = menu.addMenu("Freeze as")
        for type_text, decoded in self.ram.readout(offset):
            freeze_as.addAction(f"{type_text}  = {decoded}", self._freeze_slot(offset, type_text))
        frozen = self._freezes_at(offset)
        unfreeze = QAction("Unfreeze", menu)
        unfreeze.setEnabled(bool(frozen))
        unfreeze.triggered.connect(lambda: self.unfreeze(offset))
        menu.addAction(unfreeze)
        if region.raw is None:
            add = menu.addMenu("Add variable")
            for type_text in self.ram.types:
                add.addAction(type_text, self._add_variable_slot(address, type_text))
        menu.addSeparator()
        text = f"{offset:#x}" if region.raw else f"{address:#x}"
        menu.addAction(f"Copy address {text}", lambda: QGuiApplication.clipboard().setText(text))
        return menu

    def _freeze_slot(self, offset: int, type_text: str) -> Callable[[], None]:
        """A menu entry's slot: freezes ``offset`` as ``type_text`` (called with no argument)."""
        return lambda: self.freeze(offset, type_text)

    def _add_variable_slot(self, address: int, type_text: str) -> Callable[[], None]:
        """A menu entry's slot: adds a variable at ``address`` as ``type_text`` (called with no argument)."""
        return lambda: self._add_variable(address, type_text)

    def _add_variable(self, address: int, type_text: str) -> None:
        try:
            found = Provenance("RAM viewer", [f"added from the RAM viewer at 0x{address:X} as {type_text}"],
                               details={"type": type_text})
            self.watch.add(self.watch.unique_name(f"ram_{address:x}"), address, type_text, provenance=found)
        except ValueError as exc:
            self._say(str(exc))
