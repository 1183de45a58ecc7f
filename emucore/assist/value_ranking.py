"""How :func:`~emucore.assist.solve_value` orders the candidates that read the shown values
(the rules are in :mod:`emucore.assist.value_solver`'s docstring): a sort by key columns, the play's
verdicts, then families so that aliases of one answer do not crowd out the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from emucore.assist.value_candidates import Shown, ValueCandidate
from emucore.search.history import Reading, columns_of, record, verdicts
from emucore.search.plausible import KIND_RANK, Preferences, exact, misfit, raw_bytes
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

SCALES = (1, 10, 100, 1000)
FAMILY_FIRST = (3, 2)  # members of a family listed before the next family's (int shown, digits shown)
FAMILY_POOL = 400  # the best candidates grouped into families; the rest cannot reach the list
KEY_COLUMNS = ("volatile", "lossy", "idle_tail", "scale", "mixed", "misfit", "binary_guess", "biased", "abs_bias",
               "foreign", "misaligned", "kind", "signed", "address")


@dataclass
class Group:
    """The candidates of one type and scale: positions, their bias and stored values."""

    st: SearchType
    scale: int
    positions: np.ndarray
    bias: np.ndarray
    stored: np.ndarray  # (candidates, checkpoints)


def _idle_tail(st: SearchType, raw: np.ndarray) -> np.ndarray:
    """Digits (``d``, ``n``) whose least significant byte is 0 at every checkpoint: the drawn
    trailing zeros are then explained by a byte that never changed, which is no evidence that
    the byte belongs to the value (a scale explains the same digits)."""
    if st.digits == "u" or st.width < 2:
        return np.zeros(raw.shape[1], dtype=bool)
    low = st.dtype.weights.index(1)
    return np.asarray((raw[:, :, low] == 0).all(axis=0))


def _keys(group: Group, snaps: list[Snapshot], shown: Shown, prefs: Preferences) -> dict[str, np.ndarray]:
    st, n = group.st, len(group.positions)
    scale_rank = SCALES.index(group.scale)
    drawn = None if shown.drawn is None else max(shown.drawn - scale_rank, 1)
    native = prefs.native if st.digits == "u" else "big"  # digits in the order drawn, whatever the CPU's
    addresses = snaps[0].layout.addresses(group.positions)
    raw = raw_bytes(snaps, group.positions, st.width)

    def same(value: int) -> np.ndarray:
        return np.full(n, value, dtype=np.int64)

    return {
        "volatile": same(0),
        "lossy": ~exact(st, raw),
        "idle_tail": _idle_tail(st, raw),
        "scale": same(scale_rank),
        "mixed": same(st.width > 1 and st.order not in ("little", "big")),
        "misfit": misfit(st, np.abs(group.stored).max(axis=1), drawn),
        "binary_guess": same(st.digits == "u" and drawn is not None),  # binary widths only roughly match digits
        "biased": group.bias != 0,
        "abs_bias": np.abs(group.bias),
        "foreign": same(bool(native) and st.width > 1 and st.order != native),
        "misaligned": (addresses % 2 == 1) & (prefs.word_aligned and st.width in (2, 4)),
        "kind": same(KIND_RANK[st.digits]),
        "signed": same(st.signed),
        "address": addresses,
    }


def ranked(groups: list[Group], snaps: list[Snapshot], shown: Shown, prefs: Preferences, limit: int,
           pieces: list[Iterable[Snapshot]]) -> tuple[list[ValueCandidate], int]:
    """The best ``limit`` candidates, and how many frames of play (``pieces``) checked them."""
    if not groups:
        return [], 0
    parts = [_keys(group, snaps, shown, prefs) for group in groups]
    columns = {name: np.concatenate([p[name] for p in parts]).astype(np.int64) for name in KEY_COLUMNS}
    owner = np.concatenate([np.full(len(g.positions), i) for i, g in enumerate(groups)])
    row = np.concatenate([np.arange(len(g.positions)) for g in groups])
    order = np.lexsort([columns[name] for name in reversed(KEY_COLUMNS)])[: max(FAMILY_POOL, limit)]
    notes: dict[int, tuple[str, ...]] = {}
    steady: dict[int, bool] = {}
    frames = 0
    if pieces:
        readings = [Reading(groups[owner[i]].st, int(groups[owner[i]].positions[row[i]]), groups[owner[i]].scale,
                            int(groups[owner[i]].bias[row[i]])) for i in order]
        played = record(pieces, columns_of(readings), snaps)
        frames = played.frames
        if frames > 1:
            for i, verdict in zip(order, verdicts(readings, played, shown.values)):
                notes[int(i)], steady[int(i)] = verdict.notes, verdict.steady
                columns["volatile"][i] = not verdict.steady
                columns["lossy"][i] |= verdict.lossy
            order = order[np.lexsort([columns[name][order] for name in reversed(KEY_COLUMNS)])]
    listed = _by_family(order, groups, owner, row, columns, snaps, shown)[:limit]
    out = []
    for i in listed:
        group, r = groups[owner[i]], row[i]
        out.append(ValueCandidate(int(columns["address"][i]), group.st.text, group.scale, int(group.bias[r]),
                                  tuple(int(v) for v in group.stored[r]), not columns["lossy"][i],
                                  int(columns["misfit"][i]), steady.get(int(i)), notes.get(int(i), ())))
    return out, frames


def _by_family(order: np.ndarray, groups: list[Group], owner: np.ndarray, row: np.ndarray,
               columns: dict[str, np.ndarray], snaps: list[Snapshot], shown: Shown) -> list[int]:
    """``order`` regrouped, steady before volatile and exact before lossy: first the best
    candidate of every (encoding, scale) class, then each family (the candidates holding the
    value in the same bytes) in the rank of its best member, its first few members before the
    next family's, the rest after all."""
    best: dict[tuple, int] = {}
    seen: dict[tuple, int] = {}
    sort_keys = []
    leaders: dict[tuple[str, int], int] = {}
    for rank, i in enumerate(order):
        group, r = groups[owner[i]], row[i]
        raw = raw_bytes(snaps, group.positions[r : r + 1], group.st.width)[:, 0, :]
        address = int(columns["address"][i])
        family = tuple(address + np.flatnonzero((raw != 0).any(axis=0))) or ("zero", address)
        best.setdefault(family, rank)
        repeat = seen[(family, group.st.width)] = seen.get((family, group.st.width), -1) + 1
        sort_keys.append((best[family], repeat, rank))
        if not columns["volatile"][i] and not columns["lossy"][i]:
            leaders.setdefault((group.st.digits, group.scale), rank)
    in_family = sorted(range(len(order)), key=lambda k: sort_keys[k])
    members: dict[int, int] = {}
    for k in in_family:
        members[k] = members.get(-1 - sort_keys[k][0], 0)
        members[-1 - sort_keys[k][0]] = members[k] + 1
    first = FAMILY_FIRST[shown.drawn is not None]
    lead = set(leaders.values())
    listed = sorted(in_family, key=lambda k: (int(columns["volatile"][order[k]]), int(columns["lossy"][order[k]]),
                                              k not in lead, members[k] >= first, sort_keys[k][0], members[k]))
    return [int(order[k]) for k in listed]


__all__ = ["FAMILY_FIRST", "FAMILY_POOL", "Group", "KEY_COLUMNS", "SCALES", "ranked"]
