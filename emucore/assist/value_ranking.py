"""How :func:`~emucore.assist.solve_value` orders the candidates that read the shown values
(the rules are in :mod:`emucore.assist.value_solver`'s docstring): a sort by key columns, the play's
verdicts, copies of the value that follow another (:mod:`emucore.assist.value_copies`), then
families so that aliases of one answer do not crowd out the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from emucore.assist.value_candidates import Ambiguity, Shown, ValueCandidate
from emucore.assist.value_copies import Copy, family_of, find_copies
from emucore.assist.value_near import offset_notes
from emucore.search.history import Played, Reading, Verdict, columns_of, decode, record, verdicts
from emucore.search.plausible import KIND_RANK, Preferences, exact, misfit, raw_bytes
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

SCALES = (1, 10, 100, 1000)
FAMILY_FIRST = (3, 2)  # members of a family listed before the next family's (int shown, digits shown)
FAMILY_POOL = 400  # the best candidates grouped into families; the rest cannot reach the list
KEY_COLUMNS = ("volatile", "lossy", "shifted", "follows", "idle_tail", "scale", "one_byte", "mixed", "misfit",
               "binary_guess", "biased", "abs_bias", "foreign", "misaligned", "kind", "signed", "address")


@dataclass
class Group:
    """The candidates of one type and scale: positions, their bias and stored values."""

    st: SearchType
    scale: int
    positions: np.ndarray
    bias: np.ndarray
    stored: np.ndarray  # (candidates, checkpoints)
    offsets: np.ndarray | None = None  # (candidates, checkpoints): frames off each checkpoint it read (value_near)


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
        "follows": same(0),  # a copy of the value that follows another in play (set by ranked)
        "shifted": same(0) if group.offsets is None else (group.offsets != 0).sum(axis=1),
        "idle_tail": _idle_tail(st, raw),
        "scale": same(scale_rank),
        "one_byte": same(0),  # one byte where a wider reading of the same bytes reads the same (set by ranked)
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
           pieces: list[Iterable[Snapshot]]) -> tuple[list[ValueCandidate], int, list[Ambiguity]]:
    """The best ``limit`` candidates, how many frames of play (``pieces``) checked them, and the
    copies of the value in other bytes that are still a choice (ambiguities of kind "copies")."""
    if not groups:
        return [], 0, []
    parts = [_keys(group, snaps, shown, prefs) for group in groups]
    columns = {name: np.concatenate([p[name] for p in parts]).astype(np.int64) for name in KEY_COLUMNS}
    owner = np.concatenate([np.full(len(g.positions), i) for i, g in enumerate(groups)])
    row = np.concatenate([np.arange(len(g.positions)) for g in groups])
    order = np.lexsort([columns[name] for name in reversed(KEY_COLUMNS)])[: max(FAMILY_POOL, limit)]
    notes: dict[int, tuple[str, ...]] = {}
    steady: dict[int, bool] = {}
    frames = 0
    played: Played | None = None
    families = {int(i): family_of(raw_bytes(snaps, groups[owner[i]].positions[row[i] : row[i] + 1],
                                            groups[owner[i]].st.width)[:, 0, :], int(columns["address"][i]))
                for i in order}
    if _one_byte_behind(order, groups, owner, columns, families, _score_like(shown)):
        order = order[np.lexsort([columns[name][order] for name in reversed(KEY_COLUMNS)])]
    if pieces:
        readings = [Reading(groups[owner[i]].st, int(groups[owner[i]].positions[row[i]]), groups[owner[i]].scale,
                            int(groups[owner[i]].bias[row[i]])) for i in order]
        played = record(pieces, columns_of(readings), snaps)
        frames = played.frames
        if frames > 1:
            found = verdicts(readings, played, shown.values)
            # A top score is calmer than the score it keeps (it stands still in a new game until
            # beaten): it is no yardstick of how often the value changes. Judged without it.
            tops = _top_scores(order, groups, owner, row, columns, families, played, found)
            if tops:
                rest = [k for k in range(len(order)) if k not in tops]
                for k, verdict in zip(rest, verdicts([readings[k] for k in rest], played, shown.values)):
                    found[k] = verdict
            for i, verdict in zip(order, found):
                notes[int(i)], steady[int(i)] = verdict.notes, verdict.steady
                columns["volatile"][i] = not verdict.steady
                columns["lossy"][i] |= verdict.lossy
            order = order[np.lexsort([columns[name][order] for name in reversed(KEY_COLUMNS)])]
    copies = _copies(order, groups, owner, row, columns, families, played if frames > 1 else None)
    for copy in copies:
        if copy.demotes:
            for i in order:
                if families[int(i)] == families[copy.follower]:
                    columns["follows"][i] = 1
        names = [_name(groups, owner, row, columns, i) for i in (copy.leader, copy.follower)]
        said = "two copies of the value: " + copy.words.format(*names)
        for i in (copy.leader, copy.follower):
            notes[i] = (*notes.get(i, ()), said)
    if any(copy.demotes for copy in copies):
        order = order[np.lexsort([columns[name][order] for name in reversed(KEY_COLUMNS)])]
    listed = _by_family(order, groups, owner, row, columns, families, shown)[:limit]

    def candidate(i: int) -> ValueCandidate:
        group, r = groups[owner[i]], row[i]
        offsets = () if group.offsets is None else tuple(int(v) for v in group.offsets[r])
        return ValueCandidate(int(columns["address"][i]), group.st.text, group.scale, int(group.bias[r]),
                              tuple(int(v) for v in group.stored[r]), not columns["lossy"][i],
                              int(columns["misfit"][i]), steady.get(int(i)),
                              offset_notes(offsets, shown.values) + notes.get(int(i), ()), offsets)

    out = [candidate(int(i)) for i in listed]
    by_index = dict(zip((int(i) for i in listed), out))
    choices = [Ambiguity(by_index.get(c.leader) or candidate(c.leader),
                         by_index.get(c.follower) or candidate(c.follower),
                         c.words.format(*[_name(groups, owner, row, columns, i) for i in (c.leader, c.follower)]),
                         None, "copies") for c in copies if c.open]
    return out, frames, choices


def _name(groups: list[Group], owner: np.ndarray, row: np.ndarray, columns: dict[str, np.ndarray], i: int) -> str:
    """``">n5 at 0x22"`` (``"x10"`` and the bias added where they are not 1 and 0)."""
    group = groups[owner[i]]
    bias = int(group.bias[row[i]])
    return (f"{group.st.text} at {int(columns['address'][i]):#x}" + (f" x{group.scale}" if group.scale != 1 else "")
            + (f" {bias:+d}" if bias else ""))


def _score_like(shown: Shown) -> bool:
    """Whether the shown value looks like a score rather than lives or a counter: drawn with three
    digits or more, or past 99. One byte is then seldom its home."""
    return (shown.drawn or 0) >= 3 or max(abs(v) for v in shown.values) >= 100


def _one_byte_behind(order: np.ndarray, groups: list[Group], owner: np.ndarray, columns: dict[str, np.ndarray],
                     families: dict[int, frozenset[int]], score_like: bool) -> bool:
    """A one-byte reading ranks behind a wider exact reading of the same bytes at the same scale
    (its extra bytes 0 so far): the two read alike until the value needs them, and a score is
    seldom one byte. Only one-byte readings of a score-like value (or scaled: a trailing zero
    drawn) are moved; lives shown as 3, 2, 1 keep their one byte first. Whether any was moved."""
    wider = {(families[int(i)], groups[owner[i]].scale) for i in order
             if groups[owner[i]].st.width > 1 and not columns["lossy"][i] and families[int(i)]}
    moved = False
    for i in order:
        group = groups[owner[i]]
        if group.st.width == 1 and (score_like or group.scale > 1) and (families[int(i)], group.scale) in wider:
            columns["one_byte"][i] = moved = True
    return moved


def _top_scores(order: np.ndarray, groups: list[Group], owner: np.ndarray, row: np.ndarray,
                columns: dict[str, np.ndarray], families: dict[int, frozenset[int]], played: Played,
                found: list[Verdict]) -> set[int]:
    """The places in ``order`` of the families the play shows to be a top score: a copy that
    kept its value when another exact reading fell back (judged before volatility is)."""
    exact_now = {int(i) for i, verdict in zip(order, found) if not verdict.lossy and not columns["lossy"][i]}
    copies = _copies(order, groups, owner, row, columns, families, played, lambda i: i in exact_now)
    kept = {families[c.follower] for c in copies if c.kind == "keeps"}
    return {k for k, i in enumerate(order) if families[int(i)] in kept}


def _copies(order: np.ndarray, groups: list[Group], owner: np.ndarray, row: np.ndarray,
            columns: dict[str, np.ndarray], families: dict[int, frozenset[int]], played: Played | None,
            usable: Callable[[int], bool] | None = None) -> list[Copy]:
    """The copies of the value among the best families (:func:`~emucore.assist.value_copies.find_copies`);
    ``usable``: which may stand for their family (default: steady and exact)."""
    index = {int(c): k for k, c in enumerate(played.columns)} if played is not None else {}

    def series(i: int) -> np.ndarray:
        assert played is not None
        group = groups[owner[i]]
        cols = [index[int(group.positions[row[i]]) + k] for k in range(group.st.width)]
        return decode(group.st, played.rows[:, cols]) * group.scale + int(group.bias[row[i]])

    def steady_exact(i: int) -> bool:
        return not columns["volatile"][i] and not columns["lossy"][i]

    def comparable(a: int, b: int) -> bool:  # as well supported: as many checkpoints read off their moment
        return bool(columns["shifted"][a] == columns["shifted"][b])

    def same_kind(a: int, b: int) -> bool:
        return (groups[owner[a]].st.text, groups[owner[a]].scale) == (groups[owner[b]].st.text, groups[owner[b]].scale)

    return find_copies([int(i) for i in order], families, usable or steady_exact, comparable, same_kind,
                       series if played is not None else None, played.continues if played is not None else None)


def _by_family(order: np.ndarray, groups: list[Group], owner: np.ndarray, row: np.ndarray,
               columns: dict[str, np.ndarray], families: dict[int, frozenset[int]], shown: Shown) -> list[int]:
    """``order`` regrouped, steady before volatile and exact before lossy: first the best
    candidate of every (encoding, scale) class, then each family (the candidates holding the
    value in the same bytes) in the rank of its best member, its first few members before the
    next family's, the rest after all."""
    best: dict[tuple, int] = {}
    seen: dict[tuple, int] = {}
    sort_keys = []
    leaders: dict[tuple[str, int], int] = {}
    for rank, i in enumerate(order):
        group = groups[owner[i]]
        address = int(columns["address"][i])
        family: tuple = tuple(sorted(families[int(i)])) or ("zero", address)
        best.setdefault(family, rank)
        repeat = seen[(family, group.st.width)] = seen.get((family, group.st.width), -1) + 1
        sort_keys.append((best[family], repeat, rank))
        if not (columns["volatile"][i] or columns["lossy"][i] or columns["follows"][i] or columns["shifted"][i]):
            leaders.setdefault((group.st.digits, group.scale), rank)
    in_family = sorted(range(len(order)), key=lambda k: sort_keys[k])
    members: dict[int, int] = {}
    for k in in_family:
        members[k] = members.get(-1 - sort_keys[k][0], 0)
        members[-1 - sort_keys[k][0]] = members[k] + 1
    first = FAMILY_FIRST[shown.drawn is not None]
    lead = set(leaders.values())
    listed = sorted(in_family, key=lambda k: (int(columns["volatile"][order[k]]), int(columns["lossy"][order[k]]),
                                              int(columns["shifted"][order[k]]), int(columns["follows"][order[k]]),
                                              k not in lead, members[k] >= first, sort_keys[k][0], members[k]))
    return [int(order[k]) for k in listed]


__all__ = ["FAMILY_FIRST", "FAMILY_POOL", "Group", "KEY_COLUMNS", "SCALES", "ranked"]
