"""Find a value from what the screen shows: ``solve_value(emulator, [(state, shown), ...])``.

>>> candidates = solve_value(emulator, [(s1, "000120"), (s2, "000350"), (s3, "001200")])
>>> best = candidates[0]
>>> best.address, best.type, best.scale, best.bias     # 16711680, ">d3", 1, 0

Every candidate reads the shown value at every checkpoint as ``stored * scale + bias``, with
``stored`` what ``emulator.memory.read(address, type)`` gives in that state.

How candidates are ranked (best first), in this order of importance:

1. **Exact encodings first.** The stored bytes are what the type writes for the value: valid
   packed BCD for ``d`` (every nibble 0-9), one digit 0-9 per byte for ``n``. A ``d`` or ``n``
   read of other bytes drops bits, as a screen buffer of digit tiles does; it is a copy at best.
2. **Scale 1, then 10, 100, 1000**: a trailing zero drawn, not stored, only when needed.
3. **Plain byte orders** (``<``, ``>``) before mixed-order words (``><``, ``<>``).
4. **The width the screen asks for.** When ``shown`` is the digits as drawn (``"000120"``), the
   stored value should hold that many digits (less the zeros a scale draws): six digits are a
   3-byte BCD or a 6-byte nibble value, and, as a looser fit ranked after those, the narrowest
   binary width of 1, 2, 4 or 8 bytes that holds them. When ``shown`` is an int, the narrowest
   type of its kind that holds the largest value. A wider type whose extra bytes merely happen
   to be zero comes later, by how many bytes it has too many (or too few); so do 3-byte binary
   numbers, which CPUs rarely keep.
5. **No bias, then the smallest**: lives shown as stored + 1 are found, after exact matches.
6. **The system's own byte order** (``>`` on the Genesis and other 68000 systems, ``<`` where
   the system's types say so); BCD without one: big-endian, the digits in the order drawn.
7. **Plausible starts**: a 2- or 4-byte value at an even address on systems with 16-bit words.
8. Binary before BCD before nibbles (they read the same only for values below 10), unsigned
   before signed, then by address.

Candidates that hold the value in the same bytes are one family (``d3`` at A, its ``d2`` tail
at A+1, a ``d4`` at A-1 over a zero byte): a family is listed together, in the rank of its best
member, so the true variable stays near the top beside its aliases when the evidence cannot
tell them apart: first the best member of each width, then the other encodings of those widths
(for values below 10, ``|u1``, ``|d1`` and ``|n1`` read the same byte alike). Only a family's
first three members (two when the digits drawn fix the width) come before the next family;
the rest follow all families' first ones, so a second copy of the value (a game keeps one for
the display) is not pushed down by the first copy's aliases. Values that
never reach 10 or 100 cannot tell widths apart: give the digits as drawn, or checkpoints with
larger values.

Signed types are tried only when a shown value is negative (otherwise they read the same as
their unsigned twins). The emulator is left as it was found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore.search.checkpoints import StateLike, same_layout, snapshots_of
from emucore.search.decode import to_values, workspace
from emucore.search.plausible import KIND_RANK, Preferences, exact, misfit, preferences, raw_bytes
from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType, search_type, system_types

SCALES = (1, 10, 100, 1000)
MAX_BIAS = 3
LIMIT = 20
FAMILY_FIRST = (3, 2)  # members of a family listed before the next family's (int shown, digits shown)
FAMILY_POOL = 400  # the best candidates grouped into families; the rest cannot reach the list


@dataclass(frozen=True)
class ValueCandidate:
    """A place and type that reads what the screen showed at every checkpoint.

    Attributes:
        address: The data.json address.
        type: The data.json type string (``">d3"``).
        scale: ``shown == stored * scale + bias``; 1, 10, 100 or 1000.
        bias: Usually 0; a few units for values shown off by one (lives shown as stored + 1).
        values: The stored value at each checkpoint.
        exact: The stored bytes are exactly the type's encoding of the value (rule 1).
        misfit: How many bytes wider or narrower than the shown digits ask for (rule 2).
    """

    address: int
    type: str
    scale: int
    bias: int
    values: tuple[int, ...]
    exact: bool = True
    misfit: int = 0

    @property
    def shown(self) -> tuple[int, ...]:
        """The values the screen shows, as this candidate explains them."""
        return tuple(v * self.scale + self.bias for v in self.values)

    def variable(self) -> dict[str, Any]:
        """The data.json entry of this candidate (data.json has no scale or bias)."""
        return {"address": self.address, "type": self.type}

    def describe(self) -> str:
        """One line: ``">d3 at 0xff0000, x10, exact BCD"``."""
        parts = [f"{self.type} at {self.address:#x}"]
        if self.scale != 1:
            parts.append(f"x{self.scale}")
        if self.bias:
            parts.append(f"{self.bias:+d}")
        if not self.exact:
            parts.append("lossy encoding")
        if self.misfit:
            parts.append(f"{self.misfit} byte(s) off the shown width")
        return ", ".join(parts)


@dataclass(frozen=True)
class Shown:
    """What the screen showed at the checkpoints: the values, and how many digits were drawn."""

    values: tuple[int, ...]
    drawn: int | None  # the widest digit string given; None when every value was an int

    @classmethod
    def parse(cls, shown: Sequence[object]) -> Shown:
        values, widths = [], []
        for index, item in enumerate(shown):
            if isinstance(item, bool) or not isinstance(item, (int, np.integer, str)):
                raise ValueError(f"checkpoint {index}: shown is an int or the digits drawn, not {item!r}")
            if isinstance(item, str):
                text = item.strip(" ")
                body = text[1:] if text.startswith("-") else text
                if not body.isdigit() or not body.isascii():
                    raise ValueError(f"checkpoint {index}: shown {item!r} is not a number as the screen draws it")
                widths.append(len(item.rstrip(" ")))
                values.append(int(text))
            else:
                values.append(int(item))
        for index, value in enumerate(values):
            if abs(value) >= 10**18:
                raise ValueError(f"checkpoint {index}: shown {value} is larger than any type holds")
        return cls(tuple(values), max(widths) if widths else None)


def solve_value(
    emulator: Any,
    checkpoints: Sequence[tuple[StateLike, int | str]],
    *,
    types: Iterable[str] | None = None,
    max_bias: int = MAX_BIAS,
    limit: int = LIMIT,
) -> list[ValueCandidate]:
    """The variables that read what the screen showed at each checkpoint, best first.

    Args:
        emulator: The :class:`~emucore.emulator.Emulator` the states belong to (left as it was).
        checkpoints: Two or more ``(state, shown)`` pairs: ``state`` from ``emulator.get_state()``
            (or a :class:`~emucore.search.Snapshot`), ``shown`` the value on screen, as an int
            or as the digits drawn (``"000120"``, leading spaces count as drawn places).
        types: Type strings to try; default: every size, byte order and encoding of the system.
        max_bias: The largest ``|bias|`` tried (at scale 1 only).
        limit: At most this many candidates.

    Returns:
        Up to ``limit`` candidates ranked as the module docstring says; empty when none fits.

    Raises:
        ValueError: fewer than two checkpoints, a shown value that is not a number, a negative
            value no signed type can hold, or a state the core rejects (another core's).
    """
    if isinstance(checkpoints, (str, bytes)) or not isinstance(checkpoints, Sequence):
        raise ValueError("checkpoints is a list of (state, shown) pairs")
    pairs = []
    for index, pair in enumerate(checkpoints):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"checkpoint {index} is not a (state, shown) pair")
        pairs.append(pair)
    if len(pairs) < 2:
        raise ValueError(f"solve_value needs at least two checkpoints, got {len(pairs)}")
    if int(max_bias) < 0 or int(limit) < 1:
        raise ValueError("max_bias must be >= 0 and limit >= 1")
    shown = Shown.parse([s for _, s in pairs])
    trial = _trial_types(emulator, types, shown)
    snaps = list(snapshots_of(emulator, [state for state, _ in pairs], "checkpoint"))
    same_layout(snaps, "checkpoint")
    matches = _matches(snaps, trial, shown, int(max_bias))
    return _ranked(matches, snaps, shown, preferences(emulator), int(limit))


def _solver_texts(system: object) -> list[str]:
    texts = ["|u1", "|d1", "|n1"]
    texts += [f"{o}{k}{w}" for w in (2, 3, 4) for k in "ud" for o in "<>"]
    texts += [f"{o}{k}4" for k in "ud" for o in ("><", "<>")]
    texts += [f"{o}n{w}" for w in range(2, 9) for o in "<>"]
    return texts + [t for t in system_types(system) if "i" not in t[-2:-1]]


def _trial_types(emulator: Any, types: Iterable[str] | None, shown: Shown) -> list[SearchType]:
    texts = list(types) if types is not None else _solver_texts(getattr(emulator, "system", None))
    parsed = [search_type(t) for t in texts]
    if types is None and min(shown.values) < 0:
        parsed = [search_type(st.text[:-2] + "i" + st.text[-1]) for st in parsed if st.digits == "u"] + parsed
    lowest = min(shown.values)
    if lowest < 0 and not any(st.signed and st.bounds[0] <= lowest for st in parsed):
        raise ValueError(f"shown value {lowest} is negative and no signed type tried can hold it")
    seen: dict[tuple, SearchType] = {}
    for st in parsed:
        seen.setdefault((st.key, st.signed), st)
    return list(seen.values())


@dataclass
class _Group:
    """The candidates of one type and scale: positions, their bias and stored values."""

    st: SearchType
    scale: int
    positions: np.ndarray
    bias: np.ndarray
    stored: np.ndarray  # (candidates, checkpoints)


def _matches(snaps: list[Snapshot], trial: list[SearchType], shown: Shown, max_bias: int) -> list[_Group]:
    values = np.array(shown.values, dtype=np.int64)
    pivot = int(np.argmax(np.abs(values)))
    layout = snaps[0].layout
    space = workspace()
    decoders = [snap.decoder(space) if i == pivot else snap.decoder() for i, snap in enumerate(snaps)]
    scales = [s for s in SCALES if s == 1 or (not (values % s).any() and values.any())]
    groups = []
    for st in trial:
        low, high = st.bounds
        full = decoders[pivot].full(*st.key)[: layout.positions]
        if st.signed:
            full = to_values(full, st.width, True)
        for scale in scales:
            spread = max_bias if scale == 1 else 0
            lo = max((int(values[pivot]) - spread + scale - 1) // scale, low)
            hi = min((int(values[pivot]) + spread) // scale, high)
            if lo > hi:
                continue
            mask = (full >= lo) & (full <= hi) if lo != hi else full == lo
            positions = np.flatnonzero(mask & layout.valid)
            if not len(positions):
                continue
            stored = np.empty((len(positions), len(snaps)), dtype=np.int64)
            stored[:, pivot] = full[positions]
            bias = values[pivot] - stored[:, pivot] * scale
            keep = np.abs(bias) <= spread
            for i, decoder in enumerate(decoders):
                if i == pivot or not keep.any():
                    continue
                read = decoder.gather(*st.key, positions)
                if st.signed:
                    read = to_values(read, st.width, True)
                stored[:, i] = read
                keep &= values[i] - stored[:, i] * scale == bias
            if keep.any():
                groups.append(_Group(st, scale, positions[keep], bias[keep], stored[keep]))
    return groups


KEY_COLUMNS = ("lossy", "scale", "mixed", "misfit", "binary_guess", "biased", "abs_bias", "foreign",
               "misaligned", "kind", "signed", "address")


def _keys(group: _Group, snaps: list[Snapshot], shown: Shown, prefs: Preferences) -> dict[str, np.ndarray]:
    """The ranking key columns of one group's candidates (rules 1-8 of the module docstring)."""
    st, n = group.st, len(group.positions)
    scale_rank = SCALES.index(group.scale)
    drawn = None if shown.drawn is None else max(shown.drawn - scale_rank, 1)
    native = prefs.native or ("big" if st.digits == "d" else "")  # BCD digits in the order drawn
    addresses = snaps[0].layout.addresses(group.positions)

    def same(value: int) -> np.ndarray:
        return np.full(n, value, dtype=np.int64)

    return {
        "lossy": ~exact(st, raw_bytes(snaps, group.positions, st.width)),
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


def _ranked(groups: list[_Group], snaps: list[Snapshot], shown: Shown, prefs: Preferences,
            limit: int) -> list[ValueCandidate]:
    if not groups:
        return []
    parts = [_keys(group, snaps, shown, prefs) for group in groups]
    columns = {name: np.concatenate([p[name] for p in parts]).astype(np.int64) for name in KEY_COLUMNS}
    owner = np.concatenate([np.full(len(g.positions), i) for i, g in enumerate(groups)])
    row = np.concatenate([np.arange(len(g.positions)) for g in groups])
    order = np.lexsort([columns[name] for name in reversed(KEY_COLUMNS)])[: max(FAMILY_POOL, limit)]
    best: dict[tuple, int] = {}
    seen: dict[tuple, int] = {}
    sort_keys = []
    for rank, i in enumerate(order):
        group, r = groups[owner[i]], row[i]
        raw = raw_bytes(snaps, group.positions[r : r + 1], group.st.width)[:, 0, :]
        address = int(columns["address"][i])
        family = tuple(address + np.flatnonzero((raw != 0).any(axis=0))) or ("zero", address)
        best.setdefault(family, rank)
        repeat = seen[(family, group.st.width)] = seen.get((family, group.st.width), -1) + 1
        sort_keys.append((best[family], repeat, rank))
    in_family = sorted(range(len(order)), key=lambda k: sort_keys[k])
    members: dict[int, int] = {}
    for k in in_family:
        members[k] = members.get(-1 - sort_keys[k][0], 0)
        members[-1 - sort_keys[k][0]] = members[k] + 1
    first = FAMILY_FIRST[shown.drawn is not None]
    listed = sorted(in_family, key=lambda k: (members[k] >= first, sort_keys[k][0], members[k]))[:limit]
    out = []
    for k in listed:
        i = order[k]
        group, r = groups[owner[i]], row[i]
        out.append(ValueCandidate(int(columns["address"][i]), group.st.text, group.scale, int(group.bias[r]),
                                  tuple(int(v) for v in group.stored[r]), not columns["lossy"][i],
                                  int(columns["misfit"][i])))
    return out


__all__ = ["ValueCandidate", "solve_value"]
