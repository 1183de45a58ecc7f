"""The game picture: scaled with the core's aspect ratio, newest frame only, framed when it has the keys."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.qt.images import write_rgb

KEYS_FRAME = QColor(70, 150, 240)  # the game has the keyboard


class GameView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._image: QImage | None = None
        self.aspect_ratio = 4 / 3
        self.integer_scaling = True  # else: fit the window, keeping the aspect ratio
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.keys_to_game = True
        self.placeholder = ""  # drawn while there is no frame

    def set_keys_to_game(self, to_game: bool) -> None:
        """Shows whether the keyboard plays the game (a frame) or types into a field (a hint)."""
        self.keys_to_game = to_game
        self.setToolTip("" if to_game else "Keys go to the text field: press Esc or click here to play")
        self.update()

    def show_frame(self, frame: np.ndarray) -> None:
        """Shows the newest frame; the QImage is reused while the size stays the same."""
        h, w, _ = frame.shape
        if self._image is None or self._image.width() != w or self._image.height() != h:
            self._image = QImage(w, h, QImage.Format.Format_RGB888)
        write_rgb(self._image, frame)
        self.update()

    def show_placeholder(self, text: str) -> None:
        """Drops the frame and shows ``text`` in its place (a frame shown later replaces it)."""
        self._image = None
        self.placeholder = text
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(640, 480)

    def target_rect(self) -> QRect:
        """Where the picture goes, in the core's aspect: the largest integer scale that fits, else (or when
        integer scaling is off) the largest size that fits, so the picture is never cropped."""
        if self._image is None:
            return QRect()
        w, h = self._image.width(), self._image.height()
        display_w = max(1, round(h * self.aspect_ratio)) if self.aspect_ratio > 0 else w
        scale = min(self.width() // display_w, self.height() // h)
        if self.integer_scaling and scale >= 1:
            out_w, out_h = display_w * scale, h * scale
        else:
            fit = min(self.width() / display_w, self.height() / h)
            out_w, out_h = max(1, int(display_w * fit)), max(1, int(h * fit))
        return QRect((self.width() - out_w) // 2, (self.height() - out_h) // 2, out_w, out_h)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(24, 24, 28))
        if self._image is not None:
            target = self.target_rect()
            image = self._image
            if target.width() % image.width() or target.height() % image.height():
                # not a whole scale (aspect correction, or fit): nearest-neighbour would drop rows or columns of text
                painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(target, self._image)
        elif self.placeholder:
            painter.setPen(QColor(200, 200, 205))
            painter.drawText(self.rect().adjusted(16, 16, -16, -16),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.placeholder)
        if self.keys_to_game:
            painter.setPen(QPen(KEYS_FRAME, 2))
            painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        else:
            band = QRect(0, self.height() - 24, self.width(), 24)
            painter.fillRect(band, QColor(0, 0, 0, 170))
            painter.setPen(QColor(230, 230, 230))
            painter.drawText(band, Qt.AlignmentFlag.AlignCenter, "Typing in a field: Esc or click here to play")
        painter.end()
