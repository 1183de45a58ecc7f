"""Cell editors shared by the studio's tables."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QWidget

Index = QModelIndex | QPersistentModelIndex


class ChoiceDelegate(QStyledItemDelegate):
    """Edits a cell with a combo box of choices (``choices()`` is called per edit)."""

    def __init__(self, choices: Callable[[], Iterable[str]], editable: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self.choices = choices
        self.editable = editable

    def createEditor(self, parent: QWidget, option, index: Index) -> QWidget:  # noqa: N802 (Qt's name)
        combo = QComboBox(parent)
        combo.setEditable(self.editable)
        combo.addItems(list(self.choices()))
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))

    def setModelData(self, editor: QWidget, model, index: Index) -> None:  # noqa: N802
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
