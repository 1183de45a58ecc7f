"""What :func:`~emucore.assist.solve_value` gives: candidates, the ambiguities between them,
and the shown values they were asked to explain."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class ValueCandidate:
    """A place and type that reads what the screen showed at every checkpoint.

    Attributes:
        address: The data.json address.
        type: The data.json type string (``">d3"``).
        scale: ``shown == stored * scale + bias``; 1, 10, 100 or 1000.
        bias: Usually 0; a few units for values shown off by one (lives shown as stored + 1).
        values: The stored value at each checkpoint.
        exact: The stored bytes are exactly the type's encoding of the value (rule 1), at the
            checkpoints and in the play given as history.
        misfit: How many bytes wider or narrower than the shown digits ask for (rule 4).
        steady: None when no play was given; True when the play between the checkpoints read
            like a score (rare changes, by plausible amounts); False when it did not.
        notes: The evidence in words: what the play showed, why a reading ranks where it does.
        offsets: For each checkpoint, how many frames from it the typed value was read (negative:
            before; :mod:`emucore.assist.value_near`); empty when every one was read where taken.
    """

    address: int
    type: str
    scale: int
    bias: int
    values: tuple[int, ...]
    exact: bool = True
    misfit: int = 0
    steady: bool | None = None
    notes: tuple[str, ...] = ()
    offsets: tuple[int, ...] = ()

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
        if self.steady is False:
            parts.append("volatile in play")
        off = sum(1 for o in self.offsets if o)
        if off:
            parts.append(f"{off} checkpoint{'s' * (off != 1)} read a few frames off")
        return ", ".join(parts)


@dataclass(frozen=True)
class Ambiguity:
    """Two candidates the checkpoints cannot tell apart although they decode differently.

    Attributes:
        first: The one ranked higher.
        second: The other.
        separated_by: What the screen would have to show to tell them apart, in words
            (``"a shown value of 1,000 or more"``, ``"a shown value that does not end in 00"``).
        value: The smallest shown value above those seen that separates them, if one does.
        kind: ``"reading"``: two readings of the same bytes; ``"copies"``: the value kept twice,
            in other bytes (``separated_by`` then says what play showed of the pair and what
            would tell them apart; ``first`` is the one preferred).
    """

    first: ValueCandidate
    second: ValueCandidate
    separated_by: str
    value: int | None = None
    kind: str = "reading"

    def describe(self) -> str:
        """``"can't yet tell |u1 at 0x30 x100 from >d2 at 0x30: wait for a shown value of 1,000 or more"``;
        copies: ``"two copies of the value, >n5 at 0x22 and >n5 at 0x8: ..."``."""
        if self.kind == "copies":
            return (f"two copies of the value, {self.first.describe()} and {self.second.describe()}: "
                    f"{self.separated_by}")
        order = byte_orders(self.first, self.second)
        return (f"can't yet tell {self.first.describe()} from {self.second.describe()}"
                f"{f' ({order})' if order else ''}: wait for {self.separated_by}")


def _bytes_of(candidate: ValueCandidate) -> range:
    return range(candidate.address, candidate.address + int(candidate.type[-1]))


def byte_orders(first: ValueCandidate, second: ValueCandidate) -> str:
    """How two readings differ in byte order, in words, when a big-endian one ends in the byte a
    little-endian one starts with (their least significant byte: ``>d3`` at A-2 and ``<d3`` at A);
    "" otherwise: ``">d3 at 0x3e is big-endian (most significant byte first), <d3 at 0x40
    little-endian; they share their least significant byte, 0x40, and the bytes beside it have
    been 0 so far"``."""
    plain = [c for c in (first, second) if c.type[0] in "<>" and c.type[1] not in "<>=|" and int(c.type[-1]) > 1]
    if len(plain) != 2 or first.type[0] == second.type[0]:
        return ""
    big, little = (first, second) if first.type[0] == ">" else (second, first)
    if _bytes_of(big)[-1] != little.address:
        return ""
    return (f"byte order: {big.type} at {big.address:#x} is big-endian (most significant byte first), "
            f"{little.type} at {little.address:#x} little-endian; they share their least significant byte, "
            f"{little.address:#x}, and the bytes beside it have been 0 so far")


class ValueCandidates(list[ValueCandidate]):
    """The candidates, best first, with :attr:`ambiguities` between the top ones,
    :attr:`played_frames`, the frames of play they were checked on (0: none given), and
    :attr:`screen_read`, what reading the number off the screen gave (``solve_value(screen=...)``:
    a :class:`~emucore.assist.screen_play.ScreenCheckpoints`; None without a reader)."""

    def __init__(self, candidates: Iterable[ValueCandidate] = (), ambiguities: Sequence[Ambiguity] = (),
                 played_frames: int = 0, screen_read: Any = None):
        super().__init__(candidates)
        self.ambiguities: list[Ambiguity] = list(ambiguities)
        self.played_frames = played_frames
        self.screen_read = screen_read


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


__all__ = ["Ambiguity", "Shown", "ValueCandidate", "ValueCandidates", "byte_orders"]
