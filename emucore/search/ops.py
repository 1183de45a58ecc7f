"""Refinement operators: narrow a candidate set by comparing two snapshots, or one with a value.

Unchanged/changed are decided per byte, with no decoding: a value of ``u``/``i`` type is
unchanged exactly when none of its bytes changed, and a BCD value when none of its digits did
(digits below the radix make the representation unique). Increased, decreased and the ``-by``
forms need a change first, so only the candidates whose bytes changed are decoded. Comparisons
with a value decode in bulk, once per distinct byte layout. Types whose candidates are the same
array and whose test is the same (``<u4``/``=u4``/``<=u4`` always; every 4-byte ``u``/``i`` type
for changed/unchanged) share one computation and one result array.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emucore.operations import OLD_NAMES, SEARCH_OPERATIONS, Change, Operation
from emucore.search.candidates import SPARSE_BELOW, CandidateSet, Part
from emucore.search.compare import BY as BY  # re-exported: a name of this module before compare.py
from emucore.search.compare import PAIR_OP, compare_pair, compare_value, normalize, outside
from emucore.search.decode import DIGIT_TABLES, BulkDecoder, DecodeScratch, decode_scratch, to_values
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

OPS = SEARCH_OPERATIONS  # the equal, not-equal, less-than, greater-than of scenarios, then the changes
# Decoding every position beats gathering a few once the gathered digits are more than about a
# quarter of the positions (per snapshot still to decode: the reference is often decoded already).
GATHER_COST = 4
MASK_ABOVE = 8  # compare whole arrays once more than 1/8 of the positions changed


class ChangeMap:
    """Which values changed between two snapshots, per digit kind and width (cached).

    Args:
        before: The earlier snapshot.
        after: The later one (same layout).
        moved: Per digit kind, a mask over the buffer of the bytes whose digit changed,
            accumulated elsewhere (a movie's frames); by default computed from the snapshots.
    """

    def __init__(self, before: Snapshot, after: Snapshot, moved: dict[str, np.ndarray] | None = None,
                 space: DecodeScratch | None = None):
        if before.layout != after.layout:
            raise ValueError("the snapshots have different memory layouts (the core remapped its memory)")
        self.before, self.after = before, after
        self.space = space
        self.positions = after.layout.positions
        self._bytes = {kind: np.flatnonzero(mask) for kind, mask in (moved or {}).items()}
        self._masks: dict[tuple[str, int], np.ndarray] = {}
        self._lists: dict[tuple[str, int], np.ndarray] = {}
        self._counts: dict[tuple, int] = {}

    def changed_bytes(self, kind: str) -> np.ndarray:
        """Sorted buffer offsets of the bytes whose ``kind`` digit changed."""
        found = self._bytes.get(kind)
        if found is None:
            if kind == "u":
                found = np.flatnonzero(self.before.buf != self.after.buf)
            elif self.space is not None and len(self.changed_bytes("u")) * 16 > len(self.after.buf):
                before = self.before.decoder(self.space).digits(kind)  # much changed: compare all digits
                found = np.flatnonzero(before != self.after.decoder(self.space).digits(kind))
            else:
                where = self.changed_bytes("u")
                table = DIGIT_TABLES[kind]
                found = where[table[self.before.buf[where]] != table[self.after.buf[where]]]
            self._bytes[kind] = found
        return found

    def sparse(self, kind: str, width: int) -> bool:
        """Whether few enough values changed to list them rather than mask them."""
        return len(self.changed_bytes(kind)) * width * 32 < self.positions

    def moved_list(self, kind: str, width: int) -> np.ndarray:
        """Sorted positions whose value (``width`` digits of ``kind``) changed."""
        found = self._lists.get((kind, width))
        if found is None:
            if self.sparse(kind, width):
                starts = (self.changed_bytes(kind)[:, None] - np.arange(width)).ravel()
                starts = np.sort(starts[(starts >= 0) & (starts < self.positions)])
                found = starts[np.concatenate(([True], starts[1:] != starts[:-1]))] if len(starts) else starts
            else:
                found = np.flatnonzero(self.moved_mask(kind, width))
            self._lists[(kind, width)] = found
        return found

    def moved_count(self, kind: str, width: int) -> int:
        """How many positions' values changed."""
        if self.sparse(kind, width):
            return len(self.moved_list(kind, width))
        key = (kind, width, "count")
        if key not in self._counts:
            self._counts[key] = int(np.count_nonzero(self.moved_mask(kind, width)))
        return self._counts[key]

    def moved_mask(self, kind: str, width: int) -> np.ndarray:
        """For every position: whether its value (``width`` digits of ``kind``) changed."""
        found = self._masks.get((kind, width))
        if found is None:
            if self.sparse(kind, width):
                found = np.zeros(self.positions, dtype=bool)
                found[self.moved_list(kind, width)] = True
            else:
                found = self._window(kind, width)[: self.positions]
            self._masks[(kind, width)] = found
        return found

    def _window(self, kind: str, width: int) -> np.ndarray:
        """Whether any of the ``width`` digits from each buffer offset changed (``len - width + 1``)."""
        found = self._masks.get((kind, -width))
        if found is None:
            if width == 1:
                found = np.zeros(len(self.after.buf), dtype=bool)
                found[self.changed_bytes(kind)] = True
            else:
                low = 1 << ((width - 1).bit_length() - 1)  # largest power of two below width
                n = len(self.after.buf) - width + 1
                found = self._window(kind, low)[:n] | self._window(kind, width - low)[low : low + n]
            self._masks[(kind, -width)] = found
        return found

    def moved_at(self, kind: str, width: int, positions: np.ndarray) -> np.ndarray:
        """Whether the value at each of ``positions`` changed."""
        if (kind, width) in self._masks or not self.sparse(kind, width):
            return self.moved_mask(kind, width)[positions]
        moved = self.moved_list(kind, width)
        if not len(moved):
            return np.zeros(len(positions), dtype=bool)
        at = np.minimum(np.searchsorted(moved, positions), len(moved) - 1)
        return moved[at] == positions


def _from_positions(positions: np.ndarray, n: int) -> np.ndarray:
    if len(positions) * SPARSE_BELOW < n:
        return positions
    mask = np.zeros(n, dtype=bool)
    mask[positions] = True
    return mask


class _Refinement:
    """One refinement of one candidate set: the decoders, change map and shared results."""

    def __init__(self, cset: CandidateSet, kind: str, operand: int | None, current: Snapshot,
                 reference: Snapshot | None, changes: ChangeMap | None, space: DecodeScratch):
        self.cset, self.kind, self.operand = cset, kind, operand
        self.n = cset.layout.positions
        self.valid = cset.layout.valid
        self.space = space
        # the reference first: it is usually the last refinement's current, still decoded
        self.reference = reference.decoder(space) if reference is not None else None
        self.current: BulkDecoder = current.decoder(space)
        if kind not in PAIR_OP and reference is not None:
            changes = changes or ChangeMap(reference, current, space=space)
        self.changes = changes

        self._gathered: dict[tuple, np.ndarray] = {}
        self._moved: dict[tuple, np.ndarray] = {}

    def values(self, decoder: BulkDecoder, st: SearchType, positions: np.ndarray | None = None) -> np.ndarray:
        if positions is None:
            return to_values(decoder.full(*st.key), st.width, st.signed)[: self.n]
        key = (decoder.slot, st.key, id(positions))
        found = self._gathered.get(key)
        if found is None:  # signed and unsigned twins share the gathered values, all orders the digits
            digits = None
            if st.width > 1 and not decoder.has_full(*st.key):
                digits_key = (decoder.slot, st.digits, st.width, id(positions))
                digits = self._gathered.get(digits_key)
                if digits is None:
                    digits = self._gathered[digits_key] = decoder.gather_digits(st.digits, st.width, positions)
            found = self._gathered[key] = decoder.gather(*st.key, positions, digits)
        return to_values(found, st.width, st.signed)

    def scratch(self) -> np.ndarray:
        return self.space.array("keep", bool, self.n)

    def pack(self, keep: np.ndarray) -> np.ndarray:
        """A scratch mask as stored: positions when few, else a copy."""
        if np.count_nonzero(keep) * SPARSE_BELOW < len(keep):
            return np.flatnonzero(keep)
        return keep.copy()

    def moved(self, part: Part, st: SearchType) -> np.ndarray:
        """The positions of ``part`` whose value changed (the same array for the same question)."""
        key = (None if part is None else id(part), st.digits, st.width)
        found = self._moved.get(key)
        if found is None:
            changes = self.changes
            assert changes is not None
            if part is not None and part.dtype != bool:
                found = part[changes.moved_at(st.digits, st.width, part)]
            elif changes.sparse(st.digits, st.width):
                moved = changes.moved_list(st.digits, st.width)
                found = moved[(self.valid if part is None else part)[moved]]
            else:
                mask = changes.moved_mask(st.digits, st.width)[: self.n]
                found = np.flatnonzero(np.logical_and(mask, self.valid if part is None else part, out=self.scratch()))
            self._moved[key] = found
        return found

    def part(self, part: Part, st: SearchType) -> Part:
        kind, operand = self.kind, self.operand
        sparse = None if part is None or part.dtype == bool else part  # positions, not a mask
        dense = sparse is None
        base = self.valid if part is None else part
        if kind in PAIR_OP:  # compare with a value
            assert operand is not None
            every = outside(kind, operand, *st.bounds)
            if every is not None:  # no need to decode
                return part if every else np.zeros(0, dtype=np.int64)
            if sparse is None:
                keep = compare_value(self.values(self.current, st), kind, operand, out=self.scratch())
                return self.pack(np.logical_and(keep, base, out=keep))
            return sparse[compare_value(self.values(self.current, st, sparse), kind, operand)]
        changes = self.changes
        assert changes is not None and self.reference is not None
        digits, width = st.digits, st.width
        if kind == Change.UNCHANGED:
            if sparse is not None:
                return sparse[~changes.moved_at(digits, width, sparse)]
            if changes.sparse(digits, width):
                keep = base.copy()
                keep[changes.moved_list(digits, width)] = False
                return CandidateSet.pack(keep)
            keep = np.logical_not(changes.moved_mask(digits, width)[: self.n], out=self.scratch())
            return self.pack(np.logical_and(keep, base, out=keep))
        # only values that changed can have changed, increased or decreased
        if dense and kind == Change.CHANGED and not changes.sparse(digits, width):
            return self.pack(np.logical_and(changes.moved_mask(digits, width)[: self.n], base, out=self.scratch()))
        if dense and kind != Change.CHANGED and changes.moved_count(digits, width) * MASK_ABOVE > self.n:
            # most values changed: compare every position rather than pick the changed ones out
            keep = compare_pair(self.values(self.current, st), self.values(self.reference, st), kind, operand,
                                out=self.scratch())
            keep &= base
            keep &= changes.moved_mask(digits, width)[: self.n]
            return self.pack(keep)
        moved = self.moved(part, st)
        if kind == Change.CHANGED:
            return _from_positions(moved, self.n) if dense else moved
        to_decode = 2 - self.reference.has_full(*st.key) - self.current.has_full(*st.key)
        if to_decode and len(moved) * width * GATHER_COST > self.n * to_decode:
            self.reference.full(*st.key)  # decode everything once: the values are then taken from there
            self.current.full(*st.key)
        keep = compare_pair(self.values(self.current, st, moved), self.values(self.reference, st, moved), kind, operand)
        return _from_positions(moved[keep], self.n) if dense else moved[keep]


def refine_set(
    cset: CandidateSet,
    types: Sequence[SearchType],
    op: str,
    value: int | None,
    current: Snapshot,
    reference: Snapshot | None = None,
    changes: ChangeMap | None = None,
    space: DecodeScratch | None = None,
) -> CandidateSet:
    """The candidates of ``cset`` that pass ``op`` (see :data:`OPS`), comparing ``current`` with
    ``value`` or with ``reference``.

    Args:
        cset: The candidates to narrow.
        types: The search's types (one per part of ``cset``).
        op: The refinement; ``value`` as for :meth:`MemorySearch.refine`.
        value: The value or amount, if the op takes one.
        current: Memory to test.
        reference: Memory to compare with (ops without a value).
        changes: Precomputed changes between ``reference`` and ``current``.
        space: Scratch arrays (default: this thread's).
    """
    kind, operand = normalize(op, value)
    if kind not in PAIR_OP and reference is None:
        raise ValueError(f"{op} needs a snapshot to compare with")
    if current.layout != cset.layout or (reference is not None and reference.layout != cset.layout):
        raise ValueError("the snapshot's memory layout is not the search's (the core remapped its memory)")
    work = _Refinement(cset, kind, operand, current, reference, changes, space or decode_scratch())
    shared: dict[tuple, Part] = {}
    parts = []
    for st, part in zip(types, cset.parts):
        if kind in (Change.CHANGED, Change.UNCHANGED):
            test: tuple = (st.digits, st.width)
        elif kind in (Operation.EQUAL, Operation.NOT_EQUAL) and 0 <= operand < 1 << (8 * st.width - 1):  # type: ignore[operator]
            test = (st.key,)  # the same bytes whether signed or not
        else:
            test = (st.key, st.signed)
        group = (None if part is None else id(part), test)
        if group not in shared:
            shared[group] = work.part(part, st)
        parts.append(shared[group])
    return CandidateSet(cset.layout, parts)


def decode_all(snapshot: Snapshot, types: Sequence[SearchType], space: DecodeScratch | None = None) -> None:
    """Decodes every type at every position of ``snapshot`` into the decode scratch now, so the first
    comparison with it (from every candidate, when much changed) only decodes the newer snapshot."""
    decoder = snapshot.decoder(space or decode_scratch())
    for st in types:
        decoder.full(*st.key)


def describe(op: str, value: int | None, against: str = "") -> str:
    """A short label for a refinement: ``"increased-by 1"``, ``"equal 3"``, ``"less-than (first)"``
    (a former name is written as the name now)."""
    op = OLD_NAMES.get(op, op)
    text = op if value is None else f"{op} {value}"
    return f"{text} ({against})" if against and value is None else text


def renamed_label(label: str) -> str:
    """A step label :func:`describe` wrote before an op was renamed (``"less 3"``), as it writes
    it now (``"less-than 3"``); other labels as they are."""
    op, space, rest = label.partition(" ")
    return f"{OLD_NAMES[op]}{space}{rest}" if op in OLD_NAMES else label
