"""About a variable: how it was found, the steps, the picture at discovery, details, and a note.

The record is the watch's :class:`studio.model.variables.provenance.ProvenanceBook`; the note is saved
there when the dialog is accepted.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.model.variables.provenance import ProvenanceBook
from studio.model.variables.watch import Watch
from studio.qt.images import qimage_from_rgb

PICTURE_WIDTH = 320


class VariableAboutDialog(QDialog):
    """Shows one variable's provenance; OK saves the edited note.

    Args:
        watch: The variables of the open game (with their provenance book).
        name: The variable.
        parent: The Qt parent.
    """

    def __init__(self, watch: Watch, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"About {name}")
        self.book: ProvenanceBook = watch.provenance
        self.name = name
        entry = self.book.get(name)
        variable = watch.variables.get(name)

        form = QFormLayout()
        if variable is not None:
            mask = "" if variable.mask is None else f", mask 0x{variable.mask:X}"
            form.addRow("Variable:", QLabel(f"0x{variable.address:X}, {variable.type}{mask}"))
        self.how = QLabel(entry.how if entry else "not recorded (added outside the studio, or before it kept track)")
        self.how.setWordWrap(True)
        form.addRow("Found by:", self.how)
        if entry is not None:
            frame = "" if entry.frame is None else f", frame {entry.frame:,}"
            form.addRow("When:", QLabel(f"{entry.found_at}{frame}"))
        self.steps = QListWidget()
        self.steps.addItems(entry.steps if entry else [])
        self.steps.setMaximumHeight(110)
        if entry is not None and entry.steps:
            form.addRow("Steps:", self.steps)
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        image = self.book.screenshot(name) if entry is not None else None
        if image is not None:
            pixmap = QPixmap.fromImage(qimage_from_rgb(image))
            if pixmap.width() < PICTURE_WIDTH:  # small consoles: twice the size, pixels kept sharp
                pixmap = pixmap.scaledToWidth(pixmap.width() * 2, Qt.TransformationMode.FastTransformation)
            else:
                pixmap = pixmap.scaledToWidth(PICTURE_WIDTH, Qt.TransformationMode.SmoothTransformation)
            self.picture.setPixmap(pixmap)
            form.addRow("On screen:", self.picture)
        details = entry.details if entry else {}
        self.details = QLabel("\n".join(f"{key}: {_text(value)}" for key, value in details.items()))
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if entry is not None and entry.details:
            form.addRow("Details:", self.details)
        self.note = QPlainTextEdit(entry.note if entry else "")
        self.note.setPlaceholderText("What you know about it: when it changes, what it counts..." if entry
                                     else "A note needs a record of how the variable was found")
        self.note.setEnabled(entry is not None)
        self.note.setMaximumHeight(80)
        form.addRow("Note:", self.note)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def accept(self) -> None:
        """Saves the note (when it changed), then closes."""
        entry = self.book.get(self.name)
        if entry is not None and self.note.toPlainText().strip() != entry.note:
            self.book.set_note(self.name, self.note.toPlainText())
        super().accept()


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)
