"""Which top candidates of :func:`~emucore.assist.solve_value` the checkpoints cannot tell apart,
and what the screen would have to show to do it.

Two candidates that share bytes read the same at every checkpoint (both explain every shown
value) but may decode the game's memory differently: a binary count of hundreds and a BCD byte
read the same below 1,000 points; a scale of 10 and a trailing digit read from a byte that stayed
0 read the same while that byte stays 0; a 1-byte and a 2-byte reading read the same below 256;
a big-endian read ending in the value's low byte (``>d3`` at A-2) and the little-endian one
starting there (``<d3`` at A) read the same below 100 (named first, with their byte orders).
For such a pair the values above those seen are tried: the value is written as one candidate
stores it, into the bytes of the last checkpoint, and read back as the other.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emucore.assist.value_candidates import Ambiguity, ValueCandidate, byte_orders
from emucore.datatypes import parse_type
from emucore.search.snapshot import Snapshot

TOP = 8  # pairs among the first this many candidates
FIRST = 3  # ... of which the higher-ranked one is among the first three
_STEPS = sorted({m * 10**p for p in range(19) for m in (1, 2, 5)} | {256**k for k in range(1, 8)}
                | {100**k for k in range(1, 9)})


def _span(candidate: ValueCandidate) -> range:
    return range(candidate.address, candidate.address + parse_type(candidate.type).width)


def _read(candidate: ValueCandidate, memory: dict[int, int]) -> int:
    dtype = parse_type(candidate.type)
    return dtype.decode(bytes(memory[a] for a in _span(candidate))) * candidate.scale + candidate.bias


def _holds(candidate: ValueCandidate, value: int) -> int | None:
    """The stored value that shows ``value``, if the candidate can show it."""
    stored, rest = divmod(value - candidate.bias, candidate.scale)
    dtype = parse_type(candidate.type)
    top = (1 << (8 * dtype.width)) - 1 if dtype.kind in "ui" else {"d": 100, "n": 10}[dtype.kind] ** dtype.width - 1
    return stored if rest == 0 and 0 <= stored <= top else None


def _separates(a: ValueCandidate, b: ValueCandidate, base: dict[int, int], value: int) -> bool:
    for one, other in ((a, b), (b, a)):
        stored = _holds(one, value)
        if stored is None:
            continue
        memory = dict(base)
        memory.update(zip(_span(one), parse_type(one.type).encode(stored)))
        if _read(other, memory) != value:
            return True
    return False


def _ending(a: ValueCandidate, b: ValueCandidate, base: dict[int, int], seen: int) -> str | None:
    """"a shown value that does not end in 00" when only the finer scale can show such values."""
    fine, coarse = sorted((a, b), key=lambda c: c.scale)
    if fine.scale == coarse.scale:
        return None
    zeros = len(str(coarse.scale // fine.scale)) - 1
    for value in range(seen + fine.scale, seen + fine.scale * coarse.scale // fine.scale + 1, fine.scale):
        if value % coarse.scale and _separates(a, b, base, value):
            return f"a shown value that does not end in {'0' * zeros}"
    return None


def _first_value(a: ValueCandidate, b: ValueCandidate, base: dict[int, int], seen: int) -> int | None:
    """The smallest value above ``seen`` that both scales can show and that separates them."""
    tried = sorted({step * c.scale + c.bias for c in (a, b) for step in _STEPS if step * c.scale + c.bias > seen})
    return next((v for v in tried if all((v - c.bias) % c.scale == 0 for c in (a, b))
                 and _separates(a, b, base, v)), None)


def _nonzero(candidate: ValueCandidate, snaps: Sequence[Snapshot]) -> frozenset[int]:
    """The candidate's bytes that were not 0 at some checkpoint (its family)."""
    span = np.array(list(_span(candidate)), dtype=np.int64)
    positions = snaps[0].layout.positions_of(span)
    return frozenset(int(a) for a, p in zip(span, positions) if p >= 0 and any(s.buf[p] for s in snaps))


def ambiguities(candidates: Sequence[ValueCandidate], snaps: Sequence[Snapshot],
                shown: Sequence[int]) -> list[Ambiguity]:
    """The pairs of top candidates that hold the value in the same bytes (the bytes that were
    not 0 at some checkpoint) and would read differently later on."""
    top = [c for c in candidates[:TOP] if c.exact and c.steady is not False]
    seen = max(shown)
    last = snaps[-1]
    family = {id(c): _nonzero(c, snaps) for c in top}
    out = []
    for i, a in enumerate(top[:FIRST]):
        for b in top[i + 1 :]:
            if family[id(a)] != family[id(b)] or not family[id(a)]:
                continue  # other bytes: two copies of the value, not two readings of one
            addresses = sorted(set(_span(a)) | set(_span(b)))
            positions = last.layout.positions_of(np.array(addresses, dtype=np.int64))
            if (positions < 0).any():
                continue
            base = {a_: int(last.buf[p]) for a_, p in zip(addresses, positions)}
            ending = _ending(a, b, base, seen)
            value = _first_value(a, b, base, seen)
            words = [w for w in (ending, f"a shown value of {value:,} or more" if value is not None else None) if w]
            if words:
                out.append(Ambiguity(a, b, " or ".join(words), value))
    # byte order first: a big-endian read ending in the value's low byte and the little-endian
    # read starting there are the pair a person most needs told apart (widths follow)
    return sorted(out, key=lambda pair: not byte_orders(pair.first, pair.second))


__all__ = ["ambiguities"]
