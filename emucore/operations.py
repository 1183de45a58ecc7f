"""One vocabulary for comparisons: stable-retro's scenario operations, and the memory search's.

:class:`Operation` is stable-retro's ``Operation`` enum, by its scenario.json names. Beside each
member, :data:`MEANINGS` holds what it computes for the scenario evaluator (``op(v, reference)``),
whether it reads the reference, its symbol (``"< {r}"``) and whether it can hold for some value
of a range (the linter's "a test that can never fire").

The memory search compares with a value by four of those members (:data:`VALUE_COMPARISONS`:
the same objects) and with a value's earlier self by :class:`Change`. Its former names ``less``
and ``greater`` are read as ``less-than`` and ``greater-than`` (:data:`OLD_NAMES`).

Members are ``str``: ``Operation.LESS_THAN == "less-than"``, and JSON writes the name as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


class Operation(StrEnum):
    """A scenario term's operation (stable-retro's ``Operation``), valued by its scenario.json name."""

    EQUAL = "equal"
    NEGATIVE_EQUAL = "negative-equal"
    NOT_EQUAL = "not-equal"
    LESS_THAN = "less-than"
    GREATER_THAN = "greater-than"
    LESS_OR_EQUAL = "less-or-equal"
    GREATER_OR_EQUAL = "greater-or-equal"
    NONZERO = "nonzero"
    ZERO = "zero"
    POSITIVE = "positive"
    NEGATIVE = "negative"
    SIGN = "sign"

    @property
    def takes_reference(self) -> bool:
        """Whether the result depends on the term's ``reference``."""
        return MEANINGS[self].takes_reference

    @property
    def symbol(self) -> str:
        """The operation as text after the value, ``{r}`` standing for the reference (``"< {r}"``)."""
        return MEANINGS[self].symbol

    def compute(self, value: int, reference: int) -> int:
        """``op(value, reference)`` as stable-retro's scenario evaluator computes it."""
        return MEANINGS[self].compute(value, reference)

    def can_hold(self, reference: int, low: int, high: int) -> bool:
        """Whether ``op(v, reference)`` is positive for some ``v`` in ``[low, high]``."""
        return MEANINGS[self].can_hold(reference, low, high)


@dataclass(frozen=True)
class Meaning:
    """What an :class:`Operation` does (see the properties of the same names there)."""

    compute: Callable[[int, int], int]  # (value, reference) -> 1 or 0; -1, 0 or 1 for sign
    takes_reference: bool
    symbol: str
    can_hold: Callable[[int, int, int], bool]  # (reference, low, high)


MEANINGS: dict[Operation, Meaning] = {
    Operation.EQUAL: Meaning(
        lambda v, ref: int(v == ref), True, "== {r}", lambda ref, lo, hi: lo <= ref <= hi),
    Operation.NEGATIVE_EQUAL: Meaning(
        lambda v, ref: int(v == -ref), True, "== -{r}", lambda ref, lo, hi: lo <= -ref <= hi),
    Operation.NOT_EQUAL: Meaning(
        lambda v, ref: int(v != ref), True, "!= {r}", lambda ref, lo, hi: not lo == hi == ref),
    Operation.LESS_THAN: Meaning(
        lambda v, ref: int(v < ref), True, "< {r}", lambda ref, lo, hi: lo < ref),
    Operation.GREATER_THAN: Meaning(
        lambda v, ref: int(v > ref), True, "> {r}", lambda ref, lo, hi: hi > ref),
    Operation.LESS_OR_EQUAL: Meaning(
        lambda v, ref: int(v <= ref), True, "<= {r}", lambda ref, lo, hi: lo <= ref),
    Operation.GREATER_OR_EQUAL: Meaning(
        lambda v, ref: int(v >= ref), True, ">= {r}", lambda ref, lo, hi: hi >= ref),
    Operation.NONZERO: Meaning(
        lambda v, ref: int(v != 0), False, "!= 0", lambda ref, lo, hi: not lo == hi == 0),
    Operation.ZERO: Meaning(
        lambda v, ref: int(v == 0), False, "== 0", lambda ref, lo, hi: lo <= 0 <= hi),
    Operation.POSITIVE: Meaning(
        lambda v, ref: int(v > 0), False, "> 0", lambda ref, lo, hi: hi > 0),
    Operation.NEGATIVE: Meaning(
        lambda v, ref: int(v < 0), False, "< 0", lambda ref, lo, hi: lo < 0),
    Operation.SIGN: Meaning(  # can also be negative: lo < 0
        lambda v, ref: (v > 0) - (v < 0), False, "sign", lambda ref, lo, hi: hi > 0),
}  # fmt: skip

# The evaluator's table, built once: a term's op is looked up here on every step.
EVALUATE: dict[Operation, Callable[[int, int], int]] = {op: meaning.compute for op, meaning in MEANINGS.items()}


class Change(StrEnum):
    """The memory search's comparisons of a value with its value at an earlier snapshot."""

    INCREASED = "increased"
    DECREASED = "decreased"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    INCREASED_BY = "increased-by"  # by exactly the amount given
    DECREASED_BY = "decreased-by"


# The operations the memory search compares with a value (or, given none, with the earlier value).
VALUE_COMPARISONS: tuple[Operation, ...] = (
    Operation.EQUAL, Operation.NOT_EQUAL, Operation.LESS_THAN, Operation.GREATER_THAN)
SEARCH_OPERATIONS: tuple[Operation | Change, ...] = (*VALUE_COMPARISONS, *Change)
AMOUNTS: tuple[Change, ...] = (Change.INCREASED_BY, Change.DECREASED_BY)  # need the amount
OLD_NAMES: dict[str, Operation] = {"less": Operation.LESS_THAN, "greater": Operation.GREATER_THAN}
_SEARCH_BY_NAME: dict[str, Operation | Change] = {**{str(op): op for op in SEARCH_OPERATIONS}, **OLD_NAMES}


def search_operation(name: str) -> Operation | Change:
    """The memory search's operation called ``name``, a former name (``less``) included.

    Raises:
        ValueError: no search operation has that name.
    """
    found = _SEARCH_BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown refinement {name!r}; use one of {', '.join(SEARCH_OPERATIONS)}")
    return found


__all__ = [
    "AMOUNTS",
    "EVALUATE",
    "MEANINGS",
    "OLD_NAMES",
    "SEARCH_OPERATIONS",
    "VALUE_COMPARISONS",
    "Change",
    "Meaning",
    "Operation",
    "search_operation",
]
