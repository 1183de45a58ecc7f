"""Where a number is drawn: the search behind :meth:`ScreenNumber.locate`.

A game draws a number as a row of digit cells at a fixed pitch, each digit always the same
shape (:mod:`emucore.assist.screen_glyphs` compares shapes, not colours). Given frames and the
digits each shows, a place fits when, for some pitch:

* every cell that shows a digit draws the same shape as every other cell showing that digit,
  in every example (the ``equal`` constraints, checked row by row over the whole frame at once);
* cells showing different digits differ, and no digit's cell is empty (the ``differ``
  constraints), within the rows where the equal ones hold.

Both are computed for every position of the frame at once, with sliding windows over the
edge maps, pitch by pitch; a few dozen numpy passes per pitch. The digits are placed right-
aligned when the examples have different lengths (scores grow to the left), else left-aligned
(``Score: 0`` grows to the right) is tried too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emucore.assist.screen_glyphs import same_below, same_right

#: Cell pitches tried, in order of preference: the 8-pixel tile grid first.
PITCHES = (8, *range(3, 8), *range(9, 25))
#: The heights of a row of digits tried, in pixels.
MIN_HEIGHT, MAX_HEIGHT = 3, 40

Node = tuple[int, int, str]  # (example, cell, digit or " " for a place drawn blank)


@dataclass(frozen=True)
class Placement:
    """A row of ``cells`` digit cells, ``pitch`` pixels apart, from ``(x, y)``, ``height`` rows tall."""

    x: int
    y: int
    pitch: int
    cells: int
    height: int
    align: str = "right"

    @property
    def box(self) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` in frame pixels."""
        return (self.x, self.y, self.pitch * self.cells, self.height)

    def overlaps(self, other: Placement) -> bool:
        ax, ay, aw, ah = self.box
        bx, by, bw, bh = other.box
        return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def nodes(shown: Sequence[str], align: str) -> tuple[int, list[Node]]:
    """The cells the examples constrain: ``(cells, [(example, cell, digit), ...])``."""
    cells = max(len(text) for text in shown)
    out = []
    for example, text in enumerate(shown):
        start = cells - len(text) if align == "right" else 0
        out += [(example, start + i, char) for i, char in enumerate(text)]
    return cells, out


class _Maps:
    """The edge maps of the examples, and sliding-window comparisons of their cells for one pitch."""

    def __init__(self, right: list[np.ndarray], below: list[np.ndarray], pitch: int, cells: int):
        self.right = right  # the examples' edge maps: the same for every pitch
        self.below = below
        self.pitch = pitch
        self.positions = right[0].shape[1] - cells * pitch + 1

    def _window_any(self, mismatch: np.ndarray, width: int) -> np.ndarray:
        summed = np.zeros((mismatch.shape[0], mismatch.shape[1] + 1), dtype=np.int32)
        np.cumsum(mismatch, axis=1, out=summed[:, 1:])
        return (summed[:, width:width + self.positions] - summed[:, :self.positions]) > 0

    def _cut(self, maps: list[np.ndarray], example: int, cell: int, width: int) -> np.ndarray:
        start = cell * self.pitch
        return maps[example][:, start:start + self.positions + width - 1]

    def _rows_without(self, right: np.ndarray, below: np.ndarray) -> np.ndarray:
        """``(rows, positions)``: no True in the cell's row of ``right`` and ``below`` mismatches."""
        return ~(self._window_any(right, self.pitch - 1) | self._window_any(below, self.pitch))

    def rows_equal(self, a: Node, b: Node) -> np.ndarray:
        """``(rows, positions)``: row ``y`` of cell ``a`` has the same edges as row ``y`` of cell ``b``."""
        p = self.pitch
        return self._rows_without(self._cut(self.right, a[0], a[1], p - 1) != self._cut(self.right, b[0], b[1], p - 1),
                                  self._cut(self.below, a[0], a[1], p) != self._cut(self.below, b[0], b[1], p))

    def rows_blank(self, a: Node) -> np.ndarray:
        """``(rows, positions)``: row ``y`` of cell ``a`` is one colour (as far as its edges tell)."""
        p = self.pitch
        return self._rows_without(~self._cut(self.right, a[0], a[1], p - 1), ~self._cut(self.below, a[0], a[1], p))

    def gaps(self, cells: int) -> np.ndarray:
        """``(rows, positions)``: row ``y`` of the whole row of cells is one colour in every example."""
        width = cells * self.pitch - 1
        out = np.ones((self.right[0].shape[0], self.positions), dtype=bool)
        for right in self.right:
            out &= ~self._window_any(~right[:, : self.positions + width - 1], width)
        return out


def search(frames: Sequence[np.ndarray], shown: Sequence[str], align: str,
           pitches: Sequence[int] = PITCHES) -> list[Placement]:
    """Every placement where the examples' digits are drawn: one per pitch, band of rows and run of x."""
    cells, constrained = nodes(shown, align)
    first: dict[str, Node] = {}
    for node in constrained:
        first.setdefault(node[2], node)
    digits = [d for d in first if d != " "]
    right = [same_right(f) for f in frames]
    below = [same_below(f) for f in frames]
    found: list[Placement] = []
    for pitch in pitches:
        if frames[0].shape[1] - cells * pitch + 1 <= 0:
            continue
        maps = _Maps(right, below, pitch, cells)
        fits = np.ones((frames[0].shape[0], maps.positions), dtype=bool)
        for node in constrained:
            if node is not first[node[2]]:
                fits &= maps.rows_blank(node) if node[2] == " " else maps.rows_equal(first[node[2]], node)
                if not fits.any():
                    break
        if not fits.any():
            continue
        differ = [~maps.rows_blank(first[d]) for d in digits]
        differ += [~maps.rows_equal(first[a], first[b]) for i, a in enumerate(digits) for b in digits[i + 1:]]
        found += _placements(frames, maps.gaps(cells), fits, np.stack(differ), pitch, cells, align)
    return found


def _placements(frames: Sequence[np.ndarray], gaps: np.ndarray, fits: np.ndarray, differ: np.ndarray, pitch: int,
                cells: int, align: str) -> list[Placement]:
    """The placements of one pitch: bands of rows between two gap rows (uniform across the whole
    row of cells in every example) where every equal constraint holds on every row and every
    differ constraint on some row."""
    xs, ys = np.nonzero(gaps.T)  # by x, then y
    same = xs[1:] == xs[:-1]
    top, bottom, at = ys[:-1] + 1, ys[1:], xs[:-1]
    keep = same & (bottom - top >= MIN_HEIGHT) & (bottom - top <= MAX_HEIGHT)
    top, bottom, at = top[keep], bottom[keep], at[keep]
    misfit = _row_sums(~fits)
    keep = misfit[bottom, at] == misfit[top, at]
    top, bottom, at = top[keep], bottom[keep], at[keep]
    if not len(at):
        return []
    differs = _row_sums(differ[:, :, np.unique(at)])
    column = np.searchsorted(np.unique(at), at)
    keep = (differs[:, bottom, column] > differs[:, top, column]).all(axis=0)
    spans: dict[tuple[int, int], list[int]] = {}
    for y0, y1, x in zip(top[keep].tolist(), bottom[keep].tolist(), at[keep].tolist()):
        spans.setdefault((y0, y1), []).append(x)
    out = []
    for (start, end), found in spans.items():
        group: list[int] = []
        for x in [*found, None]:
            if group and (x is None or x - group[0] >= pitch):
                # the same digits in cells shifted by less than a cell: the shift whose cell edges cut no glyph
                best = max(group, key=lambda at: (_clear_edges(frames, at, start, end, pitch, cells),
                                                  -abs(at - group[len(group) // 2])))
                out.append(Placement(best, start, pitch, cells, end - start, align))
                group = []
            if x is not None:
                group.append(x)
    return out


def _clear_edges(frames: Sequence[np.ndarray], x: int, top: int, bottom: int, pitch: int, cells: int) -> int:
    """How many cells, in all examples, have a first or last column with nothing drawn (the colour of
    the gap row above the band): cells whose edges cut through the glyphs have fewer."""
    gap = top - 1 if top > 0 else bottom
    count = 0
    for frame in frames:
        band = frame[top:bottom, x:x + pitch * cells]
        clear = (band == frame[gap, x:x + pitch * cells]).all(axis=(0, 2))  # per column
        edges = clear.reshape(cells, pitch)
        count += int(edges[:, 0].sum() + edges[:, -1].sum())
    return count


def _row_sums(flags: np.ndarray) -> np.ndarray:
    """Cumulative counts along the row axis (the second last), with a leading 0 row."""
    shape = list(flags.shape)
    shape[-2] += 1
    out = np.zeros(shape, dtype=np.int32)
    np.cumsum(flags, axis=-2, out=out[..., 1:, :])
    return out


def distinct(found: Sequence[Placement]) -> list[Placement]:
    """One placement per place on the screen: of overlapping ones, the first (preferred pitch)."""
    out: list[Placement] = []
    for placement in found:
        if not any(placement.overlaps(kept) for kept in out):
            out.append(placement)
    return out


__all__ = ["PITCHES", "Placement", "distinct", "nodes", "search"]
