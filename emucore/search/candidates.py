"""Candidate sets (which addresses are still possible, per type) and the read-only view of them.

A :class:`CandidateSet` is immutable, so undo and redo just keep references. Per type it holds
``None`` (every valid position: the start of an unknown-value search), a boolean mask over the
positions (while many remain) or the sorted positions themselves (once few remain).
:class:`Candidates` lists them address by address (then in type order) without making a Python
object per row: a table asks for a slice of rows and gets numpy arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, overload

import numpy as np

from emucore.search.snapshot import Layout, Snapshot
from emucore.search.typelist import SearchType

SPARSE_BELOW = 8  # a type's candidates are kept as positions (8 bytes each) once fewer than 1/8 remain
Part = np.ndarray | None


class CandidateSet:
    """The candidates of a search: one part per type (see the module docstring)."""

    def __init__(self, layout: Layout, parts: Sequence[Part]):
        self.layout = layout
        self.parts: tuple[Part, ...] = tuple(parts)
        for part in self.parts:
            if part is not None:
                part.flags.writeable = False
        self._counts: np.ndarray | None = None
        self._order: tuple[np.ndarray, np.ndarray] | None = None
        self._index: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def everything(cls, layout: Layout, types: int) -> CandidateSet:
        """Every valid position for each of ``types`` types."""
        return cls(layout, [None] * types)

    @staticmethod
    def pack(mask: np.ndarray) -> np.ndarray:
        """A mask as stored: itself while dense, its positions once sparse."""
        count = int(np.count_nonzero(mask))
        return np.flatnonzero(mask) if count * SPARSE_BELOW < len(mask) else mask

    @property
    def counts(self) -> np.ndarray:
        """Candidates per type."""
        if self._counts is None:
            known: dict[int | None, int] = {None: len(self.layout.valid_positions)}
            counts = []
            for part in self.parts:
                key = None if part is None else id(part)
                if part is not None and key not in known:  # None is known already
                    known[key] = int(np.count_nonzero(part)) if part.dtype == bool else len(part)
                counts.append(known[key])
            self._counts = np.array(counts, dtype=np.int64)
        return self._counts

    @property
    def count(self) -> int:
        """All candidates, every type."""
        return int(self.counts.sum())

    def positions(self, t: int) -> np.ndarray:
        """The sorted positions of type ``t``."""
        part = self.parts[t]
        if part is None:
            return self.layout.valid_positions
        return np.flatnonzero(part) if part.dtype == bool else part

    def mask(self, t: int) -> np.ndarray:
        """Type ``t``'s candidates as a mask over the positions."""
        part = self.parts[t]
        if part is None:
            return self.layout.valid
        if part.dtype == bool:
            return part
        mask = np.zeros(self.layout.positions, dtype=bool)
        mask[part] = True
        return mask

    def without(self, t: int, positions: np.ndarray) -> Part:
        """Type ``t``'s part with ``positions`` removed."""
        mask = self.mask(t).copy()
        mask[positions] = False
        return self.pack(mask)

    def union(self, other: CandidateSet) -> CandidateSet:
        """The candidates of either set."""
        parts = []
        for t, (a, b) in enumerate(zip(self.parts, other.parts)):
            parts.append(None if a is None or b is None else self.pack(self.mask(t) | other.mask(t)))
        return CandidateSet(self.layout, parts)

    @property
    def is_everything(self) -> bool:
        """Whether no refinement has removed anything yet."""
        return all(p is None for p in self.parts)

    def contains(self, t: int, positions: np.ndarray) -> np.ndarray:
        """Whether each of ``positions`` is a candidate of type ``t``."""
        part = self.parts[t]
        if part is None:
            return self.layout.valid[positions]
        if part.dtype == bool:
            return part[positions]
        if not len(part):
            return np.zeros(len(positions), dtype=bool)
        at = np.minimum(np.searchsorted(part, positions), len(part) - 1)
        return part[at] == positions

    @property
    def _dense(self) -> bool:
        return self.count * 64 >= self.layout.positions * len(self.parts)

    def order(self) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, type indices)`` of every candidate, by address then type (cached; this
        lists them all, which :meth:`rows` avoids for big sets)."""
        if self._order is None:
            types = len(self.parts)
            if self._dense:  # one pass over a positions x types grid
                grid = np.empty((self.layout.positions, types), dtype=bool)
                for t in range(types):
                    grid[:, t] = self.mask(t)
                keys = np.flatnonzero(grid)
            else:
                keys = np.concatenate(
                    [self.positions(t).astype(np.int64) * types + t for t in range(types)] or [np.zeros(0, np.int64)]
                )
                keys.sort()
            tid_dtype = np.uint8 if types <= 256 else np.uint16
            self._order = ((keys // types).astype(np.int64), (keys % types).astype(tid_dtype))
        return self._order

    def _row_index(self) -> tuple[np.ndarray, np.ndarray]:
        """Candidates per position and their running total (for big sets, instead of :meth:`order`)."""
        if self._index is None:
            per: dict[int | None, tuple[Part, int]] = {}
            for part in self.parts:
                key = None if part is None else id(part)
                per[key] = (part, per.get(key, (part, 0))[1] + 1)
            counts = np.zeros(self.layout.positions, dtype=np.uint16)
            for part, times in per.values():
                if part is None:
                    counts += self.layout.valid.astype(np.uint16) * np.uint16(times)
                elif part.dtype == bool:
                    counts += part.astype(np.uint16) * np.uint16(times)
                else:
                    counts[part] += np.uint16(times)
            self._index = (counts, np.cumsum(counts, dtype=np.int64))
        return self._index

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions and type indices of rows ``start:stop``, without listing every row of a big set."""
        types = len(self.parts)
        tid_dtype = np.uint8 if types <= 256 else np.uint16
        if self._order is None and self.is_everything:
            rows = np.arange(start, stop, dtype=np.int64)
            return self.layout.valid_positions[rows // types], (rows % types).astype(tid_dtype)
        if self._order is not None or not self._dense:
            positions, tids = self.order()
            return positions[start:stop], tids[start:stop]
        counts, total = self._row_index()
        rows = np.arange(start, stop, dtype=np.int64)
        positions = np.searchsorted(total, rows, side="right")
        within = rows - (total[positions] - counts[positions])  # the k-th candidate type at that position
        member = np.stack([self.contains(t, positions) for t in range(types)])  # types x rows
        rank = np.cumsum(member, axis=0)
        tids = np.argmax(member & (rank == within + 1), axis=0)
        return positions.astype(np.int64), tids.astype(tid_dtype)

    def row_of(self, position: int, t: int) -> int:
        """The row of ``(position, type index)``, or -1 when it is not a candidate."""
        types = len(self.parts)
        if not self.contains(t, np.array([position]))[0]:
            return -1
        if self._order is None and self.is_everything:
            return int(np.searchsorted(self.layout.valid_positions, position)) * types + t
        if self._order is not None or not self._dense:
            positions, tids = self.order()
            keys = positions * types + tids
            return int(np.searchsorted(keys, position * types + t))
        counts, total = self._row_index()
        before = sum(bool(self.contains(u, np.array([position]))[0]) for u in range(t))
        return int(total[position] - counts[position]) + before

    def __len__(self) -> int:
        return self.count


class Candidate(NamedTuple):
    """One candidate: a data.json address and type, its value now and at the previous snapshot."""

    address: int
    type: str
    value: int
    previous: int


def values_of(snapshot: Snapshot, types: Sequence[SearchType], positions: np.ndarray, tids: np.ndarray) -> np.ndarray:
    """The value of each ``(position, type index)`` pair in ``snapshot``, as int64."""
    out = np.empty(len(positions), dtype=np.int64)
    if len(positions) == 0:
        return out
    for t in np.unique(tids):
        pick = tids == t
        out[pick] = snapshot.values_at(types[int(t)], positions[pick])
    return out


class Candidates(Sequence[Candidate]):
    """A read-only, list-like view of a search's candidates, by address then type.

    Rows are made on demand: ``len()`` and slices cost nothing per candidate. ``value`` is read
    from a snapshot of memory taken when a value is first needed (:meth:`refresh` takes a new
    one); ``previous`` from the snapshot the next refinement compares against.
    """

    def __init__(self, cset: CandidateSet, types: Sequence[SearchType], reference: Snapshot,
                 live: Callable[[], Snapshot] | Snapshot):
        self.set = cset
        self.search_types = tuple(types)
        self.types = tuple(st.text for st in types)
        self.reference = reference
        self._take_live = live if callable(live) else None
        self._live = None if callable(live) else live

    @property
    def live(self) -> Snapshot:
        """The snapshot ``value`` comes from."""
        if self._live is None:
            assert self._take_live is not None
            self._live = self._take_live()
        return self._live

    def refresh(self, snapshot: Snapshot | None = None) -> None:
        """Reads ``value`` from ``snapshot`` (or a new snapshot of memory) from now on."""
        self._live = snapshot if snapshot is not None else (self._take_live() if self._take_live else self._live)

    def __len__(self) -> int:
        return self.set.count

    def rows(self, start: int = 0, stop: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, type indices)`` of rows ``start:stop``."""
        start, stop, _ = slice(start, stop).indices(len(self))
        return self.set.rows(start, max(start, stop))

    def addresses(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """The addresses of rows ``start:stop`` (every row by default) as int64."""
        return self.set.layout.addresses(self.rows(start, stop)[0])

    def type_indices(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Indices into :attr:`types` of rows ``start:stop``."""
        return self.rows(start, stop)[1]

    def values(self, start: int = 0, stop: int | None = None, snapshot: Snapshot | None = None) -> np.ndarray:
        """The values of rows ``start:stop`` in ``snapshot`` (default: :attr:`live`) as int64."""
        positions, tids = self.rows(start, stop)
        return values_of(snapshot or self.live, self.search_types, positions, tids)

    def previous(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """The values of rows ``start:stop`` at the previous snapshot, as int64."""
        return self.values(start, stop, self.reference)

    def records(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Rows ``start:stop`` as a structured array (``address``, ``type``, ``value``, ``previous``)."""
        positions, tids = self.rows(start, stop)
        out = np.empty(len(positions), dtype=[("address", "i8"), ("type", "U8"), ("value", "i8"), ("previous", "i8")])
        out["address"] = self.set.layout.addresses(positions)
        out["type"] = np.array(self.types)[tids] if len(tids) else []
        out["value"] = values_of(self.live, self.search_types, positions, tids)
        out["previous"] = values_of(self.reference, self.search_types, positions, tids)
        return out

    def _make(self, records: np.ndarray) -> list[Candidate]:
        return [Candidate(int(r["address"]), str(r["type"]), int(r["value"]), int(r["previous"])) for r in records]

    @overload
    def __getitem__(self, index: int) -> Candidate: ...

    @overload
    def __getitem__(self, index: slice) -> list[Candidate]: ...

    def __getitem__(self, index: int | slice) -> Candidate | list[Candidate]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            rows = self._make(self.records(start, max(start, stop)))
            return rows[::step] if step != 1 else rows
        n = len(self)
        i = int(index) + n if int(index) < 0 else int(index)
        if not 0 <= i < n:
            raise IndexError(f"candidate {index} of {n}")
        return self._make(self.records(i, i + 1))[0]

    def __iter__(self) -> Iterator[Candidate]:
        for start in range(0, len(self), 4096):
            yield from self._make(self.records(start, start + 4096))

    def find(self, address: int, type_text: str) -> int:
        """The row of ``(address, type)``, or -1."""
        if type_text not in self.types:
            return -1
        position = int(self.set.layout.positions_of(np.array([address]))[0])
        return -1 if position < 0 else self.set.row_of(position, self.types.index(type_text))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, tuple) and len(item) >= 2:
            return self.find(int(item[0]), str(item[1])) >= 0
        return False

    def __repr__(self) -> str:
        return f"<Candidates {len(self)} over {len(self.types)} types>"
