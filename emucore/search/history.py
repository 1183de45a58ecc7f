"""The play around the checkpoints, for :func:`~emucore.assist.solve_value`: a candidate that
reads the shown value at every checkpoint is also read at every frame of the play between them.

A score is steady: it changes rarely and by the amounts the game awards. A buffer the game
reuses while it redraws the HUD holds the score at some frames and something else at others, so
in play it changes far more often than the steady readings, leaves a value and comes straight
back to it, jumps far beyond what the screen showed, or changes between two checkpoints where
the screen showed the same value. :func:`verdicts` says so for each candidate, in words.

``history`` is a :class:`~emucore.movie.Movie` or ``.bk2`` path (replayed from its own start
state, else from the emulator's state now), a list of them, or a sequence of states or
snapshots in the order they were taken (every frame or every few frames).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from emucore.search.decode import DIGIT_TABLES, to_values
from emucore.search.movies import MaskReplay, is_movie, movie_masks, movie_start, open_movie
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import snapshots_of
from emucore.search.typelist import SearchType, unsigned_dtype

CHANGE_FACTOR = 2  # volatile: more than 2x the steadiest reading's changes (plus a little slack)
JUMP_FACTOR = 4  # volatile: one step more than 4x the largest the screen's values allow
ENCODINGS = {"d": "packed BCD", "n": "one digit per byte"}


def segments(emulator: Any, history: Any) -> list[Iterable[Snapshot]]:
    """The pieces of play in ``history``, each an iterable of snapshots in time order."""
    if history is None:
        return []
    if isinstance(history, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError("history is a movie or a list of states in the order they were taken, not one state")
    if not is_movie(history) and not isinstance(history, Sequence):
        stream = iter(history)  # states from a generator are read lazily, once
        first = next(stream, None)
        if first is None:
            return []
        if not is_movie(first):
            return [snapshots_of(emulator, chain([first], stream), "history frame")]
        history = [first, *stream]
    items = [history] if is_movie(history) else list(history)
    if items and all(is_movie(item) for item in items):
        out: list[Iterable[Snapshot]] = []
        for item in items:
            movie = open_movie(item)
            masks = movie_masks(movie)
            out.append(MaskReplay(emulator, masks, movie_start(movie), len(masks)))
        return out
    return [list(snapshots_of(emulator, items, "history frame"))]


@dataclass
class Played:
    """The bytes at ``columns`` (buffer positions) of every frame of play: ``rows`` ``(frames, columns)``.

    ``continues[t]`` is False where frame ``t`` starts a new piece of play (no change is counted
    across it); ``at`` maps a checkpoint index to the frame of play whose memory it equals.
    """

    columns: np.ndarray
    rows: np.ndarray
    continues: np.ndarray
    at: dict[int, int]

    @property
    def frames(self) -> int:
        return len(self.rows)


def record(pieces: list[Iterable[Snapshot]], columns: np.ndarray, checkpoints: list[Snapshot]) -> Played:
    """Reads ``columns`` of every frame of ``pieces``, and finds the frames that are checkpoints."""
    rows: list[np.ndarray] = []
    continues: list[bool] = []
    at: dict[int, int] = {}
    keys = [snap.buf[columns].tobytes() for snap in checkpoints]
    for piece in pieces:
        first = True
        for snap in _closing(piece):
            if snap.layout != checkpoints[0].layout:
                raise ValueError("a history frame has another memory layout than the checkpoints (another game?)")
            row = snap.buf[columns]
            key = row.tobytes()
            for index, (wanted, checkpoint) in enumerate(zip(keys, checkpoints)):
                if index not in at and key == wanted and np.array_equal(snap.buf, checkpoint.buf):
                    at[index] = len(rows)
            rows.append(row)
            continues.append(not first)
            first = False
    if not rows:
        return Played(columns, np.zeros((0, len(columns)), dtype=np.uint8), np.zeros(0, dtype=bool), {})
    return Played(columns, np.stack(rows), np.array(continues), at)


def _closing(piece: Iterable[Snapshot]) -> Iterator[Snapshot]:
    """Iterates ``piece``, closing it (a replay or a state reader restores the emulator) even
    when the iteration stops early."""
    iterator = iter(piece)
    try:
        yield from iterator
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()


def decode(st: SearchType, raw: np.ndarray) -> np.ndarray:
    """The values of ``raw`` ``(..., width)`` logical bytes as ``st`` reads them (int64)."""
    digits = DIGIT_TABLES[st.digits][raw].astype(np.uint64)
    weights = np.array([w % (1 << 64) for w in st.dtype.weights], dtype=np.uint64)
    value = (digits * weights).sum(axis=-1, dtype=np.uint64).astype(unsigned_dtype(st.width, st.digits))
    return to_values(value, st.width, st.signed).astype(np.int64)


@dataclass(frozen=True)
class Reading:
    """One candidate to check: its type, first buffer position, scale and bias."""

    st: SearchType
    position: int
    scale: int
    bias: int


@dataclass(frozen=True)
class Verdict:
    """What the play says of one candidate: ``steady`` False ranks it after the steady ones."""

    steady: bool
    lossy: bool
    notes: tuple[str, ...]


def _stats(reading: Reading, played: Played, index: dict[int, int]) -> dict[str, Any]:
    st = reading.st
    cols = [index[reading.position + k] for k in range(st.width)]
    raw = played.rows[:, cols]
    shown = decode(st, raw) * reading.scale + reading.bias
    step = np.diff(shown)
    step = step[played.continues[1:]] if len(step) else step
    moved = step != 0
    before, after = shown[:-2], shown[2:]
    middle = shown[1:-1]
    linked = played.continues[1:-1] & played.continues[2:] if len(shown) > 2 else np.zeros(0, dtype=bool)
    back = linked & (middle != before) & (np.abs(after - before) * 2 < np.minimum(
        np.abs(middle - before), np.abs(after - middle)))
    invalid = 0
    if st.digits in ("d", "n"):
        bad = ((raw & 0xF) > 9) | ((raw >> 4) > 9) if st.digits == "d" else raw > 9
        invalid = int(bad.any(axis=1).sum())
    return {"shown": shown, "changes": int(moved.sum()), "jump": int(np.abs(step).max()) if len(step) else 0,
            "back": int(back.sum()), "invalid": invalid}


def verdicts(readings: Sequence[Reading], played: Played, shown: Sequence[int]) -> list[Verdict]:
    """Each reading checked on the play: steady, or volatile with the reasons why."""
    index = {int(c): k for k, c in enumerate(played.columns)}
    stats = [_stats(r, played, index) for r in readings]
    if not stats:
        return []
    exact = [s for s in stats if not s["invalid"]] or stats
    calm = min(exact, key=lambda s: (s["changes"], s["back"], s["jump"]))
    least, least_back = calm["changes"], calm["back"]
    reach = max(calm["jump"], max(shown) - min(shown), max(abs(v) for v in shown), 1)
    slack = max(4, played.frames // 100)
    same_shown = _held_views(played, shown)
    out = []
    for reading, s in zip(readings, stats):
        notes, steady = [], True
        if s["changes"] > CHANGE_FACTOR * least + slack:
            steady = False
            notes.append(f"changed {s['changes']} times in {played.frames} frames of play; the steadiest reading "
                         f"changed {least} times")
        if s["back"] > CHANGE_FACTOR * least_back + 2:
            steady = False
            notes.append(f"left its value and came straight back {s['back']} times in play (a buffer the game reuses?)")
        if s["jump"] > JUMP_FACTOR * reach:
            steady = False
            notes.append(f"jumped by {s['jump']:,} in one frame of play; the screen showed {min(shown):,} to "
                         f"{max(shown):,}")
        for first, second, start, stop in same_shown:
            if (s["shown"][start : stop + 1] != shown[first]).any():
                steady = False
                notes.append(f"changed between checkpoints {first} and {second} (frames {start}-{stop} of play), "
                             f"where the screen showed {shown[first]:,} both times")
        if s["invalid"]:
            notes.append(f"not valid {ENCODINGS[reading.st.digits]} in {s['invalid']} frames of play")
        if steady and not s["invalid"]:
            notes.append(f"steady in {played.frames} frames of play: changed {s['changes']} times")
        out.append(Verdict(steady, bool(s["invalid"]), tuple(notes)))
    return out


def _held_views(played: Played, shown: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """``(checkpoint, next checkpoint, frame, frame)`` for checkpoints found in one piece of play, in
    frame order, where the screen showed the same value at both."""
    found = sorted((frame, index) for index, frame in played.at.items())
    out = []
    for (start, first), (stop, second) in zip(found, found[1:]):
        if shown[first] == shown[second] and played.continues[start + 1 : stop + 1].all():
            out.append((first, second, start, stop))
    return out


def columns_of(readings: Sequence[Reading]) -> np.ndarray:
    """The buffer positions every reading's bytes sit at."""
    if not readings:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate([np.arange(r.position, r.position + r.st.width) for r in readings]))


__all__ = ["Played", "Reading", "Verdict", "columns_of", "record", "segments", "verdicts"]
