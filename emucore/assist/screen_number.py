"""Read a number off the screen on every frame: :class:`ScreenNumber`.

A retro game draws its score in a fixed font on a fixed grid. Shown a few frames and the digits
each shows, :meth:`ScreenNumber.locate` finds where they are drawn and learns each digit's shape;
:meth:`ScreenNumber.read` then reads the number on any frame, in a few microseconds::

    reader = ScreenNumber.locate([(frame1, "001200"), (frame2, "001350"), (frame3, "002010")])
    reader.read(frame)           # "001500", or None where the number is not readable
    reader.box, reader.glyphs    # (64, 8, 48, 7), "01235"

Shapes are compared exactly, by their edges (:mod:`emucore.assist.screen_glyphs`), so a backdrop
or a digit that changes colour reads the same. A wrong read is worse than none: :meth:`read`
gives None when any cell draws a shape it has not learned (a digit no example showed, a sprite
passing over, a screen transition) or when nothing is drawn (a blinking score's off frames, a
hidden HUD). Places drawn blank on either side of the digits (a score drawn without leading
zeros) are not part of the digits read; a blank between two digits is not a number.

Cells beside the examples' digits are part of the number when every example draws a learned
digit or nothing there, so a score shown as ``1200`` is still read when it reaches ``12000``.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emucore.assist.screen_examples import Examples, ScreenNumberError, check_frame, examples_of, parsed, placement_of
from emucore.assist.screen_glyphs import blank_signature, signatures

#: A number is read in at most this many cells (the examples' digits and the places beside them).
MAX_CELLS = 10
#: Places listed per unseen shape.
SEEN = 8
#: Cells added beside the examples' digits at most: room to grow, not a box over empty screen
#: (a sprite passing through an empty cell makes the number unreadable there).
GROWTH = 2
VERSION = 1


@dataclass(frozen=True)
class Unseen:
    """A shape the reader has not learned: first drawn in cell ``cell`` of frame ``frame`` (an index
    of the frames given), and drawn ``count`` times; ``seen``: up to :data:`SEEN` ``(frame, cell)``
    where it is drawn, spread over the frames (to ask at a frame where the number held still)."""

    frame: int
    cell: int
    count: int
    seen: tuple[tuple[int, int], ...] = ()


@dataclass
class ScreenNumber:
    """A number drawn at a fixed place of the screen, and the shapes of its digits.

    Attributes:
        box: ``(x, y, width, height)`` of the row of cells, in frame pixels.
        pitch: Each cell's width (the font's advance).
        frame_shape: ``(height, width)`` of the frames it reads.
        shapes: For each digit learned, the pixels of the cells that drew it (``(height, pitch, 3)``;
            more than one where a digit was taught again, e.g. after an example's had a sprite over it).
        notes: What locating it found, in words (examples left out, cells added beside them).
    """

    box: tuple[int, int, int, int]
    pitch: int
    frame_shape: tuple[int, int]
    shapes: dict[str, list[np.ndarray]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._check_box(self.box)
        self._blank = blank_signature(self.box[3], self.pitch)
        self._table: dict[bytes, str] = {}
        self._frame_changed()
        for digit, cells in self.shapes.items():
            for pixels in cells:
                self._learn(digit, pixels)

    # ---- making one ----

    @classmethod
    def locate(cls, examples: Examples) -> ScreenNumber:
        """Finds where the examples' digits are drawn and learns their shapes.

        Args:
            examples: ``(frame, shown)`` pairs: an RGB frame (``(height, width, 3)`` uint8, as the
                env or the emulator gives it) and the digits drawn there (``"001200"``; a number
                drawn without leading zeros as the digits drawn, ``"1200"``). Two or more, together
                showing at least two different digits; three or more let one wrong example (a
                mistyped value, a blinking score's off frame) be found and left out.

        Raises:
            ScreenNumberError: No place draws the digits (naming the examples that fit nowhere), or
                several places draw them alike (``boxes``: give an example where they differ).
        """
        frames, shown = examples_of(examples)
        return cls._made(frames, shown, placement_of(frames, shown, None))

    @classmethod
    def learn(cls, examples: Examples, box: Sequence[int]) -> ScreenNumber:
        """As :meth:`locate`, with the place given: ``box`` ``(x, y, width, height)`` around the digits
        (a dragged box: a few pixels loose or tight is fine). One example is enough when it shows
        two different digits."""
        frames, shown = examples_of(examples, minimum=1)
        if isinstance(box, (str, bytes)) or len(box) != 4:
            raise ValueError(f"box is (x, y, width, height), not {box!r}")
        x, y, width, height = (int(v) for v in box)
        return cls._made(frames, shown, placement_of(frames, shown, (x, y, width, height)))

    @classmethod
    def _made(cls, frames: list[np.ndarray], shown: list[str], found: Any) -> ScreenNumber:
        placement, notes, limits, used = found
        frames, shown = [frames[i] for i in used], [shown[i] for i in used]
        reader = cls(placement.box, placement.pitch, frames[0].shape[:2], notes=list(notes))
        for frame, text in zip(frames, shown):
            cells = reader._cells(frame)
            start = placement.cells - len(text) if placement.align == "right" else 0
            for i, digit in enumerate(text):
                if digit != " ":
                    reader.teach(frame, start + i, digit, cells=cells)
        reader._widen(frames, shown, limits, placement.align)
        return reader

    def _widen(self, frames: list[np.ndarray], shown: list[str], limits: tuple[int, int], align: str) -> None:
        """Adds the cells beside the box where every example draws a learned digit or nothing, so
        a number drawn without leading zeros is read when it grows (not when an example draws a
        leading zero: the number then always fills its places)."""
        if any(len(text) > 1 and text[0] == "0" for text in shown):
            return
        x, y, width, height = self.box
        added = 0
        # a number grows away from the side it is aligned to: right-aligned (or all examples alike) to the left
        for step in ((self.pitch,) if align == "left" else (-self.pitch,)):
            while width // self.pitch < MAX_CELLS and added < GROWTH:
                at = x + step if step < 0 else x + width
                if at < limits[0] or at + self.pitch > limits[1]:
                    break
                cells = [f[y:y + height, at:at + self.pitch] for f in frames]
                if not all(self._glyph(signatures(c, self.pitch)[0].tobytes()) is not None for c in cells):
                    break
                x, width = (at, width + self.pitch) if step < 0 else (x, width + self.pitch)
                added += 1
        if added:
            self.moved((x, y, width, height))
            self.notes.append(f"{added} cell{'s' * (added > 1)} beside the examples' digits (blank or a digit "
                              "in every example) are read too: the number may grow into them")

    # ---- reading ----

    @property
    def glyphs(self) -> str:
        """The digits it has learned, in order (``"0123456789"`` when it has seen them all)."""
        return "".join(sorted(self.shapes))

    @property
    def cells(self) -> int:
        return self.box[2] // self.pitch

    def _frame_changed(self) -> None:
        """The crop read: the box and, where the frame has room, one guard cell on each side (a
        digit drawn there means the number is wider than the box: not read, rather than misread)."""
        x, y, width, height = self.box
        left = x >= self.pitch
        right = x + width + self.pitch <= self.frame_shape[1]
        self._crop = (slice(y, y + height), slice(x - self.pitch * left, x + width + self.pitch * right))
        self._inner = slice(int(left), int(left) + width // self.pitch)

    def _cells(self, frame: np.ndarray) -> np.ndarray:
        return self._guarded(frame)[self._inner]

    def _guarded(self, frame: np.ndarray) -> np.ndarray:
        return signatures(frame[self._crop], self.pitch)

    def _glyph(self, key: bytes) -> str | None:
        return " " if key == self._blank else self._table.get(key)

    def read(self, frame: np.ndarray) -> str | None:
        """The digits drawn in ``frame`` (``"001500"``), or None where the number is not readable.

        Raises:
            ValueError: ``frame`` is not an RGB frame of the size the reader learned.
        """
        check_frame(frame, self.frame_shape)
        table, blank = self._table, self._blank
        rows = self._guarded(frame)
        inner = self._inner
        text = []
        for row in rows[inner]:
            key = row.tobytes()
            char = " " if key == blank else table.get(key)
            if char is None:
                return None
            text.append(char)
        digits = "".join(text).strip()
        if not digits or " " in digits:
            return None
        if inner.start and text[0] != " " and rows[0].tobytes() in table:
            return None  # a digit just left of the box: the number is wider than the box
        if inner.stop < len(rows) and text[-1] != " " and rows[-1].tobytes() in table:
            return None
        return digits

    def value(self, frame: np.ndarray) -> int | None:
        """The number drawn in ``frame`` as an int, or None where it is not readable."""
        digits = self.read(frame)
        return None if digits is None else int(digits)

    def cells_read(self, frame: np.ndarray) -> list[str | None]:
        """What each cell of ``frame`` draws: a digit, ``" "`` (nothing), or None (a shape not learned)."""
        check_frame(frame, self.frame_shape)
        return [self._glyph(row.tobytes()) for row in self._cells(frame)]

    def unknown(self, frame: np.ndarray) -> list[int]:
        """The cells of ``frame`` that draw a shape not learned (to ask "which digit is this?")."""
        return [i for i, char in enumerate(self.cells_read(frame)) if char is None]

    def moved(self, box: tuple[int, int, int, int]) -> None:
        """Reads the cells of ``box`` from now on (the same pitch and glyphs; ScreenNumberError when
        it is not a row of whole cells inside the frame)."""
        x, y, width, height = (int(v) for v in box)
        if height != self.box[3]:
            raise ScreenNumberError(f"box {box}: the glyphs learned are {self.box[3]} rows tall")
        self._check_box((x, y, width, height))
        self.box = (x, y, width, height)
        self._frame_changed()

    def _check_box(self, box: tuple[int, int, int, int]) -> None:
        x, y, width, height = box
        if self.pitch < 2 or width % self.pitch or width <= 0 or height < 2:
            raise ScreenNumberError(f"box {box} is not a row of cells {self.pitch} pixels wide")
        if x < 0 or y < 0 or x + width > self.frame_shape[1] or y + height > self.frame_shape[0]:
            raise ScreenNumberError(f"box {box} is outside the {self.frame_shape[1]}x{self.frame_shape[0]} frame")

    def unseen(self, frames: Iterable[np.ndarray], limit: int = 20) -> list[Unseen]:
        """The shapes not learned that the frames draw in the number's cells, most frequent first:
        one :class:`Unseen` per shape (where it is first drawn), to ask "which digit is this?" once
        each. A digit no example showed is drawn on many frames; a sprite passing over, on few."""
        where: dict[bytes, list[tuple[int, int]]] = {}
        for index, frame in enumerate(frames):
            check_frame(frame, self.frame_shape)
            for cell, row in enumerate(self._cells(frame)):
                key = row.tobytes()
                if self._glyph(key) is None:
                    where.setdefault(key, []).append((index, cell))
        ranked = sorted(where.values(), key=lambda places: (-len(places), places[0]))
        out = []
        for places in ranked[:limit]:
            step = max(1, len(places) // SEEN)
            out.append(Unseen(places[0][0], places[0][1], len(places), tuple(places[::step][:SEEN])))
        return out

    def cell_pixels(self, frame: np.ndarray, cell: int) -> np.ndarray:
        """The pixels of one cell of ``frame`` (``(height, pitch, 3)``), to show it zoomed."""
        check_frame(frame, self.frame_shape)
        if not 0 <= cell < self.cells:
            raise IndexError(f"cell {cell}: the number has cells 0 to {self.cells - 1}")
        x, y, _, height = self.box
        return np.array(frame[y:y + height, x + cell * self.pitch:x + (cell + 1) * self.pitch])

    def teach(self, frame: np.ndarray, cell: int, digit: str, *, cells: np.ndarray | None = None) -> None:
        """Learns the shape ``cell`` of ``frame`` draws as ``digit``.

        Raises:
            ScreenNumberError: The cell draws nothing, or a shape already learned as another digit.
        """
        if not (isinstance(digit, str) and len(digit) == 1 and digit.isdigit()):
            raise ValueError(f"digit must be one of 0-9, not {digit!r}")
        pixels = self.cell_pixels(frame, cell)
        key = (cells[cell] if cells is not None else signatures(pixels, self.pitch)[0]).tobytes()
        known = self._glyph(key)
        if known == " ":
            raise ScreenNumberError(f"cell {cell} draws nothing: it cannot be digit {digit}")
        if known is not None and known != digit:
            raise ScreenNumberError(f"cell {cell} draws the shape learned as {known}, not {digit}")
        if known is None:
            self.shapes.setdefault(digit, []).append(pixels)
            self._learn(digit, pixels)

    def _learn(self, digit: str, pixels: np.ndarray) -> None:
        self._table[signatures(pixels, self.pitch)[0].tobytes()] = digit

    # ---- saving ----

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the box, pitch, frame size and each learned digit's cells (base64 RGB pixels)."""
        return {
            "version": VERSION,
            "box": list(self.box),
            "pitch": self.pitch,
            "frame_shape": list(self.frame_shape),
            "glyphs": {d: [base64.b64encode(np.ascontiguousarray(p, dtype=np.uint8).tobytes()).decode("ascii")
                           for p in cells] for d, cells in sorted(self.shapes.items())},
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Any) -> ScreenNumber:
        """The reader :meth:`to_dict` saved.

        Raises:
            ScreenNumberError: A field missing or of the wrong shape (naming it).
        """
        box, pitch, shape, glyphs, notes = parsed(data, VERSION)
        return cls(box, pitch, shape, glyphs, notes)


__all__ = ["MAX_CELLS", "ScreenNumber", "ScreenNumberError", "Unseen"]
