"""Movie-aligned search: the values that changed as told at given frames of a replay.

For example (not run: it needs a game's states or movies)::

    s = search_movie(emulator, Movie("death.bk2"), None, {312: -1, 640: -1})
    s.candidates            # decreased by exactly 1 at frames 312 and 640, unchanged at all others

The movie is replayed headlessly from the start state, one snapshot per frame, and the
emulator's own state (and held buttons) are restored afterwards. Frames not listed are checked
without decoding: a value is unchanged over a frame exactly when none of its bytes (BCD: digits)
changed, so those frames only accumulate per-byte change masks.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore.operations import VALUE_COMPARISONS, Change, Operation, search_operation
from emucore.search.decode import DIGIT_TABLES
from emucore.search.memory_search import MemorySearch
from emucore.search.ops import ChangeMap, normalize, refine_set
from emucore.search.snapshot import Snapshot

FrameChange = int | str | tuple[str, int | None]


def _change_op(change: FrameChange) -> tuple[Operation | Change, int | None]:
    """``-1`` -> ``(decreased-by, 1)``, ``"changed"`` -> ``(changed, None)``, tuples as given
    (an op by its name, a former name included)."""
    if isinstance(change, tuple):
        name, value = change
        op = search_operation(name)
    elif isinstance(change, str):
        op, value = search_operation(change), None
    else:
        delta = int(change)
        op, value = (Change.UNCHANGED, None) if delta == 0 else (Change.INCREASED_BY, delta) if delta > 0 else (
            Change.DECREASED_BY, -delta)
    normalize(op, value)  # raises ValueError early for a bad op
    return op, value


def is_movie(item: object) -> bool:
    """A :class:`~emucore.movie.Movie`, a ``.bk2`` path or an array of button masks (not a state)."""
    return hasattr(item, "get_masks") or isinstance(item, (str, os.PathLike, np.ndarray))


def open_movie(item: Any) -> Any:
    """A ``.bk2`` path opened as a :class:`~emucore.movie.Movie`; anything else as given."""
    if isinstance(item, (str, os.PathLike)):
        from emucore.movie import Movie

        return Movie(item)
    return item


def movie_start(movie: Any) -> bytes | None:
    """The state a movie starts from, None when it has none of its own (or is an array of masks)."""
    own = movie.get_state() if hasattr(movie, "get_state") else None
    return bytes(own) if own else None


def movie_masks(movie: Any) -> np.ndarray:
    """``(frames, players)`` button masks of a :class:`~emucore.movie.Movie` or an array-like.

    A Movie's line 0 is its reset frame, which replayers run with every button released; so
    it is here (raw mask arrays are used as given).
    """
    if hasattr(movie, "get_masks"):
        masks = np.array(movie.get_masks(), dtype=np.uint16).reshape(len(movie.get_masks()), -1)
        if len(masks):
            masks[0] = 0
        return masks
    masks = np.asarray(movie, dtype=np.int64)
    return masks.reshape(len(masks), -1) if masks.ndim == 1 else masks


@dataclass(frozen=True)
class MaskReplay:
    """A replay of button masks from ``start`` (None: the emulator's state now), frames
    ``0 .. stop - 1``, yielding the memory after each; each iteration replays. The emulator's
    state and held buttons are restored when an iteration ends or is closed.
    """

    emulator: Any
    masks: np.ndarray  # (frames, players), as movie_masks gives them
    start: bytes | None
    stop: int

    def __len__(self) -> int:
        return self.stop

    def __iter__(self) -> Iterator[Snapshot]:
        return self.run()

    def final(self) -> Snapshot:
        """The memory after the last frame (only that one is copied)."""
        with closing(self.run(every=False)) as snapshots:
            return next(snapshots)

    def run(self, *, every: bool = True, with_start: bool = False) -> Generator[Snapshot, None, None]:
        """Snapshots after every frame (``every=False``: the last only), the start first if asked."""
        emulator = self.emulator
        players = self.masks.shape[1]
        saved = emulator.get_state()
        held = [emulator.get_button_mask(p) for p in range(players)]
        try:
            if self.start is not None:
                emulator.set_state(self.start)
            if with_start:
                yield self._capture("movie start")
            for frame in range(self.stop):
                for player in range(players):
                    emulator.set_button_mask(int(self.masks[frame, player]), player)
                emulator.step()
                if every or frame == self.stop - 1:
                    yield self._capture(f"movie frame {frame}")
        finally:
            emulator.set_state(saved)
            for player, mask in enumerate(held):
                emulator.set_button_mask(mask, player)

    def _capture(self, label: str) -> Snapshot:
        frame = getattr(self.emulator, "frame_count", None)
        return Snapshot.capture(self.emulator.memory, frame if isinstance(frame, int) else None, label)


def search_movie(
    emulator: Any,
    movie_or_masks: Any,
    start_state: bytes | None,
    changes: Mapping[int, FrameChange],
    types: Iterable[str] | None = None,
    *,
    others: str | None = "unchanged",
) -> MemorySearch:
    """The addresses and types that changed as ``changes`` says, frame by frame of a replay.

    Args:
        emulator: The emulator to replay on (restored afterwards).
        movie_or_masks: A :class:`~emucore.movie.Movie`, or button masks ``(frames,)`` or
            ``(frames, players)`` (bit i = button i), one row per emulated frame.
        start_state: The state to replay from; None: the movie's own start state if it has
            one, else the emulator's current state.
        changes: ``{frame index: change}``. Frame index i is the i-th row of masks; its change
            compares memory after that frame with memory before it (after row i-1, or the start
            state). A change is a delta (``-1``: decreased by exactly 1; ``0``: unchanged), an
            op of :data:`~emucore.search.ops.OPS` that takes no value (``"decreased"``), or an
            ``(op, value)`` pair (``("equal", 2)``: the value after that frame).
        types: As for :class:`MemorySearch`.
        others: ``"unchanged"``: every frame not in ``changes`` must leave the value unchanged;
            None: no condition on them.

    Returns:
        A new :class:`MemorySearch` whose current step holds the matches.
    """
    if others not in ("unchanged", None):
        raise ValueError(f"others must be 'unchanged' or None, not {others!r}")
    masks = movie_masks(movie_or_masks)
    ops = {int(frame): _change_op(change) for frame, change in changes.items()}
    bad = [f for f in ops if not 0 <= f < len(masks)]
    if bad:
        raise ValueError(f"frames {bad} are outside the movie's {len(masks)} frames")
    if start_state is None:
        start_state = movie_start(movie_or_masks)
    search = MemorySearch(emulator, types)
    kinds = {st.digits for st in search.search_types}
    replay = MaskReplay(emulator, masks, bytes(start_state) if start_state is not None else None, len(masks))
    pairs: dict[int, tuple[Snapshot, Snapshot]] = {}
    with closing(replay.run(with_start=True)) as snapshots:
        before = next(snapshots)
        moved = {kind: np.zeros(before.layout.length, dtype=bool) for kind in kinds}
        for frame, after in enumerate(snapshots):
            if frame in ops:
                pairs[frame] = (before, after)
            elif others == "unchanged":
                _accumulate(moved, before.buf, after.buf)
            before = after
    st = search.search_types
    cset = search.candidates_set
    if others == "unchanged":
        cset = refine_set(cset, st, Change.UNCHANGED, None, before, before, ChangeMap(before, before, moved))
    for frame in sorted(pairs, key=lambda f: _cost(ops[f][0])):
        op, value = ops[frame]
        first, second = pairs[frame]
        cset = refine_set(cset, st, op, value, second, None if op in VALUE_COMPARISONS and value is not None
                          else first)
    search.install(cset, f"movie: {len(ops)} changes over {len(masks)} frames")
    return search


def _cost(op: str) -> int:
    """Cheap, selective refinements first (byte-level checks before decoding)."""
    return 0 if op in (Change.CHANGED, Change.INCREASED_BY, Change.DECREASED_BY) else 1


def _accumulate(moved: dict[str, np.ndarray], before: np.ndarray, after: np.ndarray) -> None:
    where = np.flatnonzero(before != after)
    if not len(where):
        return
    for kind, mask in moved.items():
        if kind == "u":
            mask[where] = True
        else:
            table = DIGIT_TABLES[kind]
            mask[where] |= table[before[where]] != table[after[where]]


__all__ = ["MaskReplay", "is_movie", "movie_masks", "movie_start", "open_movie", "search_movie"]
