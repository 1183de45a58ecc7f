"""A digit cell's shape, whatever its colours: the edge signature :class:`ScreenNumber` compares.

A game redraws its HUD over a backdrop whose colour changes (a flash, a new level, the NES
demo's blue, green and red), and some draw the same digits in another colour for a second
player. So a cell is not compared by its colours but by its edges: for every pixel, whether it
has the colour of its right neighbour, and whether it has the colour of the one below (inside
the cell only). Two cells have the same signature when they draw the same shape in any two
colours; a uniform cell (nothing drawn) has all edges "same": :func:`is_blank`.

The comparison is exact: a core that blends neighbouring pixels would need a tolerance, which
none of the cores emucore hosts does (NES, Genesis, SNES, Atari 2600, Game Boy draw exact
palette colours).
"""

from __future__ import annotations

import numpy as np


def same_right(pixels: np.ndarray) -> np.ndarray:
    """``(h, w)`` bool: each pixel has the colour of its right neighbour (the last column: True)."""
    out = np.ones(pixels.shape[:2], dtype=bool)
    np.equal(pixels[:, 1:], pixels[:, :-1]).all(axis=2, out=out[:, :-1])
    return out


def same_below(pixels: np.ndarray) -> np.ndarray:
    """``(h, w)`` bool: each pixel has the colour of the pixel below (the last row: True)."""
    out = np.ones(pixels.shape[:2], dtype=bool)
    np.equal(pixels[1:], pixels[:-1]).all(axis=2, out=out[:-1])
    return out


def signatures(region: np.ndarray, pitch: int) -> np.ndarray:
    """The edge signature of each cell of a row of cells, as ``(cells, bytes)`` uint8.

    Args:
        region: ``(h, cells * pitch, 3)`` pixels: the cells side by side.
        pitch: Each cell's width.

    The signature of a cell holds its "same as the right neighbour" bits of its first
    ``pitch - 1`` columns and its "same as below" bits of its first ``h - 1`` rows, so what is
    drawn in the next cell or below the box does not change it.
    """
    height, width = region.shape[:2]
    cells = width // pitch
    right = same_right(region).reshape(height, cells, pitch)[:, :, : pitch - 1]
    below = same_below(region)[: height - 1].reshape(height - 1, cells, pitch)
    bits = np.concatenate([right.transpose(1, 0, 2).reshape(cells, -1),
                           below.transpose(1, 0, 2).reshape(cells, -1)], axis=1)
    return np.packbits(bits, axis=1)


def blank_signature(height: int, pitch: int) -> bytes:
    """The signature of a cell with nothing drawn (one colour)."""
    return signatures(np.zeros((height, pitch, 3), dtype=np.uint8), pitch)[0].tobytes()


def is_blank(cell: np.ndarray) -> bool:
    """Whether ``cell`` (``(h, w, 3)`` pixels) is one colour."""
    return bool((cell == cell[:1, :1]).all())


__all__ = ["blank_signature", "is_blank", "same_below", "same_right", "signatures"]
