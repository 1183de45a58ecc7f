"""One vocabulary for comparisons: stable-retro's scenario operations, and the memory search's.

:class:`Operation` is stable-retro's ``Operation`` enum, by its scenario.json names. Beside each
member, :data:`MEANINGS` holds what it computes for the scenario evaluator (``op(v, reference)``),
whether it reads the reference, its symbol (``"< {r}"``) and whether it can hold for some value
of a range (the linter's "a test that can never fire").

:data:`MEANINGS` is the one table of what an operation means: the others derive from it. The
native evaluator (``libretro/evaluate.c``) gets each member's C expression (:attr:`Meaning.c`) and
its code, the member's position, from ``libretro/_build.py``, which loads this file at build time
(so it imports nothing outside the standard library).

The memory search compares with a value by the members whose meaning has a :class:`SearchMeaning`
(:data:`VALUE_COMPARISONS`: the same objects) and with a value's earlier self by :class:`Change`.
Its former names ``less`` and ``greater`` are read as ``less-than`` and ``greater-than``
(:data:`OLD_NAMES`).

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


class Change(StrEnum):
    """The memory search's comparisons of a value with its value at an earlier snapshot."""

    INCREASED = "increased"
    DECREASED = "decreased"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    INCREASED_BY = "increased-by"  # by exactly the amount given
    DECREASED_BY = "decreased-by"


@dataclass(frozen=True)
class SearchMeaning:
    """How the memory search compares with a value by an operation.

    The operation must compare by order alone (``op(v, ref)`` depends only on whether ``v`` is less
    than, equal to or greater than ``ref``): a value beyond a type's range then gets the same answer
    from every value of the type, the one at the range's nearest end (``search.ops.outside``).
    """

    ufunc: str  # numpy's elementwise form, by name ("less": np.less)
    title: str  # the studio's button
    change: Change  # the comparison with the earlier value, when no value is given


@dataclass(frozen=True)
class Meaning:
    """What an :class:`Operation` does (see the properties of the same names there)."""

    compute: Callable[[int, int], int]  # (value, reference) -> 1 or 0; -1, 0 or 1 for sign
    takes_reference: bool
    symbol: str
    can_hold: Callable[[int, int, int], bool]  # (reference, low, high)
    c: str  # compute in C: an expression of v and ref (128-bit integers), for libretro/evaluate.c
    search: SearchMeaning | None = None  # the memory search's, for the operations it compares with a value


MEANINGS: dict[Operation, Meaning] = {
    Operation.EQUAL: Meaning(
        lambda v, ref: int(v == ref), True, "== {r}", lambda ref, lo, hi: lo <= ref <= hi, "v == ref",
        SearchMeaning("equal", "=", Change.UNCHANGED)),
    Operation.NEGATIVE_EQUAL: Meaning(
        lambda v, ref: int(v == -ref), True, "== -{r}", lambda ref, lo, hi: lo <= -ref <= hi, "v == -ref"),
    Operation.NOT_EQUAL: Meaning(
        lambda v, ref: int(v != ref), True, "!= {r}", lambda ref, lo, hi: not lo == hi == ref, "v != ref",
        SearchMeaning("not_equal", "\u2260", Change.CHANGED)),
    Operation.LESS_THAN: Meaning(
        lambda v, ref: int(v < ref), True, "< {r}", lambda ref, lo, hi: lo < ref, "v < ref",
        SearchMeaning("less", "<", Change.DECREASED)),
    Operation.GREATER_THAN: Meaning(
        lambda v, ref: int(v > ref), True, "> {r}", lambda ref, lo, hi: hi > ref, "v > ref",
        SearchMeaning("greater", ">", Change.INCREASED)),
    Operation.LESS_OR_EQUAL: Meaning(
        lambda v, ref: int(v <= ref), True, "<= {r}", lambda ref, lo, hi: lo <= ref, "v <= ref"),
    Operation.GREATER_OR_EQUAL: Meaning(
        lambda v, ref: int(v >= ref), True, ">= {r}", lambda ref, lo, hi: hi >= ref, "v >= ref"),
    Operation.NONZERO: Meaning(
        lambda v, ref: int(v != 0), False, "!= 0", lambda ref, lo, hi: not lo == hi == 0, "v != 0"),
    Operation.ZERO: Meaning(
        lambda v, ref: int(v == 0), False, "== 0", lambda ref, lo, hi: lo <= 0 <= hi, "v == 0"),
    Operation.POSITIVE: Meaning(
        lambda v, ref: int(v > 0), False, "> 0", lambda ref, lo, hi: hi > 0, "v > 0"),
    Operation.NEGATIVE: Meaning(
        lambda v, ref: int(v < 0), False, "< 0", lambda ref, lo, hi: lo < 0, "v < 0"),
    Operation.SIGN: Meaning(  # can also be negative: lo < 0
        lambda v, ref: (v > 0) - (v < 0), False, "sign", lambda ref, lo, hi: hi > 0, "(v > 0) - (v < 0)"),
}  # fmt: skip

# The evaluator's table, built once: a term's op is looked up here on every step.
EVALUATE: dict[Operation, Callable[[int, int], int]] = {op: meaning.compute for op, meaning in MEANINGS.items()}


# The operations the memory search compares with a value (or, given none, with the earlier value).
SEARCH_MEANINGS: dict[Operation, SearchMeaning] = {op: m.search for op, m in MEANINGS.items() if m.search}
VALUE_COMPARISONS: tuple[Operation, ...] = tuple(SEARCH_MEANINGS)
SEARCH_OPERATIONS: tuple[Operation | Change, ...] = (*VALUE_COMPARISONS, *Change)
AMOUNTS: tuple[Change, ...] = (Change.INCREASED_BY, Change.DECREASED_BY)  # need the amount
OLD_NAMES: dict[str, Operation] = {"less": Operation.LESS_THAN, "greater": Operation.GREATER_THAN}
_SEARCH_BY_NAME: dict[str, Operation | Change] = {**{str(op): op for op in SEARCH_OPERATIONS}, **OLD_NAMES}


def scenario_operation(name: object) -> Operation | None:
    """The scenario operation called ``name`` (scenario.json's ``op``), or None for any other value."""
    return _BY_NAME.get(name) if isinstance(name, str) else None


_BY_NAME: dict[str, Operation] = {str(op): op for op in Operation}


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
    "SEARCH_MEANINGS",
    "SEARCH_OPERATIONS",
    "VALUE_COMPARISONS",
    "Change",
    "Meaning",
    "Operation",
    "SearchMeaning",
    "scenario_operation",
    "search_operation",
]
