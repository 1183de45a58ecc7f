"""The save-state dock: named states with thumbnails, and the ten quick slots."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QGridLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.play.states import SLOTS, StateInfo
from studio.model.workspace import Workspace
from studio.qt.images import qimage_from_rgb


def pixmap_of(image: np.ndarray) -> QPixmap:
    return QPixmap.fromImage(qimage_from_rgb(image))


def describe(info: StateInfo) -> str:
    parts = [info.name + ("  (default)" if info.is_default else "")]
    if info.frame is not None:
        parts.append(f"frame {info.frame}")
    if info.saved_at is not None:
        parts.append(time.strftime("%Y-%m-%d %H:%M", time.localtime(info.saved_at)))
    return "\n".join(parts)


class StatesPanel(QWidget):
    """Lists the states of the open game; acts on them only through its session."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setIconSize(QSize(96, 72))
        self.list.itemDoubleClicked.connect(lambda _: self.load_selected())
        self.buttons: dict[str, QPushButton] = {}
        buttons = QGridLayout()
        for index, (title, slot) in enumerate((
            ("Save as...", self.save_as), ("Load", self.load_selected), ("Rename...", self.rename),
            ("Delete", self.delete), ("Set default", self.set_default),
        )):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, s=slot: s())
            buttons.addWidget(button, index // 3, index % 3)
            self.buttons[title] = button
        self.hint = QLabel()  # what a button did, or why it did nothing
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.hint)
        self._connections = Connections()
        self.bind(workspace)

    def bind(self, workspace: Workspace) -> None:
        """Shows the states of the workspace's game (at start, and after another game was opened)."""
        self.session: Session = workspace.session
        self._connections.connect(self.session.states.events.changed, self.refresh)
        self.refresh()

    def unbind(self) -> None:
        self._connections.disconnect_all()

    def refresh(self) -> None:
        self.list.clear()
        for info in self.session.states.infos():
            self._add(info, ("state", info.name))
        for slot in range(1, SLOTS + 1):
            in_slot = self.session.states.slot_info(slot)
            if in_slot is not None:
                self._add(in_slot, ("slot", slot))

    def _add(self, info: StateInfo, key: tuple) -> None:
        item = QListWidgetItem(describe(info))
        if info.thumbnail is not None:
            item.setIcon(QIcon(pixmap_of(info.thumbnail)))
        item.setData(Qt.ItemDataRole.UserRole, key)
        self.list.addItem(item)

    def selected(self) -> tuple | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None  # None: no row is current

    def _named(self, doing: str) -> str | None:
        """The selected named state; None, and the hint says why nothing happens, without one."""
        key = self.selected()
        if key and key[0] == "state":
            self.hint.clear()
            return str(key[1])
        self.hint.setText(f"Select a named state in the list to {doing}"
                          + (" (a quick slot has no name: Save as... names it)" if key else ""))
        return None

    def save_as(self) -> None:
        name, ok = QInputDialog.getText(self, "Save state", "Name:")
        if ok and name:
            self._guard(lambda: self.session.save_state(name.strip()))

    def load_selected(self) -> None:
        key = self.selected()
        if key is None:
            self.hint.setText("Select a state or a quick slot in the list to load it")
            return
        self.hint.clear()
        if key[0] == "state":
            self._guard(lambda: self.session.load_state(key[1]))
        else:
            self._guard(lambda: self.session.load_slot(key[1]))

    def rename(self) -> None:
        name = self._named("rename it")
        if name is None:
            return
        new, ok = QInputDialog.getText(self, "Rename state", "New name:", text=name)
        if ok and new and new != name:
            self._guard(lambda: self.session.states.rename(name, new.strip()))

    def delete(self) -> None:
        name = self._named("delete it")
        if name is None:
            return
        if QMessageBox.question(self, "Delete state", f"Delete the state {name!r}?") == QMessageBox.StandardButton.Yes:
            self._guard(lambda: self.session.states.delete(name))

    def set_default(self) -> None:
        name = self._named("make it the default (the state reset and training start from)")
        if name is not None and self._guard(lambda: self.session.states.set_default(name)):
            self.hint.setText(f"{name} is the default state now")

    def _guard(self, action) -> bool:
        try:
            action()
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "State", str(exc))
            return False
        return True
