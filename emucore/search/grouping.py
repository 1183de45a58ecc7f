"""A search's candidates one row per address, the types that fit there ranked inside.

With every type searched, one byte that holds a value shows up under many type strings at a few
neighbouring addresses (``|u1`` at A, ``<u2`` at A over a zero byte, ``>u2`` at A-1, ``<u4``,
``>d2``...). :func:`group_candidates` lists each address once, its fitting types inside in the
order the solver ranks them (:mod:`emucore.search.plausible`: an exact encoding, the narrowest
width that holds the values seen, the system's byte order, word alignment, binary before BCD
before nibbles, unsigned before signed), and can hide the wider types whose extra bytes were
zero at every snapshot of the search when a narrower type of the same kind is searched too.

>>> from emucore import Emulator
>>> from emucore.paths import integrations_dir
>>> from emucore.search import MemorySearch
>>> emulator = Emulator(integrations_dir() / "StudioDemo-Nes" / "rom.nes")
>>> emulator.run_frames(60)
>>> search = MemorySearch(emulator)       # every type of the NES
>>> emulator.set_button_mask(1 << 7); emulator.run_frames(10)     # hold RIGHT: the screen shows x = 130
>>> search.refine("equal", 130)
14
>>> emulator.run_frames(20)               # x = 150
>>> search.refine("equal", 150)
9
>>> grouped = group_candidates(search, hide_zero_extended=True)
>>> [(hex(address), [search.candidates[i].type for i in grouped.members(row)])
...  for row, address in enumerate(grouped.addresses[:2])]      # one row per address
[('0x15', ['>i2']), ('0x16', ['|u1'])]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from emucore.search.memory_search import MemorySearch
from emucore.search.plausible import KIND_RANK, NATURAL_WIDTHS, Preferences, exact, preferences, raw_bytes, width_tops
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

MAX_GROUPED = 400_000  # candidates; above this the table lists them flat (refine first)
FAMILIES = {"binary": "u", "signed": "i", "bcd": "d", "nibble": "n"}  # type family -> kind letter


def family_of(st: SearchType) -> str:
    """``"binary"``, ``"signed"``, ``"bcd"`` or ``"nibble"``."""
    return "signed" if st.signed else {"u": "binary", "d": "bcd", "n": "nibble"}[st.digits]


@dataclass(frozen=True)
class GroupedCandidates:
    """Candidates by address.

    Attributes:
        addresses: One per group, ascending.
        rows: Rows of the search's :class:`~emucore.search.Candidates`, group after group, each
            group's most plausible type first.
        starts: Group ``g``'s rows are ``rows[starts[g]:starts[g + 1]]``.
        rank: Per group, the plausibility rank of its first row among all first rows (0 = best).
        hidden: Candidates left out (zero-extended wider types, other families).
    """

    addresses: np.ndarray
    rows: np.ndarray
    starts: np.ndarray
    rank: np.ndarray
    hidden: int

    def __len__(self) -> int:
        return len(self.addresses)

    def members(self, group: int) -> np.ndarray:
        """The candidate rows of one group, most plausible first."""
        return self.rows[self.starts[group] : self.starts[group + 1]]

    def first_rows(self) -> np.ndarray:
        """Each group's most plausible row."""
        return self.rows[self.starts[:-1]] if len(self.addresses) else np.zeros(0, np.int64)


def _ideal_widths(st: SearchType, largest: np.ndarray) -> np.ndarray:
    widths, tops = width_tops(st, NATURAL_WIDTHS if st.digits == "u" else tuple(range(1, 9)))
    return widths[np.minimum(np.searchsorted(tops, largest), len(widths) - 1)]


def _type_keys(st: SearchType, positions: np.ndarray, snaps: list[Snapshot], prefs: Preferences,
               narrowest: dict[str, int]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The plausibility columns of one type's candidates, and which of them are zero-extended."""
    n = len(positions)
    largest = np.zeros(n, dtype=np.int64)
    for snap in snaps:
        largest = np.maximum(largest, np.abs(snap.values_at(st, positions)))
    ideal = _ideal_widths(st, largest)
    native = prefs.native or ("big" if st.digits == "d" else "")
    addresses = snaps[0].layout.addresses(positions)
    odd = st.digits == "u" and st.width not in NATURAL_WIDTHS

    def same(value: int) -> np.ndarray:
        return np.full(n, value, dtype=np.int64)

    keys = {
        "lossy": ~exact(st, raw_bytes(snaps, positions, st.width)) if st.digits != "u" else same(0),
        "mixed": same(st.width > 1 and st.order not in ("little", "big")),
        "misfit": np.abs(st.width - ideal) + int(odd),
        "foreign": same(bool(native) and st.width > 1 and st.order != native),
        "misaligned": (addresses % 2 == 1) & (prefs.word_aligned and st.width in (2, 4)),
        "kind": same(KIND_RANK[st.digits]),
        "signed": same(st.signed),
    }
    # a narrower type reads the same bytes: one of this kind, or any 1-byte type for digits 0-9
    narrower = (narrowest[st.digits] <= ideal) | ((largest < 10) & (min(narrowest.values()) == 1))
    return keys, (st.width > ideal) & narrower


KEY_COLUMNS = ("lossy", "mixed", "misfit", "foreign", "misaligned", "kind", "signed")


def group_candidates(search: MemorySearch, *, families: Collection[str] | None = None,
                     hide_zero_extended: bool = True) -> GroupedCandidates:
    """The search's current candidates by address (see the module docstring).

    Args:
        search: The search.
        families: Type families to keep (keys of :data:`FAMILIES`); None keeps every one.
        hide_zero_extended: Leave out a type wider than the values seen at every snapshot of the
            search need, when a narrower type of its kind is searched too (it reads the same bytes).

    Raises:
        ValueError: an unknown family, or more than :data:`MAX_GROUPED` candidates.
    """
    unknown = set(families or ()) - set(FAMILIES)
    if unknown:
        raise ValueError(f"unknown type families {sorted(unknown)}; choose from {', '.join(FAMILIES)}")
    count = search.count
    if count > MAX_GROUPED:
        raise ValueError(f"{count:,} candidates are too many to group by address (at most {MAX_GROUPED:,}): "
                         "refine first")
    positions, tids = search.candidates_set.order()
    snaps = search.snapshots()[-16:]  # the values seen; older snapshots add little and cost memory
    prefs = preferences(search.emulator)
    types = search.search_types
    narrowest: dict[str, int] = {}
    for st in types:
        narrowest[st.digits] = min(narrowest.get(st.digits, 8), st.width)
    columns = {name: np.zeros(len(positions), dtype=np.int64) for name in KEY_COLUMNS}
    keep = np.ones(len(positions), dtype=bool)
    for t, st in enumerate(types):
        pick = np.flatnonzero(tids == t)
        if not len(pick):
            continue
        if families is not None and family_of(st) not in families:
            keep[pick] = False
            continue
        keys, zero_extended = _type_keys(st, positions[pick], snaps, prefs, narrowest)
        for name in KEY_COLUMNS:
            columns[name][pick] = keys[name]
        if hide_zero_extended:
            keep[pick[zero_extended]] = False
    rows = np.flatnonzero(keep)
    addresses = search.candidates_set.layout.addresses(positions[rows])
    # by address, then the plausibility columns, then the type's place in the search's list
    order = np.lexsort([tids[rows]] + [columns[name][rows] for name in reversed(KEY_COLUMNS)] + [addresses])
    rows, addresses = rows[order], addresses[order]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = addresses[1:] != addresses[:-1]
    starts = np.append(np.flatnonzero(new), len(rows)).astype(np.int64)
    firsts = rows[starts[:-1]]
    first_order = np.lexsort([tids[firsts]] + [columns[name][firsts] for name in reversed(KEY_COLUMNS)])
    rank = np.empty(len(firsts), dtype=np.int64)
    rank[first_order] = np.arange(len(firsts))
    return GroupedCandidates(addresses[new], rows.astype(np.int64), starts, rank, int(count - len(rows)))


__all__ = ["FAMILIES", "GroupedCandidates", "MAX_GROUPED", "family_of", "group_candidates"]
