"""The play before a game-over mark, kept as an episode for Suggest. No Qt.

When the integrator marks a game over, the rewind history holds the play that led to it (the
last ``rewind_seconds``, every other frame), deaths with lives left included. Each of those
moments is an alive example, the mark the game over: a rule that fires at an earlier death is
then never offered. The memory of each moment (not the whole state: 2 KiB a frame on the NES,
64 KiB on the Genesis) is kept beside the mark in ``play-<frame>.npz``, so the evidence
survives a restart.
"""

from __future__ import annotations

import io
import zipfile
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from emucore.fileio import atomic_write_bytes, open_regular
from emucore.search import Snapshot
from emucore.search.snapshot import layout_of
from emucore.search.state_snapshots import snapshots_of

MAX_FRAMES = 3600  # at most this many moments of play kept per mark (2 minutes, every other frame)


def capture(emulator: Any, states: Iterable[tuple[int, bytes]], over: bytes, over_frame: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """The memory of each ``(frame, state)`` before ``over_frame``, then of ``over`` itself:
    ``(frames, rows)``, rows as :class:`~emucore.search.Snapshot` buffers. The emulator's state
    is put back. States are read one at a time (a Genesis state is 1 MiB, its memory 64 KiB)."""
    frames: list[int] = []

    def in_order() -> Iterator[bytes]:
        for frame, state in states:
            if frame < over_frame:
                frames.append(frame)
                yield state
        frames.append(over_frame)
        yield over

    rows = deque((snap.buf for snap in snapshots_of(emulator, in_order(), "play frame")), maxlen=MAX_FRAMES)
    return np.asarray(frames[-len(rows):], dtype=np.int64), np.stack(rows)


def save(path: Path, frames: np.ndarray, rows: np.ndarray, states: Sequence[tuple[int, bytes]] = ()) -> None:
    """Writes the play atomically (compressed: memory changes little from one frame to the next),
    with a few whole ``(frame, state)`` of its end (:func:`load_states`)."""
    out = io.BytesIO()
    kept = [s for s in states if len(s[1]) == len(states[0][1])] if states else []
    state_rows = np.stack([np.frombuffer(s, dtype=np.uint8) for _, s in kept]) if kept else np.zeros((0, 0), np.uint8)
    np.savez_compressed(out, frames=frames, rows=rows, state_frames=np.array([f for f, _ in kept], dtype=np.int64),
                        states=state_rows)
    atomic_write_bytes(path, out.getvalue())


def load_states(path: Path) -> list[tuple[int, bytes]]:
    """The whole states kept with the play, ``(frame, state)`` in time order (none in a play
    kept before they were, or in one that cannot be read)."""
    try:
        with open_regular(path) as f, np.load(f, allow_pickle=False) as kept:
            frames, states = kept["state_frames"], kept["states"]
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile, NotImplementedError):
        return []
    if states.ndim != 2 or len(frames) != len(states):
        return []
    return [(int(f), bytes(row)) for f, row in zip(frames, states)]


def load(path: Path, emulator: Any) -> list[Snapshot]:
    """The play as snapshots of ``emulator``'s memory layout, in time order, the game over last.

    Raises:
        ValueError: the file is not a kept play, or not of this game's memory.
    """
    try:
        with open_regular(path) as f, np.load(f, allow_pickle=False) as kept:
            frames, rows = kept["frames"], kept["rows"]
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile, NotImplementedError) as exc:
        raise ValueError(f"{path.name}: not a kept play ({exc})") from exc
    layout = layout_of(emulator.memory)
    if rows.ndim != 2 or rows.dtype != np.uint8 or len(frames) != len(rows) or len(rows) < 2:
        raise ValueError(f"{path.name}: not a kept play (shape {rows.shape}, {len(frames)} frames)")
    if rows.shape[1] != layout.length:
        raise ValueError(f"{path.name}: kept for another memory layout ({rows.shape[1]} bytes a frame, "
                         f"this game has {layout.length})")
    return [Snapshot(layout, row, int(frame), "play") for frame, row in zip(frames, rows)]


__all__ = ["MAX_FRAMES", "capture", "load", "load_states", "save"]
