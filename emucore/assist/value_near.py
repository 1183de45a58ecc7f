"""A person's evidence is approximate: a value typed from the screen may be a few frames off.

The screen can show an older value than memory holds: a score whose digits blink is typed from
the last time it was drawn, and many games draw the HUD a frame or more after their logic. A
checkpoint's typed value then matches memory a few frames before the checkpoint, not at it, and
the true variable fails that checkpoint. So, when the play around the checkpoints is given (and
can be read twice: a list of states, a movie, or an object that iterates its states anew each
time), the frames up to :data:`NEAR` before and after each checkpoint are found in it, and a
candidate that reads each typed value at its checkpoint *or at the nearest of those frames* is
kept too, with how many frames off each match was (``offsets``, negative: before). Such
candidates rank after those that read every checkpoint where it was taken, and say so in their
notes; a one-shot iterator of states is read once, for the ranking, and gives no nearby frames.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from emucore.search.decode import to_values
from emucore.search.history import segments
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

NEAR = 10  # frames either side of a checkpoint (a blink of a few frames, a HUD drawn a frame late)

Window = list[tuple[int, Snapshot]]  # (frames from the checkpoint, snapshot), nearest first


def _reiterable(history: Any) -> bool:
    try:
        return iter(history) is not history
    except TypeError:
        return True  # a movie object: replayed anew by each reader


def windows(emulator: Any, history: Any, snaps: Sequence[Snapshot], near: int = NEAR) -> list[Window] | None:
    """For each checkpoint, the frames of ``history`` up to ``near`` before and after it (the
    checkpoint found by its whole memory, as the play's verdicts find it), nearest first and,
    at one distance, the frame before first. None when there is no play or it can be read only once."""
    if history is None or near <= 0 or not _reiterable(history):
        return None
    found: list[Window] = [[] for _ in snaps]
    located: set[int] = set()
    for piece in segments(emulator, history):
        before: deque[Snapshot] = deque(maxlen=near)
        waiting: list[list[int]] = []  # [checkpoint, frames after it still to take]
        iterator = iter(piece)
        try:
            for snap in iterator:
                for wait in waiting:
                    found[wait[0]].append((near + 1 - wait[1], snap))
                    wait[1] -= 1
                waiting = [w for w in waiting if w[1] > 0]
                for index, checkpoint in enumerate(snaps):
                    if index not in located and np.array_equal(snap.buf, checkpoint.buf):
                        located.add(index)
                        found[index] = [(-k - 1, s) for k, s in enumerate(reversed(before))]
                        waiting.append([index, near])
                before.append(snap)
                if len(located) == len(snaps) and not waiting:
                    break
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()  # a replay or a state reader restores the emulator
    if not located:
        return None
    return [sorted(window, key=lambda pair: (abs(pair[0]), pair[0] > 0)) for window in found]


def near_matches(snaps: Sequence[Snapshot], near: Sequence[Window], st: SearchType, scale: int,
                 values: np.ndarray, taken: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The positions (not in ``taken``) where ``st`` x ``scale`` reads every typed value at its
    checkpoint or at the nearest frame of its window that does, with at least one off the
    checkpoint: ``(positions, stored (positions, checkpoints), offsets (positions, checkpoints))``."""
    if (values % scale).any():
        return None
    wanted = values // scale
    pivot = int(np.argmax(np.abs(values)))
    layout = snaps[0].layout
    pivot_frames = [snaps[pivot], *(snap for _, snap in near[pivot])]
    hits = np.zeros(layout.positions, dtype=bool)
    for snap in pivot_frames:  # a fresh decoder each: its full decode is not kept
        full = snap.decoder().full(*st.key)[: layout.positions]
        if st.signed:
            full = to_values(full, st.width, True)
        hits |= full == wanted[pivot]
    hits &= layout.valid
    hits[taken] = False
    positions = np.flatnonzero(hits)
    if not len(positions):
        return None
    stored = np.zeros((len(positions), len(snaps)), dtype=np.int64)
    offsets = np.zeros((len(positions), len(snaps)), dtype=np.int64)
    for i, checkpoint in enumerate(snaps):
        found = np.zeros(len(positions), dtype=bool)
        for offset, snap in [(0, checkpoint), *near[i]]:
            read = snap.decoder().gather(*st.key, positions)
            if st.signed:
                read = to_values(read, st.width, True)
            new = ~found & (read == wanted[i])
            stored[new, i], offsets[new, i] = wanted[i], offset
            found |= new
            if found.all():
                break
        keep = found & (offsets != 0).any(axis=1) if i == len(snaps) - 1 else found
        positions, stored, offsets = positions[keep], stored[keep], offsets[keep]
        if not len(positions):
            return None
    return positions, stored, offsets


def offset_notes(offsets: Sequence[int], shown: Sequence[int]) -> tuple[str, ...]:
    """The checkpoints matched off their moment, in words."""
    notes = []
    for index, (offset, value) in enumerate(zip(offsets, shown)):
        if offset:
            side = "before" if offset < 0 else "after"
            frames = f"{abs(offset)} frame{'s' * (abs(offset) != 1)}"
            notes.append(f"checkpoint {index + 1} (shown {value:,}) reads {frames} {side} it was taken: "
                         "the screen may have shown a stale value there (a blinking or "
                         "late-drawn display); matched there rather than failing it")
    return tuple(notes)


__all__ = ["NEAR", "Window", "near_matches", "offset_notes", "windows"]
