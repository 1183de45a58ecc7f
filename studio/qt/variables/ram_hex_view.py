"""A painted hex + ASCII view of one memory region: only the visible rows are drawn.

The bytes, their change ages and the pokes go through a :class:`studio.model.variables.ram.Ram`; this
widget only lays out, paints and turns mouse and keys into offsets and byte values.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QRegularExpression, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFontDatabase,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QRegularExpressionValidator,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QLineEdit, QWidget

from studio.model.variables.ram import ASCII, BYTES_PER_ROW, HEX, Ram, address_digits

GROUP = 8  # an extra space after this many bytes
HEX_DIGITS = "0123456789abcdefABCDEF"
CHANGED = QColor(255, 120, 0)
FROZEN = QColor(70, 130, 255, 120)


class HexView(QAbstractScrollArea):
    """Rows of ``address  hex bytes  ascii`` for the region selected in ``ram``.

    Signals:
        cursorMoved(int): The logical offset under the cursor changed.
        pokeRequested(int, int): The user typed a byte value (offset, value).
        menuRequested(int, QPoint): Right-click on a byte (offset, global position).
    """

    cursorMoved = Signal(int)
    pokeRequested = Signal(int, int)
    menuRequested = Signal(int, QPoint)

    takes_typing = True  # hex digits and arrows edit RAM here, not play the game (studio.qt.play.input_router_keys)

    def __init__(self, ram: Ram, parent: QWidget | None = None):
        super().__init__(parent)
        self.ram = ram
        self.cursor_offset = 0
        self.fade_frames = 60.0
        self.frozen: set[int] = set()  # offsets shown as frozen
        self._nibble: int | None = None  # the high digit typed so far
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.viewport().setFont(font)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.horizontalScrollBar().valueChanged.connect(lambda _: self.viewport().update())
        self.editor = QLineEdit(self.viewport())
        self.editor.setValidator(QRegularExpressionValidator(QRegularExpression("[0-9A-Fa-f]{1,2}"), self.editor))
        self.editor.setFrame(False)
        self.editor.hide()
        self.editor.returnPressed.connect(self._commit_editor)
        self.editor.editingFinished.connect(self.editor.hide)
        self._measure()

    # ---- geometry ----

    def _measure(self) -> None:
        metrics = QFontMetricsF(self.font())
        self.cw = metrics.horizontalAdvance("0" * 64) / 64  # fractional: rows are drawn as whole strings
        self.lh = round(metrics.height()) + 2
        self.ascent = round(metrics.ascent()) + 1
        region = self.ram.region
        self.digits = address_digits(region.end) if region else 4
        self.hex_x = 4 + (self.digits + 2) * self.cw
        hex_chars = BYTES_PER_ROW * 3 - 1 + (BYTES_PER_ROW - 1) // GROUP
        self.ascii_x = self.hex_x + (hex_chars + 3) * self.cw
        self.content_width = int(self.ascii_x + BYTES_PER_ROW * self.cw + 8)

    def byte_x(self, column: int) -> float:
        return self.hex_x + (3 * column + column // GROUP) * self.cw

    @property
    def region_size(self) -> int:
        return self.ram.region.size if self.ram.region else 0

    @property
    def rows(self) -> int:
        return (self.region_size + BYTES_PER_ROW - 1) // BYTES_PER_ROW

    def visible_rows(self) -> int:
        return max(1, (self.viewport().height() - self.lh) // self.lh)

    @property
    def first_row(self) -> int:
        return self.verticalScrollBar().value()

    def region_changed(self) -> None:
        """Call after the model's region changed: re-lays out and goes to offset 0."""
        self._measure()
        self._update_scrollbars()
        self.cursor_offset = 0
        self.verticalScrollBar().setValue(0)
        self.editor.hide()
        self.viewport().update()

    def _update_scrollbars(self) -> None:
        page = self.visible_rows()
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, self.rows - page))
        bar.setPageStep(page)
        hbar = self.horizontalScrollBar()
        hbar.setRange(0, max(0, self.content_width - self.viewport().width()))
        hbar.setPageStep(self.viewport().width())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._update_scrollbars()

    def sizeHint(self):  # noqa: N802
        size = super().sizeHint()
        size.setWidth(self.content_width + self.verticalScrollBar().sizeHint().width() + 4)
        return size

    def _scrolled(self, _value: int) -> None:
        self._place_editor()
        self.viewport().update()

    # ---- cursor ----

    def set_cursor(self, offset: int, *, scroll: bool = True) -> None:
        """Moves the cursor to a logical offset of the region (clamped) and scrolls to it."""
        offset = min(max(int(offset), 0), max(self.region_size - 1, 0))
        self._nibble = None
        if scroll:
            row, first, page = offset // BYTES_PER_ROW, self.first_row, self.visible_rows()
            if row < first:
                self.verticalScrollBar().setValue(row)
            elif row >= first + page:
                self.verticalScrollBar().setValue(row - page + 1)
        if offset != self.cursor_offset:
            self.cursor_offset = offset
            self.cursorMoved.emit(offset)
        self.viewport().update()

    def go_to(self, offset: int) -> None:
        """Moves the cursor to ``offset`` and shows its row at the top of the view."""
        self.set_cursor(offset, scroll=False)
        self.verticalScrollBar().setValue(self.cursor_offset // BYTES_PER_ROW)

    def offset_at(self, pos: QPoint) -> int | None:
        """The offset of the byte at a viewport position, None outside the bytes."""
        x = pos.x() + self.horizontalScrollBar().value()
        cw = self.cw
        if pos.y() < self.lh:
            return None
        row = self.first_row + (pos.y() - self.lh) // self.lh
        column = None
        if self.hex_x - cw / 2 <= x < self.ascii_x - cw:
            for c in range(BYTES_PER_ROW):
                if x < self.byte_x(c) + 2.5 * cw:
                    column = c
                    break
        elif self.ascii_x <= x < self.ascii_x + BYTES_PER_ROW * cw:
            column = int((x - self.ascii_x) // cw)
        if column is None:
            return None
        offset = row * BYTES_PER_ROW + column
        return offset if offset < self.region_size else None

    def byte_rect(self, offset: int) -> QRect:
        """Where the hex digits of ``offset`` are drawn, in viewport coordinates."""
        row = offset // BYTES_PER_ROW - self.first_row
        x = self.byte_x(offset % BYTES_PER_ROW) - self.horizontalScrollBar().value()
        return QRect(round(x - 2), self.lh + row * self.lh, round(2 * self.cw + 4), self.lh)

    # ---- editing ----

    def start_edit(self, offset: int | None = None) -> None:
        """Opens the inline editor on a byte (double-click or Enter)."""
        if offset is not None:
            self.set_cursor(offset)
        if not self.region_size:
            return
        values, _ = self.ram.view(self.cursor_offset, 1)
        self.editor.setText(HEX[int(values[0])] if len(values) else "")
        self._place_editor()
        self.editor.show()
        self.editor.selectAll()
        self.editor.setFocus()

    def _place_editor(self) -> None:
        rect = self.byte_rect(self.cursor_offset)
        self.editor.setGeometry(rect.x(), rect.y(), round(3 * self.cw + 8), self.lh)

    def _commit_editor(self) -> None:
        text = self.editor.text()
        self.editor.hide()
        self.setFocus()
        if text:
            offset = self.cursor_offset
            self.pokeRequested.emit(offset, int(text, 16))
            self.set_cursor(offset + 1)

    # ---- input ----

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        offset = self.offset_at(event.position().toPoint())
        if offset is not None:
            self.set_cursor(offset)
        self.setFocus()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        offset = self.offset_at(event.position().toPoint())
        if offset is not None:
            self.start_edit(offset)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802
        offset = self.offset_at(self.viewport().mapFrom(self, event.pos()))
        if offset is not None:
            self.set_cursor(offset)
            self.menuRequested.emit(offset, event.globalPos())

    def event(self, event: QEvent) -> bool:
        """Hex digits typed here are bytes, not the window's one-key shortcuts ("F", "0")."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            plain = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier == Qt.KeyboardModifier.NoModifier
            if plain and event.text() and event.text() in HEX_DIGITS:
                event.accept()
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key, page = event.key(), self.visible_rows() * BYTES_PER_ROW
        moves: dict[int, int] = {  # event.key() is an int; Qt.Key is an IntEnum
            Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Up: -BYTES_PER_ROW,
            Qt.Key.Key_Down: BYTES_PER_ROW, Qt.Key.Key_PageUp: -page, Qt.Key.Key_PageDown: page,
        }
        row_start = self.cursor_offset - self.cursor_offset % BYTES_PER_ROW
        if key in moves:
            self.set_cursor(self.cursor_offset + moves[key])
        elif key == Qt.Key.Key_Home:
            ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
            self.set_cursor(0 if ctrl else row_start)
        elif key == Qt.Key.Key_End:
            ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
            self.set_cursor(self.region_size - 1 if ctrl else row_start + BYTES_PER_ROW - 1)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.start_edit()
        elif key == Qt.Key.Key_Escape:
            self._nibble = None
            self.viewport().update()
        elif event.text() and event.text() in HEX_DIGITS and self.region_size:
            digit = int(event.text(), 16)
            if self._nibble is None:
                self._nibble = digit
                self.viewport().update()
            else:
                value, self._nibble = self._nibble * 16 + digit, None
                offset = self.cursor_offset
                self.pokeRequested.emit(offset, value)
                self.set_cursor(offset + 1)
        else:
            super().keyPressEvent(event)

    def row_text(self, row: int) -> str:
        """A row as the view shows it: ``"FF0010  01 04 ...  ..."`` (for tests and copying)."""
        values, _ = self.ram.view(row * BYTES_PER_ROW, BYTES_PER_ROW)
        start = self.ram.region.start if self.ram.region else 0
        data = values.tobytes()
        return f"{start + row * BYTES_PER_ROW:0{self.digits}X}  {_grouped([HEX[b] for b in data])}  " + "".join(
            ASCII[b] for b in data
        )

    # ---- painting ----

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self.viewport())
        palette = self.palette()
        painter.fillRect(self.viewport().rect(), palette.color(QPalette.ColorRole.Base))
        painter.translate(-self.horizontalScrollBar().value(), 0)
        text, dim = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.PlaceholderText)
        lh, cw, ascent = self.lh, self.cw, self.ascent
        # the column header
        painter.setPen(dim)
        header = "  ".join(" ".join(f"{c:02X}" for c in range(g, g + GROUP)) for g in range(0, BYTES_PER_ROW, GROUP))
        painter.drawText(QPointF(self.hex_x, ascent), header)
        painter.drawText(QPointF(self.ascii_x, ascent), "0123456789ABCDEF")
        painter.drawLine(0, lh - 1, self.content_width, lh - 1)
        first_row, rows = self.first_row, min(self.visible_rows() + 1, self.rows - self.first_row)
        if rows <= 0:
            return
        first = first_row * BYTES_PER_ROW
        values, ages = self.ram.view(first, rows * BYTES_PER_ROW)
        # backgrounds: fading changes, frozen bytes, the cursor
        fade = max(self.fade_frames, 1.0)
        for i in (ages < fade).nonzero()[0]:
            color = QColor(CHANGED)
            color.setAlphaF(0.85 * (1.0 - float(ages[i]) / fade) + 0.1)
            self._fill_byte(painter, first + int(i), color)
        for offset in self.frozen:
            if first <= offset < first + len(values):
                self._fill_byte(painter, offset, FROZEN)
        # text: addresses, bytes (zeros dimmed) and ASCII, one drawText per row and colour
        start = self.ram.region.start if self.ram.region else 0
        data = values.tobytes()
        for r in range(rows):
            y = lh + r * lh + ascent
            chunk = data[r * BYTES_PER_ROW : (r + 1) * BYTES_PER_ROW]
            painter.setPen(dim)
            painter.drawText(QPointF(4, y), f"{start + first + r * BYTES_PER_ROW:0{self.digits}X}")
            painter.drawText(QPointF(self.hex_x, y), _grouped(["00" if not b else "  " for b in chunk]))
            painter.setPen(text)
            painter.drawText(QPointF(self.hex_x, y), _grouped([HEX[b] if b else "  " for b in chunk]))
            painter.drawText(QPointF(self.ascii_x, y), "".join(ASCII[b] for b in chunk))
        # the cursor, over its byte in both columns
        if first <= self.cursor_offset < first + len(values):
            value = data[self.cursor_offset - first]
            highlight = palette.color(QPalette.ColorRole.Highlight)
            self._fill_byte(painter, self.cursor_offset, highlight if self._nibble is None else highlight.darker(140))
            painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
            row, column = self.cursor_offset // BYTES_PER_ROW - first_row, self.cursor_offset % BYTES_PER_ROW
            y = lh + row * lh + ascent
            label = HEX[value] if self._nibble is None else f"{self._nibble:X}_"
            painter.drawText(QPointF(self.byte_x(column), y), label)
            painter.drawText(QPointF(self.ascii_x + column * cw, y), ASCII[value])

    def _fill_byte(self, painter: QPainter, offset: int, color: QColor) -> None:
        row = offset // BYTES_PER_ROW - self.first_row
        column = offset % BYTES_PER_ROW
        y = self.lh + row * self.lh
        painter.fillRect(QRectF(self.byte_x(column) - 2, y, 2 * self.cw + 4, self.lh), color)
        painter.fillRect(QRectF(self.ascii_x + column * self.cw, y, self.cw, self.lh), color)


def _grouped(parts: list[str]) -> str:
    return "  ".join(" ".join(parts[i : i + GROUP]) for i in range(0, len(parts), GROUP))
