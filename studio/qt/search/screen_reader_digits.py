""""Which digit is this?": one shape the screen reader has not learned, zoomed, with a button per digit."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from studio.qt.images import write_rgb

ZOOM_HEIGHT = 96  # the cell is shown this many pixels high (whole multiples: nearest-neighbour)
NOT_A_DIGIT = ""


def zoomed(pixels: np.ndarray, height: int = ZOOM_HEIGHT) -> QPixmap:
    """The cell's pixels as a pixmap ``height`` high (a whole multiple), each pixel a square."""
    rows, columns = pixels.shape[:2]
    image = QImage(columns, rows, QImage.Format.Format_RGB888)
    write_rgb(image, np.ascontiguousarray(pixels, dtype=np.uint8))
    scale = max(1, height // max(rows, 1))
    return QPixmap.fromImage(image).scaled(columns * scale, rows * scale, Qt.AspectRatioMode.IgnoreAspectRatio,
                                           Qt.TransformationMode.FastTransformation)


def outlined(context: np.ndarray, cell: tuple[int, int, int, int] | None, height: int = ZOOM_HEIGHT // 2) -> QPixmap:
    """``context`` zoomed, with the cell asked about outlined."""
    pixmap = zoomed(context, height)
    if cell is not None:
        scale = pixmap.height() // max(context.shape[0], 1)
        painter = QPainter(pixmap)
        painter.setPen(QPen(QColor(255, 60, 60), 2))
        x, y, width, tall = (v * scale for v in cell)
        painter.drawRect(x, y, width - 1, tall - 1)
        painter.end()
    return pixmap


class DigitDialog(QDialog):
    """Asks which digit a cell draws. ``answer`` after it closes: the digit (``"0"``-``"9"``),
    :data:`NOT_A_DIGIT` (a sprite over the number, a transition), or None (stop asking).

    Args:
        pixels: The cell (``(height, pitch, 3)``).
        context: The frame's pixels around it (the whole number), shown smaller; or None.
        cell: Where the cell is in ``context``: ``(x, y, width, height)`` pixels, outlined.
        said: A line above the picture ("shape 2 of 5, drawn on 238 frames").
    """

    def __init__(self, pixels: np.ndarray, context: np.ndarray | None = None, said: str = "",
                 parent: QWidget | None = None, cell: tuple[int, int, int, int] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Which digit is this?")
        self.answer: str | None = None
        self.picture = QLabel()
        self.picture.setPixmap(zoomed(pixels))
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setToolTip("The shape, zoomed: one square per pixel of the game")
        layout = QVBoxLayout(self)
        title = QLabel(said or "Which digit does the screen draw here?")
        title.setWordWrap(True)
        layout.addWidget(title)
        pictures = QHBoxLayout()
        pictures.addWidget(self.picture, 1)
        if context is not None:
            whole = QLabel()
            whole.setPixmap(outlined(context, cell))
            whole.setToolTip("The whole number on that frame")
            pictures.addWidget(whole, 1, Qt.AlignmentFlag.AlignCenter)
        layout.addLayout(pictures)
        grid = QGridLayout()
        self.digits: dict[str, QPushButton] = {}
        for index, digit in enumerate("1234567890"):  # as on a keyboard's top row, in two rows
            made = QPushButton(digit)
            made.setMinimumWidth(made.fontMetrics().horizontalAdvance("00") + 16)
            made.clicked.connect(lambda _=False, d=digit: self._answer(d))
            grid.addWidget(made, index // 5, index % 5)
            self.digits[digit] = made
        layout.addLayout(grid)
        buttons = QHBoxLayout()
        self.not_digit = QPushButton("Not a digit")
        self.not_digit.setToolTip("A sprite over the number, a transition: the reader leaves it unread")
        self.not_digit.clicked.connect(lambda: self._answer(NOT_A_DIGIT))
        self.stop = QPushButton("Stop asking")
        self.stop.clicked.connect(self.reject)
        buttons.addWidget(self.not_digit)
        buttons.addStretch(1)
        buttons.addWidget(self.stop)
        layout.addLayout(buttons)

    def _answer(self, digit: str) -> None:
        self.answer = digit
        self.accept()

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's name): typing the digit answers
        text = event.text()
        if len(text) == 1 and text.isdigit():
            self._answer(text)
            return
        super().keyPressEvent(event)


__all__ = ["NOT_A_DIGIT", "DigitDialog", "zoomed"]
