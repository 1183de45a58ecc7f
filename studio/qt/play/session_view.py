"""The game picture: scaled with the core's aspect ratio, newest frame only, framed when it has the keys.

A box can be dragged on it (:meth:`GameView.drag_box`): the box is said in frame pixels, at any zoom."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.qt.images import write_rgb

KEYS_FRAME = QColor(70, 150, 240)  # the game has the keyboard
BOX_COLOR = QColor(255, 200, 0)


class GameView(QWidget):
    """The game's picture.

    Signals:
        box_dragged(object): a box dragged while :meth:`drag_box` asked for one: ``(x, y, width, height)``
            in frame pixels, or None when the drag was cancelled (Esc, or a click without a drag).
    """

    box_dragged = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._image: QImage | None = None
        self.dragging_box = False  # drag_box asked for a box
        self._drag: tuple[QPoint, QPoint] | None = None
        self.marked: tuple[int, int, int, int] | None = None  # a box drawn over the picture (frame pixels)
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

    # ---- a dragged box ----

    def drag_box(self) -> None:
        """Lets the next mouse drag on the picture draw a box (said by ``box_dragged``)."""
        self.dragging_box = True
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def mark(self, box: tuple[int, int, int, int] | None, ms: int = 3000) -> None:
        """Outlines ``box`` (frame pixels) over the picture for ``ms`` milliseconds."""
        self.marked = box
        self.update()
        if box is not None:
            QTimer.singleShot(ms, self, lambda: self.mark(None) if self.marked == box else None)

    def frame_point(self, point: QPoint) -> tuple[int, int]:
        """The frame pixel under a point of the widget (clamped to the picture)."""
        target = self.target_rect()
        if self._image is None or target.isEmpty():
            return 0, 0
        x = (point.x() - target.x()) * self._image.width() / target.width()
        y = (point.y() - target.y()) * self._image.height() / target.height()
        return (min(max(int(x), 0), self._image.width() - 1), min(max(int(y), 0), self._image.height() - 1))

    def widget_rect(self, box: tuple[int, int, int, int]) -> QRect:
        """Where a box of frame pixels is drawn on the widget."""
        target = self.target_rect()
        if self._image is None or target.isEmpty():
            return QRect()
        sx, sy = target.width() / self._image.width(), target.height() / self._image.height()
        x, y, width, height = box
        return QRect(target.x() + round(x * sx), target.y() + round(y * sy), round(width * sx), round(height * sy))

    def _finish_drag(self, box: tuple[int, int, int, int] | None) -> None:
        self.dragging_box = False
        self._drag = None
        self.unsetCursor()
        self.update()
        self.box_dragged.emit(box)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if self.dragging_box and event.button() == Qt.MouseButton.LeftButton:
            self._drag = (event.position().toPoint(), event.position().toPoint())
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._drag is not None:
            self._drag = (self._drag[0], event.position().toPoint())
            self.update()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._drag is None:
            super().mouseReleaseEvent(event)
            return
        (x0, y0), (x1, y1) = self.frame_point(self._drag[0]), self.frame_point(event.position().toPoint())
        box = (min(x0, x1), min(y0, y1), abs(x1 - x0) + 1, abs(y1 - y0) + 1)
        self._finish_drag(box if box[2] > 2 and box[3] > 2 else None)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if self.dragging_box and event.key() == Qt.Key.Key_Escape:
            self._finish_drag(None)
            return
        super().keyPressEvent(event)

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
        if self._drag is not None:
            painter.setPen(QPen(BOX_COLOR, 1, Qt.PenStyle.DashLine))
            painter.drawRect(QRect(self._drag[0], self._drag[1]).normalized())
        elif self.marked is not None and self._image is not None:
            painter.setPen(QPen(BOX_COLOR, 1, Qt.PenStyle.DotLine))
            painter.drawRect(self.widget_rect(self.marked))
        if self.dragging_box:
            painter.setPen(BOX_COLOR)
            top = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter
            painter.drawText(self.rect().adjusted(8, 8, -8, -8), top, "Drag a box around the number (Esc: cancel)")
        if self.keys_to_game:
            painter.setPen(QPen(KEYS_FRAME, 2))
            painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        else:
            band = QRect(0, self.height() - 24, self.width(), 24)
            painter.fillRect(band, QColor(0, 0, 0, 170))
            painter.setPen(QColor(230, 230, 230))
            painter.drawText(band, Qt.AlignmentFlag.AlignCenter, "Typing in a field: Esc or click here to play")
        painter.end()
