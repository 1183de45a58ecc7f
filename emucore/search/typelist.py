"""The data.json types a memory search tries, and how each one is decoded in bulk.

A search keeps one candidate set per type *string* (``=u4`` stays ``=u4`` in the results), but
types whose byte weights are the same decode identically (``<u4``, ``=u4`` and ``<=u4``; ``><u4``
and ``>=u4``), and a signed type is its unsigned twin reinterpreted. :class:`SearchType` records
the shared decoding key so a snapshot decodes each distinct layout once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from emucore.datatypes import ORDERS, RADIX, DataType, _weights, parse_type

# The built-in list stable-retro's search uses for systems without a ``types`` key (44 types).
_ORDERS_4 = ("<", ">", "><", "<>", ">=", "<=", "=")
DEFAULT_TYPES: tuple[str, ...] = (
    (">d8", ">n8", ">d6", ">n6")
    + tuple(f"{order}{kind}4" for kind in "uidn" for order in _ORDERS_4)
    + tuple(f"{order}{kind}2" for kind in "uid" for order in ("<", ">", "="))
    + ("|u1", "|i1", "|d1")
)
assert len(DEFAULT_TYPES) == 44


def system_types(system: object) -> tuple[str, ...]:
    """The memory-search types of a system descriptor: its ``types``, else :data:`DEFAULT_TYPES`."""
    types = getattr(system, "types", None)
    return tuple(types) if types else DEFAULT_TYPES


def unsigned_dtype(width: int, digits: str = "u") -> np.dtype:
    """The accumulator values of this width and digit kind are decoded in (see :func:`value_dtype`)."""
    if digits == "n":  # at most 99,999,999 for 8 digits
        return np.dtype(np.uint8 if width == 1 else np.uint16 if width <= 4 else np.uint32)
    return np.dtype({1: np.uint8, 2: np.uint16, 3: np.uint32, 4: np.uint32}.get(width, np.uint64))


def value_dtype(width: int, signed: bool, digits: str = "u") -> np.dtype:
    """The numpy dtype a search holds values in: the accumulator, as int64 when 64-bit, signed for
    ``i`` (every value fits ``int64``)."""
    if signed:
        return np.dtype({1: np.int8, 2: np.int16, 3: np.int32, 4: np.int32}.get(width, np.int64))
    found = unsigned_dtype(width, digits)
    return np.dtype(np.int64) if found == np.uint64 else found


@dataclass(frozen=True)
class SearchType:
    """One type string of a search, with the key its bulk decoding is shared under.

    Attributes:
        text: The type string as given (``"=u4"``).
        dtype: The parsed :class:`~emucore.datatypes.DataType`.
        digits: ``"u"`` (whole bytes; also ``i``), ``"d"`` (packed BCD) or ``"n"`` (low nibble).
        order: The byte order, normalised so equal weights give equal orders.
        signed: True for ``i`` types (sign-extended from ``8 * width`` bits).
    """

    text: str
    dtype: DataType
    digits: str
    order: str
    signed: bool

    @property
    def width(self) -> int:
        return self.dtype.width

    @property
    def key(self) -> tuple[str, int, str]:
        """What the unsigned bulk decode depends on: ``(digits, width, order)``."""
        return (self.digits, self.dtype.width, self.order)

    @property
    def value_dtype(self) -> np.dtype:
        return value_dtype(self.dtype.width, self.signed, self.digits)

    @property
    def bounds(self) -> tuple[int, int]:
        """The smallest and largest value a search can see for this type."""
        w = self.width
        if self.signed:
            return -(1 << (8 * w - 1)), (1 << (8 * w - 1)) - 1
        if self.digits == "u":
            return (0, (1 << (8 * w)) - 1) if w < 8 else (-(1 << 63), (1 << 63) - 1)
        return 0, RADIX[self.digits] ** w - 1


def search_type(text: str) -> SearchType:
    """Parses a type string for searching; ValueError for width 0 (it always reads 0)."""
    dtype = parse_type(text)
    if dtype.width == 0:
        raise ValueError(f"type {text!r} has width 0: it always reads 0, there is nothing to search")
    digits = dtype.kind if dtype.kind in ("d", "n") else "u"
    radix = RADIX[digits]
    order = next(o for o in ORDERS if _weights(dtype.width, o, radix) == dtype.weights)
    return SearchType(text, dtype, digits, order, dtype.kind == "i")


def search_types(texts: Iterable[str]) -> tuple[SearchType, ...]:
    """Parses a list of type strings, dropping repeats (the first spelling wins)."""
    seen: dict[str, SearchType] = {}
    for text in texts:
        if text not in seen:
            seen[text] = search_type(text)
    if not seen:
        raise ValueError("a search needs at least one type")
    if len(seen) > 65535:
        raise ValueError("too many types")
    return tuple(seen.values())
