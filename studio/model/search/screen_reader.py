"""Find from screen's "Read it from the screen": the number read off every frame. No Qt.

The workspace's :class:`~emucore.assist.ScreenNumber` (kept as ``screen_values/screen.json`` in the
game's workspace, so it survives a restart) is made from what the person typed: the picture now
with the digits it shows, and the pictures of the typed checkpoints' states
(:func:`emucore.assist.screen_play.pictures`). When the number is drawn twice alike (a score and its
top-score copy in a first game) :meth:`ScreenReader.locate` raises with the places that fit, and
the person drags a box around the right one (:meth:`ScreenReader.learn`).

Then the number is read on every frame (:meth:`read_now`, and :meth:`samples` for the plots), the
shapes it has not learned are asked once each over the rewind history (:meth:`questions`,
:meth:`teach`), and :meth:`solve` ranks the variables on every change of the number the rewind
history shows. Reading the history loads and runs one frame from each of its states: about
0.35 ms a state on the NES demo, 0.2 s for the 600 states of the default 20 s rewind (the solve
with it, 0.3 s), so it runs on the caller's thread, bounded by the rewind's length.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from psygnal import Signal, SignalGroup

from emucore.assist import ScreenNumber, ScreenNumberError, ValueCandidates, solve_value
from emucore.assist.screen_file import SCREEN_FILE, save_screen
from emucore.assist.screen_play import pictures
from studio.model.events import Connections
from studio.model.search.screen_values import _Rewound
from studio.model.set_aside import OpenProblem, read_owned_json, set_aside_problem

HISTORY_SECONDS = 10.0  # the samples plotted: as long as the variables' (studio.model.variables.watch)
QUESTIONS = 12  # unseen shapes asked about at most, most frequent first

Box = tuple[int, int, int, int]


class ScreenReaderEvents(SignalGroup):
    changed = Signal()
    """A reader was made, taught or forgotten."""


@dataclass(frozen=True)
class Question:
    """A shape the reader has not learned, to ask "which digit is this?" once.

    Attributes:
        picture: A frame that draws it (of the rewind history).
        cell: Which cell of the number draws it (0: the leftmost).
        count: How many times the history draws it.
        frame: The history's frame number of ``picture``.
        state: The history's state that draws ``picture`` (running one frame from it).
        pixels: The cell's pixels (``(height, pitch, 3)``), to show zoomed.
    """

    picture: np.ndarray
    cell: int
    count: int
    frame: int
    state: bytes
    pixels: np.ndarray


class ScreenReaderError(ValueError):
    """What the person gave does not make a reader; ``boxes``: the places that fit alike (drag a box)."""

    def __init__(self, message: str, boxes: Sequence[Box] = ()):
        super().__init__(message)
        self.boxes = list(boxes)


def as_screen(picture: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``picture`` (the frame as the core rendered it) at the emulator's fixed screen size: cut or
    padded with black at the right and bottom, as :meth:`Emulator.get_screen` does."""
    if picture.shape[:2] == tuple(shape):
        return picture
    out = np.zeros((shape[0], shape[1], 3), dtype=np.uint8)
    height, width = min(shape[0], picture.shape[0]), min(shape[1], picture.shape[1])
    out[:height, :width] = picture[:height, :width]
    return out


class ScreenReader:
    """The open game's screen number reader, its samples and what it finds.

    Args:
        session: The open game (``emulator``, ``frame``, ``rewind``, ``scratch()``, ``states.workspace``).
        report: Told about a reader file that could not be read (it is set aside).
    """

    def __init__(self, session: Any, report: Callable[[OpenProblem], None] | None = None,
                 history_seconds: float = HISTORY_SECONDS):
        self.session = session
        self.path = Path(session.states.workspace) / "screen_values" / SCREEN_FILE
        self.report = report or (lambda problem: None)
        self.events = ScreenReaderEvents()
        self.reader: ScreenNumber | None = self._load()
        width, height = session.emulator.get_resolution()
        self.shape: tuple[int, int] = (int(height), int(width))
        capacity = max(1, round(history_seconds * session.emulator.get_screen_rate()))
        self._samples: deque[tuple[int, float]] = deque(maxlen=capacity)
        self._buffer = np.zeros((self.shape[0], self.shape[1], 3), dtype=np.uint8)
        self._connections = Connections()
        self._connections.connect(session.events.after_frame, self._after_frame)
        self._connections.connect(session.events.frame, self._frame_changed)

    def close(self) -> None:
        """Stops sampling (the session keeps running)."""
        self._connections.disconnect_all()

    # ---- making one ----

    def picture_now(self) -> np.ndarray:
        """The picture shown now, at the size the reader reads."""
        return as_screen(self.session.screen(), self.shape)

    def examples(self, shown: str = "", checkpoints: Iterable[Any] = ()) -> list[tuple[np.ndarray, str]]:
        """``(picture, digits)`` pairs: the picture now with ``shown`` (when given), and each checkpoint's
        (``.state``, ``.shown``, ``.frame``): the picture drawn running one frame from its state, or the
        picture now when the game has not moved since it was typed."""
        out = [(self.picture_now(), shown.strip())] if shown.strip() else []
        pending = []
        for checkpoint in checkpoints:
            if not out and checkpoint.frame == self.session.frame:
                out.append((self.picture_now(), checkpoint.shown))  # what the person saw when typing it
            else:
                pending.append(checkpoint)
        if pending:
            with self.session.scratch() as emulator:
                states = [c.state for c in pending]
                for checkpoint, (_, picture) in zip(pending, pictures(emulator, states)):
                    out.append((picture, checkpoint.shown))  # a new array at the reader's size
        return out

    def locate(self, shown: str = "", checkpoints: Iterable[Any] = ()) -> str:
        """Makes the reader from the picture now with ``shown`` and the checkpoints typed.

        Returns:
            What was found, in a sentence.

        Raises:
            ScreenReaderError: Too few examples, no place draws them, or several do alike (``boxes``).
        """
        examples = self.examples(shown, checkpoints)
        if len(examples) < 2:
            raise ScreenReaderError("type the number the screen shows at two moments or more (Add), then read it "
                                    "from the screen; or drag a box around it")
        try:
            reader = ScreenNumber.locate(examples)
        except ScreenNumberError as exc:
            boxes: list[Box] = [tuple(b) for b in exc.boxes]  # type: ignore[misc]
            if boxes:
                raise ScreenReaderError(f"{len(boxes)} places draw those digits alike (a top score copying the "
                                        "score?): drag a box around the one to read", boxes) from exc
            raise ScreenReaderError(str(exc)) from exc
        return self._take(reader, len(examples))

    def learn(self, box: Sequence[int], shown: str = "", checkpoints: Iterable[Any] = ()) -> str:
        """Makes the reader from a dragged ``box`` (frame pixels ``(x, y, width, height)``) around the
        number, with the picture now and ``shown``, and the checkpoints typed.

        Raises:
            ScreenReaderError: No example, or the box does not hold the digits typed.
        """
        examples = self.examples(shown, checkpoints)
        if not examples:
            raise ScreenReaderError("type the number the screen shows now, then drag the box around it")
        try:
            reader = ScreenNumber.learn(examples, box)
        except (ScreenNumberError, ValueError) as exc:
            raise ScreenReaderError(f"the box {tuple(box)}: {exc}") from exc
        return self._take(reader, len(examples))

    def _take(self, reader: ScreenNumber, examples: int) -> str:
        self.reader = reader
        self._samples.clear()
        self._save()
        self.events.changed.emit()
        x, y, width, height = reader.box
        said = (f"reads {reader.cells} digits at x {x}, y {y} ({width}x{height} pixels) from {examples} "
                f"example{'s' * (examples != 1)}; knows the digits {reader.glyphs}")
        return "; ".join([said, *reader.notes])

    def forget(self) -> None:
        """Drops the reader (and its file)."""
        self.reader = None
        self._samples.clear()
        self.path.unlink(missing_ok=True)
        self.events.changed.emit()

    # ---- reading ----

    def read_now(self) -> str | None:
        """The digits drawn now, None where not readable (or without a reader)."""
        if self.reader is None:
            return None
        return self.reader.read(self.picture_now())

    def _after_frame(self) -> None:
        if self.reader is None:
            return
        frame = self.session.frame
        if self._samples and frame <= self._samples[-1][0]:
            self._drop_after(frame - 1)
        self.session.emulator.get_screen(out=self._buffer)
        value = self.reader.value(self._buffer)
        self._samples.append((frame, np.nan if value is None else float(value)))

    def _frame_changed(self) -> None:
        if self._samples and self.session.frame < self._samples[-1][0]:
            self._drop_after(self.session.frame)

    def _drop_after(self, frame: int) -> None:
        while self._samples and self._samples[-1][0] > frame:
            self._samples.pop()

    def samples(self) -> tuple[np.ndarray, np.ndarray]:
        """``(frames, values)`` of the number read on the recent frames, oldest first (NaN where not
        readable: a blink, a shape not learned)."""
        if not self._samples:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        frames, values = zip(*self._samples)
        return np.array(frames, dtype=np.int64), np.array(values, dtype=float)

    def history(self) -> list[tuple[int, bytes, np.ndarray]]:
        """``(frame, state, picture)`` of each state of the rewind history, oldest first (loads and runs one
        frame from each: see the module's note on the cost)."""
        states = list(self.session.rewind.states())
        if not states:
            return []
        with self.session.scratch() as emulator:
            drawn = pictures(emulator, (state for _, state in states))
            return [(frame, state, picture) for (frame, state), (_, picture) in zip(states, drawn)]

    def questions(self, limit: int = QUESTIONS) -> list[Question]:
        """The shapes not learned that the rewind history draws in the number's cells, most frequent
        first, each at a frame where it is drawn (to ask "which digit is this?" once per shape)."""
        if self.reader is None:
            return []
        played = self.history()
        pictures_only = [picture for _, _, picture in played]
        out = []
        for unseen in self.reader.unseen(pictures_only, limit=limit):
            frame, state, picture = played[unseen.frame]
            out.append(Question(picture, unseen.cell, unseen.count, frame, bytes(state),
                                self.reader.cell_pixels(picture, unseen.cell)))
        return out

    def teach(self, question: Question, digit: str) -> None:
        """The shape ``question`` asked about is ``digit``.

        Raises:
            ScreenReaderError: No reader, or the shape draws nothing or another digit already.
        """
        if self.reader is None:
            raise ScreenReaderError("no reader: read it from the screen first")
        try:
            self.reader.teach(question.picture, question.cell, digit)
        except (ScreenNumberError, ValueError) as exc:
            raise ScreenReaderError(str(exc)) from exc
        self._save()
        self.events.changed.emit()

    # ---- finding the variable ----

    def solve(self, checkpoints: Iterable[Any] = (), limit: int = 20) -> ValueCandidates:
        """The variables that hold the number at every change of it over the rewind history (and at
        the ``checkpoints`` typed, ``.state`` and ``.shown``); ``result.screen_read.describe()`` says
        how many frames were read.

        Raises:
            ScreenReaderError: No reader, or no play in the rewind history.
        """
        if self.reader is None:
            raise ScreenReaderError("no reader: read it from the screen first")
        rewind = self.session.rewind
        if len(rewind) < 2:
            raise ScreenReaderError("no play to read yet: play a little (the rewind history is empty)")
        pairs = [(c.state, c.shown) for c in checkpoints]
        with self.session.scratch() as emulator:
            return solve_value(emulator, pairs, _Rewound(rewind), limit=limit, screen=self.reader)

    # ---- the workspace ----

    def _save(self) -> None:
        if self.reader is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            save_screen(self.reader, self.path.parent)

    def _load(self) -> ScreenNumber | None:
        consequence = "find from screen starts without a screen reader"
        data = read_owned_json(self.path, self.report, consequence)
        if data is None:
            return None
        try:
            return ScreenNumber.from_dict(data)
        except ScreenNumberError as exc:
            self.report(set_aside_problem(self.path, exc, consequence))
            return None


__all__ = ["Question", "ScreenReader", "ScreenReaderError", "as_screen"]
