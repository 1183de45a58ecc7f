"""The memory search's comparisons, each derived from its meaning (:data:`emucore.operations.MEANINGS`).

A value comparison compares each value with a Python int by its meaning's numpy ufunc; given no value, with the
value at an earlier snapshot, as the :class:`~emucore.operations.Change` its meaning names (``less-than``:
``decreased``), by the same ufunc. Increased-by and decreased-by compare the difference.
"""

from __future__ import annotations

import numpy as np

from emucore.operations import AMOUNTS, SEARCH_MEANINGS, Change, Operation, search_operation

# The value comparisons, each with the comparison with the reference snapshot it stands for given no value
# (keyed by StrEnum members, looked up by their str values).
PAIR_OP: dict[str, Change] = {op: meaning.change for op, meaning in SEARCH_MEANINGS.items()}
BY = "by"  # the kind of increased-by and decreased-by: changed by exactly the operand


def normalize(op: str, value: int | None) -> tuple[str, int | None]:
    """``(kind, operand)``: kind is a value comparison (``equal``...), a snapshot one
    (``changed``...) or :data:`BY` (the operand the exact change).

    Raises:
        ValueError: an unknown op, a value where none is allowed or none where one is needed.
    """
    op = search_operation(op)
    if op in AMOUNTS:
        if value is None:
            raise ValueError(f"{op} needs a value (the amount)")
        delta = int(value) if op == Change.INCREASED_BY else -int(value)
        if not -(1 << 63) < delta < (1 << 63):
            raise ValueError(f"{op} {value}: the amount is out of range")
        return (Change.UNCHANGED, None) if delta == 0 else (BY, delta)
    if op in PAIR_OP:
        return (op, int(value)) if value is not None else (PAIR_OP[op], None)
    if value is not None:
        raise ValueError(f"{op} compares with the previous snapshot and takes no value (use {op}-by?)")
    return op, None


_UFUNCS: dict[str, np.ufunc] = {op: getattr(np, meaning.ufunc) for op, meaning in SEARCH_MEANINGS.items()}


def outside(op: str, value: int, low: int, high: int) -> bool | None:
    """The answer for every value in ``[low, high]`` when ``value`` is outside that range, else None.

    A search comparison compares by order alone (:class:`emucore.operations.SearchMeaning`): every
    value of the range is on the same side of ``value``, so all answer as the range's ends do. None
    too where the two ends disagree (an operation that is no order comparison: compare each value).
    """
    if low <= value <= high:
        return None
    compute = Operation(op).compute
    at_low, at_high = compute(low, value) > 0, compute(high, value) > 0
    return at_low if at_low == at_high else None


def compare_value(values: np.ndarray, op: str, value: int, out: np.ndarray | None = None) -> np.ndarray:
    """``values <op> value`` for a Python int that may not fit the array's dtype."""
    info = np.iinfo(values.dtype)
    if info.min <= value <= info.max:
        return _UFUNCS[op](values, values.dtype.type(value), out=out)
    every = outside(op, value, int(info.min), int(info.max))
    if every is None:  # no order comparison (see outside): each value as a Python int
        compute = Operation(op).compute
        every = np.frompyfunc(lambda v: compute(int(v), value) > 0, 1, 1)(values).astype(bool)
    if out is None:
        return np.full(values.shape, every, dtype=bool)
    out[...] = every
    return out


# A snapshot comparison by the ufunc of the value comparison it stands in for (changed: not-equal).
_SNAPSHOT_UFUNCS: dict[str, np.ufunc] = {change: _UFUNCS[op] for op, change in PAIR_OP.items()}


def compare_pair(current: np.ndarray, previous: np.ndarray, op: str, delta: int | None,
                 out: np.ndarray | None = None) -> np.ndarray:
    """Whether each value moved as ``op`` says (``by``: changed by exactly ``delta``)."""
    ufunc = _SNAPSHOT_UFUNCS.get(op)
    if ufunc is not None:
        return ufunc(current, previous, out=out)
    assert delta is not None
    high, low = (current, previous) if delta > 0 else (previous, current)
    amount = abs(delta)
    unsigned = np.dtype(f"u{current.dtype.itemsize}")
    if amount > np.iinfo(unsigned).max:  # more than any two values of this width differ by
        if out is None:
            return np.zeros(current.shape, dtype=bool)
        out[...] = False
        return out
    # high - low wraps in the values' own width, but when high > low the true difference is below
    # 2**bits, so the wrapped one read as unsigned is exact
    keep = np.equal((high - low).view(unsigned), unsigned.type(amount), out=out)
    keep &= high > low
    return keep
