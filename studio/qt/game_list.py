"""The game list: every known integration (ours, custom paths, stable-retro's), searchable,
showing which ones have their ROM."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from emucore import data


class GameListDialog(QDialog):
    """``chosen`` holds the selected integration folder after ``exec()`` returns accepted."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Open a game")
        self.chosen: Path | None = None
        games = data.find_games(data.Integrations.ALL)
        self.model = QStandardItemModel(0, 3, self)
        self.model.setHorizontalHeaderLabels(["Game", "System", "ROM"])
        for game in games:
            row = [QStandardItem(game.name), QStandardItem(game.system or "?"),
                   QStandardItem("yes" if game.has_rom else "missing")]
            row[0].setData(str(game.folder), Qt.ItemDataRole.UserRole)
            row[0].setData(game.has_rom, Qt.ItemDataRole.UserRole + 1)
            for item in row:
                item.setEditable(False)
            self.model.appendRow(row)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterKeyColumn(-1)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search games and systems")
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 320)
        self.table.doubleClicked.connect(lambda _: self.accept())
        with_rom = sum(g.has_rom for g in games)
        self.summary = QLabel(f"{len(games)} games, {with_rom} with a ROM. Import ROMs with: emucore import PATH")
        self.message = QLabel()
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.search, self.table, self.summary, self.message, box):
            layout.addWidget(widget)
        self.resize(620, 560)

    def accept(self) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            return
        first = self.proxy.index(index.row(), 0)
        if not first.data(Qt.ItemDataRole.UserRole + 1):
            self.message.setText(f"{first.data()} has no ROM here yet: import it with 'emucore import PATH'.")
            return
        self.chosen = Path(first.data(Qt.ItemDataRole.UserRole))
        super().accept()
