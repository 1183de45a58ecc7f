"""Count icons drawn in a row: lives shown as ships or heads, read off every frame.

Many games draw the lives left as a row of the same small picture. :meth:`ScreenIcons.learn`
takes a few frames with the number of icons each shows and a box around the row (the studio's
drag), finds the icon's pitch and shape the way :class:`~emucore.assist.ScreenNumber` finds a
digit's (every icon cell draws the same shape, in every example; the cells past the count draw
nothing), and :meth:`ScreenIcons.read` then counts them on any frame::

    icons = ScreenIcons.learn([(frame1, 3), (frame2, 2), (frame3, 1)], (10, 170, 40, 12))
    icons.read(frame)    # 2, or None where the row is not readable

A row with nothing drawn reads None, not 0: on a screen that hides the HUD (a transition, a
pause) no icons are drawn either, and a count of 0 said there would be wrong. A cell that draws
anything but the icon (another sprite over it) makes the row unreadable too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from emucore.assist.screen_examples import Box, ScreenNumberError, clip_box, frame_pairs, overlap, search_places
from emucore.assist.screen_number import ScreenNumber

ICON = "1"  # the icon is learned as the reader's one "digit"
VERSION = 1


class ScreenIcons:
    """A row of icons at a fixed place of the screen; ``reader`` reads them as a number of ones."""

    def __init__(self, reader: ScreenNumber, align: str):
        self.reader = reader
        self.align = align

    @classmethod
    def learn(cls, examples: Sequence[tuple[Any, int]], box: Sequence[int]) -> ScreenIcons:
        """Finds the icon in ``box`` from ``(frame, icons shown)`` examples.

        Args:
            examples: Frames (RGB, ``(height, width, 3)`` uint8) and how many icons each shows; one
                example must show two or more (two icons give the pitch).
            box: ``(x, y, width, height)`` around the row of icons; a few pixels loose is fine.

        Raises:
            ScreenNumberError: No row of that many alike icons in the box, or several.
            ValueError: A malformed example or box.
        """
        frames, counts = _examples(examples)
        if isinstance(box, (str, bytes)) or len(box) != 4:
            raise ValueError(f"box is (x, y, width, height), not {box!r}")
        area: Box = (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
        most = max(counts)
        found = []
        for align in ("left", "right"):
            shown = [(ICON * c).ljust(most) if align == "left" else (ICON * c).rjust(most) for c in counts]
            found += [(p, align) for p in search_places(frames, shown, area)]
        found.sort(key=lambda pair: -overlap(pair[0].box, area))
        if not found:
            raise ScreenNumberError(f"no row of {most} alike icons in box {area} fits the examples (counts "
                                    f"{', '.join(map(str, counts))}): check the counts and that the box holds the row")
        placement, align = found[0]
        if len(found) > 1 and overlap(found[1][0].box, area) == overlap(placement.box, area) and (
                found[1][0].box != placement.box):
            raise ScreenNumberError(f"the icons fit the examples in {len(found)} ways in box {area}: draw the box "
                                    "around the row only", [p.box for p, _ in found])
        reader = ScreenNumber(placement.box, placement.pitch, frames[0].shape[:2])
        example = counts.index(most)
        first = 0 if align == "left" else placement.cells - most
        reader.teach(frames[example], first, ICON)
        icons = cls(reader, align)
        icons._fill(clip_box(area, frames[0].shape)[::2])
        return icons

    def _fill(self, limits: tuple[int, int]) -> None:
        """Widens the row to the box on the side more icons would be drawn (a count never shown)."""
        x, y, width, height = self.reader.box
        pitch = self.reader.pitch
        if self.align == "left":
            width += max(0, (limits[1] - (x + width)) // pitch) * pitch
        else:
            grow = max(0, (x - limits[0]) // pitch)
            x, width = x - grow * pitch, width + grow * pitch
        self.reader.moved((x, y, width, height))

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.reader.box

    def read(self, frame: np.ndarray) -> int | None:
        """How many icons ``frame`` draws in the row, or None where the row is not readable."""
        text = self.reader.read(frame)
        return None if text is None else len(text)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the reader's fields and the side the icons are aligned to)."""
        return {"version": VERSION, "align": self.align, "reader": self.reader.to_dict()}

    @classmethod
    def from_dict(cls, data: Any) -> ScreenIcons:
        """The icons :meth:`to_dict` saved (ScreenNumberError naming a bad field)."""
        if not isinstance(data, dict) or data.get("version") != VERSION or data.get("align") not in ("left", "right"):
            raise ScreenNumberError(f"screen icons: version {VERSION} with align 'left' or 'right' expected")
        return cls(ScreenNumber.from_dict(data.get("reader")), data["align"])


def _examples(examples: Sequence[tuple[Any, int]]) -> tuple[list[np.ndarray], list[int]]:
    frames, counts = frame_pairs(examples, "icons shown")
    for index, count in enumerate(counts):
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 16:
            raise ValueError(f"example {index}: icons shown must be an int from 0 to 16, not {count!r}")
    if not counts or max(counts) < 2:
        raise ScreenNumberError("give an example that shows two or more icons: two icons side by side tell "
                                "the distance between them")
    return frames, counts


__all__ = ["ScreenIcons"]
