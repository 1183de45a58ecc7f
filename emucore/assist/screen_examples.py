"""The examples :class:`~emucore.assist.screen_number.ScreenNumber` learns from, checked; the place
they agree on; and a saved reader's fields, checked.

Examples come from a person (a typed score, a frame taken on the fly), so one of three or more
may be wrong: a value typed one change late, a blinking score's off frame. When the examples
together fit nowhere, each is left out in turn; when the others then agree on one place, that
example is left out and the reader's ``notes`` say so.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from emucore.assist.screen_locate import Placement, distinct, search
from emucore.errors import EmucoreError

Examples = Sequence[tuple[Any, "str | int"]]
Box = tuple[int, int, int, int]
#: Pixels a dragged box may be too tight on each side.
SLACK = 4


class ScreenNumberError(EmucoreError, ValueError):
    """The examples do not say where the number is drawn; ``boxes`` lists the places that fit
    equally well when there are several (give an example where they show different numbers)."""

    def __init__(self, message: str, boxes: Sequence[Box] = ()):
        super().__init__(message)
        self.boxes = list(boxes)


def check_frame(frame: Any, shape: tuple[int, int] | None = None, what: str = "frame") -> np.ndarray:
    """``frame`` as an ``(height, width, 3)`` uint8 array; ValueError naming what is wrong."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        got = f"{frame.shape} {frame.dtype}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise ValueError(f"{what} must be an RGB frame (height x width x 3 uint8), not {got}")
    if shape is not None and tuple(frame.shape[:2]) != tuple(shape):
        raise ValueError(f"{what} is {frame.shape[1]}x{frame.shape[0]}; the reader reads {shape[1]}x{shape[0]} frames")
    return frame


def frame_pairs(examples: Any, second: str) -> tuple[list[np.ndarray], list[Any]]:
    """The frames of ``(frame, second)`` examples, checked (one size, RGB), and their second items
    as given (``second`` names them in errors: ``"shown"``, ``"icons shown"``)."""
    if isinstance(examples, (str, bytes)) or not isinstance(examples, Sequence):
        raise ValueError(f"examples is a list of (frame, {second}) pairs")
    frames: list[np.ndarray] = []
    seconds: list[Any] = []
    for index, pair in enumerate(examples):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"example {index} is not a (frame, {second}) pair")
        frames.append(check_frame(pair[0], frames[0].shape[:2] if frames else None, f"example {index}'s frame"))
        seconds.append(pair[1])
    return frames, seconds


def examples_of(examples: Examples, minimum: int = 2) -> tuple[list[np.ndarray], list[str]]:
    """The frames and the digits shown, checked (``ValueError`` naming the example)."""
    frames, given = frame_pairs(examples, "shown")
    shown: list[str] = []
    for index, value in enumerate(given):
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else value
        if not isinstance(text, str) or not text.strip().isdigit() or not text.strip().isascii():
            raise ValueError(f"example {index}: shown must be the digits drawn (e.g. '001200'), not {value!r}")
        shown.append(text.strip())
    if len(frames) < minimum:
        raise ValueError(f"give at least {minimum} examples, got {len(frames)}")
    if len(set("".join(shown))) < 2:
        raise ScreenNumberError(f"the examples show only the digit {shown[0][0]}: the shapes of two different "
                                "digits are needed to tell the number from the rest of the screen")
    return frames, shown


def search_places(frames: list[np.ndarray], shown: list[str], box: Box | None) -> list[Placement]:
    aligns = ["right"] if len({len(s) for s in shown}) == 1 else ["right", "left"]
    if box is None:
        return distinct([p for align in aligns for p in search(frames, shown, align)])
    x0, y0, x1, y1 = clip_box(box, frames[0].shape)
    crops = [np.ascontiguousarray(f[y0:y1, x0:x1]) for f in frames]
    found = distinct([p for align in aligns for p in search(crops, shown, align)])
    return [replace(p, x=p.x + x0, y=p.y + y0) for p in found]


def clip_box(box: Box, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x, y, width, height = box
    if width <= 0 or height <= 0:
        raise ValueError(f"box {box}: width and height must be positive")
    x0, y0 = max(0, x - SLACK), max(0, y - SLACK)
    x1, y1 = min(shape[1], x + width + SLACK), min(shape[0], y + height + SLACK)
    if x0 >= x1 or y0 >= y1:
        raise ValueError(f"box {box} is outside the {shape[1]}x{shape[0]} frame")
    return x0, y0, x1, y1


def overlap(a: Box, b: Box) -> int:
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, width) * max(0, height)


def _where(found: Sequence[Placement]) -> str:
    return "; ".join(f"x {p.x}, y {p.y} ({p.cells} cells {p.pitch} px apart)" for p in found)


def placement_of(frames: list[np.ndarray], shown: list[str], box: Box | None
                 ) -> tuple[Placement, list[str], tuple[int, int], list[int]]:
    """The one place the examples' digits are drawn, what was found on the way, the x range the
    number may grow in, and the examples used.

    Raises:
        ScreenNumberError: No place, or several (``boxes``).
    """
    limits = (0, frames[0].shape[1]) if box is None else clip_box(box, frames[0].shape)[::2]
    found = search_places(frames, shown, box)
    if box is not None and len(found) > 1:
        # the box says where: of the places found in it (and its slack), the one it covers most
        found.sort(key=lambda p: -overlap(p.box, box))
        if overlap(found[0].box, box) > overlap(found[1].box, box):
            found = found[:1]
    if len(found) == 1:
        return found[0], [], limits, list(range(len(frames)))
    if len(found) > 1:
        raise ScreenNumberError(
            f"the examples' digits are drawn alike in {len(found)} places ({_where(found)}): give an example "
            "where the number shows a different value from the others (a top score copies the score until a "
            "new game), or draw a box around it", [p.box for p in found])
    where = "in the box" if box is not None else "on the screen"
    if len(frames) >= 3:
        agreed: dict[Placement, list[int]] = {}
        for left_out in range(len(frames)):
            keep = [i for i in range(len(frames)) if i != left_out]
            if len({c for i in keep for c in shown[i]}) < 2:
                continue
            alone = search_places([frames[i] for i in keep], [shown[i] for i in keep], box)
            if len(alone) == 1:
                agreed.setdefault(alone[0], []).append(left_out)
        if len(agreed) == 1:
            (placement, left), = agreed.items()
            if len(left) == 1:
                note = (f"example {left[0]} ({shown[left[0]]}) does not draw its digits where the others do "
                        "(mistyped, or the number blinked or was hidden there): left out")
                return placement, [note], limits, [i for i in range(len(frames)) if i != left[0]]
    listed = ", ".join(f"{text} in example {i}" for i, text in enumerate(shown))
    raise ScreenNumberError(
        f"no place {where} draws the examples' digits ({listed}) in one font at one pitch: check that "
        "each frame shows the number in full (not on a blinking score's off frame) and the digits "
        "as drawn, leading zeros included")


def parsed(data: Any, version: int) -> tuple[Box, int, tuple[int, int], dict[str, list[np.ndarray]], list[str]]:
    """A saved reader's fields, checked: box, pitch, frame shape, glyph pixels, notes."""
    if not isinstance(data, dict):
        raise ScreenNumberError("a screen number reader is a JSON object")
    if data.get("version") != version:
        raise ScreenNumberError(f"screen number reader version {data.get('version')!r}: this emucore reads {version}")
    try:
        box = tuple(int(v) for v in data["box"])
        pitch = int(data["pitch"])
        shape = tuple(int(v) for v in data["frame_shape"])
        glyphs = data["glyphs"]
        notes = [str(n) for n in data.get("notes", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise ScreenNumberError(f"screen number reader: missing or bad field ({exc})") from None
    if len(box) != 4 or len(shape) != 2 or not isinstance(glyphs, dict):
        raise ScreenNumberError("screen number reader: box has 4 numbers, frame_shape 2, glyphs is an object")
    pixels: dict[str, list[np.ndarray]] = {}
    for digit, texts in glyphs.items():
        if not (isinstance(digit, str) and len(digit) == 1 and digit.isdigit()) or not isinstance(texts, list):
            raise ScreenNumberError(f"screen number reader: glyph {digit!r} is not a digit with a list of cells")
        try:
            pixels[digit] = [np.frombuffer(base64.b64decode(str(text), validate=True), dtype=np.uint8)
                             .reshape(box[3], pitch, 3).copy() for text in texts]
        except (binascii.Error, ValueError):
            raise ScreenNumberError(f"screen number reader: glyph {digit} is not {box[3]}x{pitch} RGB pixels in "
                                    "base64") from None
    return (box[0], box[1], box[2], box[3]), pitch, (shape[0], shape[1]), pixels, notes


__all__ = ["Examples", "ScreenNumberError", "check_frame", "clip_box", "examples_of", "frame_pairs", "overlap",
           "parsed", "placement_of", "search_places"]
