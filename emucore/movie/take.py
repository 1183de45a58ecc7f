"""``Take``: the frames of a ``.bk2`` being recorded, and how they reach the disk.

A take is written atomically (:func:`~emucore.movie.bk2.write_bk2`) when its :class:`Movie` is
closed, and otherwise by a ``weakref.finalize`` of the movie: when the movie is garbage
collected and at interpreter exit (a normal end or an uncaught exception), as stable-retro's
C++ movie writes itself from its destructor. With checkpoints on, the take is also written
every ``interval`` seconds while frames are recorded, so a killed process leaves a valid movie
that lacks only the frames of its last seconds. A checkpoint renders and compresses only the
frame lines added since the previous one (:mod:`emucore.movie.zipbuild`; the start state is
compressed once), and the interval stretches so that checkpoints take at most about
1/``COST_RATIO`` of the recording's time, however long the movie grows.
"""

from __future__ import annotations

import os
import time
import warnings
from array import array
from pathlib import Path

from emucore.errors import MovieError
from emucore.fileio import atomic_write_bytes
from emucore.movie.bk2 import CORE, HEADER, INPUT_LOG
from emucore.movie.columns import columns_for
from emucore.movie.header import render_header, write_platform
from emucore.movie.input_log import InputLogWriter
from emucore.movie.zipbuild import Deflated, GrowingEntry, deflate, zip_archive
from emucore.systems import System

#: Frames recorded between two looks at the clock (a look is cheap, but not free per frame).
CHECK_FRAMES = 64
#: A checkpoint that took t seconds is followed by at least COST_RATIO * t seconds of recording.
COST_RATIO = 50


class Take:
    """The recorded lines of one movie (one ``array('H')`` of masks per player) and what goes with them."""

    def __init__(self, path: Path, players: int):
        self.path = path
        self.players = players
        self.game = "?"
        self.system: System | None = None
        self.state = b""
        self.fallback_state = b""
        self.lines: list[array] = [array("H") for _ in range(players)]
        self.pid = os.getpid()  # a forked child inherits the take, but must not write it
        self.written = False
        self.checkpoints = 0
        self.checkpoint_seconds = 0.0
        #: The frame count at which :meth:`tick` is due (never while checkpoints are off).
        self.next_check: float = float("inf")
        self._interval = 0.0
        self._due = 0.0
        self._warned = False
        self._writer: InputLogWriter | None = None
        self._writer_system: System | None = None
        self._log = GrowingEntry(INPUT_LOG)
        self._rendered = 0
        self._core: tuple[bytes, Deflated | None] | None = None

    @property
    def frames(self) -> int:
        return len(self.lines[0])

    def enable_checkpoints(self, interval: float) -> None:
        if not interval > 0:
            raise ValueError(f"the checkpoint interval must be positive, not {interval!r}")
        self._interval = float(interval)
        self._due = time.monotonic() + self._interval
        self.next_check = self.frames + CHECK_FRAMES

    def tick(self) -> None:
        """Writes a checkpoint when one is due (called by the movie every ``CHECK_FRAMES`` frames)."""
        self.next_check = self.frames + CHECK_FRAMES
        start = time.monotonic()
        if start < self._due:
            return
        try:
            self.write()
        except MovieError as exc:  # recording goes on; close() reports a lasting problem
            if not self._warned:
                self._warned = True
                warnings.warn(f"checkpoint not written: {exc}", stacklevel=3)
        cost = time.monotonic() - start
        self.checkpoints += 1
        self.checkpoint_seconds += cost
        self._due = time.monotonic() + max(self._interval, cost * COST_RATIO)

    def input_log(self) -> Deflated:
        """``Input Log.txt`` of the lines so far, rendering only the lines added since the last call."""
        if self._writer is None or self._writer_system is not self.system:
            self._writer = InputLogWriter(columns_for(self.system), self.players)
            self._writer_system = self.system
            self._log = GrowingEntry(INPUT_LOG)
            self._log.append(("[Input]\n" + self._writer.key_line()).encode())
            self._rendered = 0
        end = self.frames
        if end > self._rendered:
            line = self._writer.frame_line
            frames = zip(*(masks[self._rendered : end] for masks in self.lines))
            self._log.append("".join(line(row) for row in frames).encode())
            self._rendered = end
        return self._log.entry(b"[/Input]")

    def _core_entry(self) -> Deflated | None:
        state = self.state or self.fallback_state
        if self._core is None or self._core[0] is not state:
            self._core = (state, deflate(CORE, state) if state else None)
        return self._core[1]

    def write(self) -> None:
        """Writes the movie as it stands, atomically (the bytes :func:`~emucore.movie.bk2.write_bk2` writes).

        Raises:
            MovieError: the file cannot be written.
        """
        platform = write_platform(self.system.name) if self.system else ""
        entries = [self.input_log(), deflate(HEADER, render_header(self.game, platform).encode())]
        core = self._core_entry()
        if core is not None:
            entries.append(core)
        try:
            atomic_write_bytes(self.path, zip_archive(entries))
        except OSError as exc:
            raise MovieError(self.path, f"cannot be written: {exc.strerror or exc}") from exc
        self.written = True

    def finish(self) -> None:
        """The final write (the movie's finalizer: close, garbage collection or interpreter exit)."""
        if os.getpid() == self.pid:
            self.write()

    def discard(self) -> None:
        """Removes the checkpoint written for this take, if any."""
        if self.written and os.getpid() == self.pid:
            self.path.unlink(missing_ok=True)
            self.written = False

    def checkpoint_stats(self) -> str:
        mean = self.checkpoint_seconds / self.checkpoints * 1e3 if self.checkpoints else 0.0
        return f"{self.checkpoints} written, {mean:.2f} ms each, {self.frames} frames"
