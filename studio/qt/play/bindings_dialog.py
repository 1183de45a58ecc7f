"""The Controls dialog: the keyboard key of every button, per player, rebindable."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from emucore.host.emulator import PLAYERS
from emucore.systems import System
from studio.model.play.bindings import bindings_for
from studio.model.settings import Settings
from studio.qt.play.keys import key_name


class ControlsDialog(QDialog):
    """Select a cell and press a key to bind it; Delete clears it. Saved into ``settings``."""

    def __init__(self, system: System, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Controls - {system.title}")
        self.system = system
        self.settings = settings
        self.buttons = [b for b in system.buttons if b]
        current = bindings_for(system, settings)
        self.table = QTableWidget(len(self.buttons), PLAYERS)
        self.table.setHorizontalHeaderLabels([f"Player {p + 1}" for p in range(PLAYERS)])
        self.table.setVerticalHeaderLabels(self.buttons)
        for row, button in enumerate(self.buttons):
            for player in range(PLAYERS):
                item = QTableWidgetItem(current[player].get(button, ""))
                item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(row, player, item)
        self.table.installEventFilter(self)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Select a button, then press its key (Delete clears it)."))
        layout.addWidget(self.table)
        layout.addWidget(box)
        self.resize(360, 480)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.table and isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.KeyPress:
            item = self.table.currentItem()
            if item is None:
                return False
            if event.key() in (Qt.Key.Key_Delete,):
                item.setText("")
                return True
            name = key_name(event.key())
            if name is not None:
                self.bind(item.row(), item.column(), name)
                return True
        return super().eventFilter(watched, event)

    def _cell(self, row: int, player: int) -> QTableWidgetItem:
        item = self.table.item(row, player)
        assert item is not None  # __init__ fills every cell
        return item

    def bind(self, row: int, player: int, key: str) -> None:
        """Gives ``key`` to one button; any other button that had it loses it."""
        for r in range(self.table.rowCount()):
            for p in range(PLAYERS):
                if self._cell(r, p).text() == key:
                    self._cell(r, p).setText("")
        self._cell(row, player).setText(key)

    def accept(self) -> None:
        changes: dict[str, dict[str, str]] = {}
        for player in range(PLAYERS):
            changes[str(player + 1)] = {
                button: self._cell(row, player).text() for row, button in enumerate(self.buttons)
            }
        self.settings.bindings[self.system.name] = changes
        self.settings.save()
        super().accept()
