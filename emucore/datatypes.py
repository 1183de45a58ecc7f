"""data.json type strings (``|u1``, ``>u2``, ``<d4``, ``><u4``, ``>n6`` ...): parse, decode, encode.

The rules are stable-retro's parser as it behaves, not as its docs describe it: the width is
the last character, the kind the one before it (``u``, ``i``, ``d`` packed BCD, ``n`` low-nibble
BCD, anything else acts as ``u``), and the byte order comes from the first two characters.
Values wrap like C int64; only ``i`` is sign-extended; the mask is ANDed, not shifted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

U64 = (1 << 64) - 1
ALL_ONES = U64
RADIX = {"u": 256, "i": 256, "d": 100, "n": 10}
# LB: little-endian order of big-endian halves; BL: big-endian order of little-endian halves
ByteOrder = Literal["little", "big", "LB", "BL"]
ORDERS: tuple[ByteOrder, ...] = ("little", "big", "LB", "BL")


def _to_int64(value: int) -> int:
    value &= U64
    return value - (1 << 64) if value >> 63 else value


def _order(text: str) -> ByteOrder:
    first, second = text[0], text[1]
    if first == ">":
        return "BL" if second in "<=" else "big"
    if first == "<":
        return "LB" if second == ">" else "little"
    return "little"  # "=" (native on a little-endian host), "|" and anything else


def _weights(width: int, order: str, radix: int) -> tuple[int, ...]:
    w = [0] * width
    half = width // 2
    if order == "little":
        w = [radix**k for k in range(width)]
    elif order == "big":
        w = [radix ** (width - 1 - k) for k in range(width)]
    elif order == "LB":  # little-endian order of big-endian halves
        for j in range(half):
            w[half - 1 - j] = radix**j
        for j in range(width - half):
            w[width - 1 - j] = radix ** (half + j)
    else:  # BL: big-endian order of little-endian halves
        for j in range(width - half):
            w[half + j] = radix**j
        for j in range(half):
            w[j] = radix ** (width - half + j)
    return tuple(w)


@dataclass(frozen=True)
class DataType:
    """A parsed type string."""

    text: str
    width: int
    kind: str  # "u", "i", "d" or "n"
    order: ByteOrder
    weights: tuple[int, ...]

    @property
    def signed(self) -> bool:
        return self.kind == "i"

    def digit(self, byte: int) -> int:
        if self.kind == "d":
            return (byte & 0xF) % 10 + 10 * ((byte >> 4) % 10)
        if self.kind == "n":
            return (byte & 0xF) % 10
        return byte

    def decode(self, data: bytes | bytearray | memoryview, mask: int = ALL_ONES) -> int:
        """The value of ``width`` logical bytes, as stable-retro reads it."""
        if self.kind in "ui" and self.order in ("little", "big"):
            value = int.from_bytes(data[: self.width], self.order)
        else:
            digit = self.digit
            value = sum(digit(b) * w for b, w in zip(data, self.weights))
        if self.kind == "i" and self.width:
            bits = 8 * self.width
            value &= (1 << bits) - 1
            if value >> (bits - 1):
                value -= 1 << bits
        value = _to_int64(value)
        if mask != ALL_ONES:
            value = _to_int64((value & U64) & mask)
        return value

    def encode(self, value: int) -> bytes:
        """The ``width`` logical bytes stable-retro writes for ``value`` (mask not applied)."""
        u = int(value) & U64
        out = bytearray(self.width)
        for k, weight in enumerate(self.weights):
            q = u // weight
            if self.kind == "d":
                out[k] = (q % 10) + 16 * ((q // 10) % 10)
            elif self.kind == "n":
                out[k] = q % 10
            else:
                out[k] = q % 256
        return bytes(out)


class InvalidTypeError(ValueError):
    """A type string stable-retro would not accept (its variable is skipped there)."""


@lru_cache(maxsize=512)
def parse_type(text: str) -> DataType:
    """Parses a data.json type string; raises InvalidTypeError for one stable-retro skips."""
    if not isinstance(text, str) or len(text) < 3:
        raise InvalidTypeError(f"type {text!r} is shorter than 3 characters")
    width = ord(text[-1]) - ord("0")
    if not 0 <= width <= 8:
        raise InvalidTypeError(f"type {text!r}: the width (last character) must be a digit 0-8")
    kind = text[-2] if text[-2] in RADIX else "u"
    order = _order(text)
    return DataType(text, width, kind, order, _weights(width, order, RADIX[kind]))


WELL_FORMED_PREFIXES = (">", "<", "=", "><", "<>", ">=", "<=", "=>", "=<")


def is_well_formed(text: str) -> bool:
    """True for the forms stable-retro's verifier accepts without comment."""
    if len(text) == 3 and text[0] == "|" and text[1] in "dinu" and text[2] == "1":
        return True
    prefix, kind, width = text[:-2], text[-2:-1], text[-1:]
    return prefix in WELL_FORMED_PREFIXES and kind in ("d", "i", "n", "u") and width in "2345678"
