"""stable-retro's memory search (``GameData.search``, ``delta_search``, the ``Search`` object), with
its results exactly: the same candidates, types, scalings, duplicates and order.

A value search looks for the value's bytes (and the bytes of value/10**k, value/16**k, value*2,
value*4, value±1 and its BCD and low-nibble BCD forms), then keeps each (address, mult, div, bias)
under each of the search's types whose decoded value, scaled back, equals the value. A delta search
keeps each (address, type) whose value changed since the search's last memory snapshot as ``op``
and ``reference`` say. Both intersect with the results so far. stable-retro's quirks are kept
deliberately, since they decide the results: the first byte is matched on raw memory but the next
ones through the overlay, a candidate that runs past its block's end stops that type's scan of
the later blocks, the non-BCD scaling divides as unsigned 64-bit, and a BCD type scales by the
BCD reading of mult and div.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from emucore.datatypes import DataType, InvalidTypeError, parse_type
from emucore.host.memory import AddressSpace
from emucore.scenario.info_order import StringTable

U64 = (1 << 64) - 1

STABLE_RETRO_DEFAULT_TYPES = (
    ">d8", ">n8", ">d6", ">n6",
    "<u4", ">u4", "><u4", "<>u4", ">=u4", "<=u4", "=u4",
    "<i4", ">i4", "><i4", "<>i4", ">=i4", "<=i4", "=i4",
    "<d4", ">d4", "><d4", "<>d4", ">=d4", "<=d4", "=d4",
    "<n4", ">n4", "><n4", "<>n4", ">=n4", "<=n4", "=n4",
    "<u2", ">u2", "=u2", "<i2", ">i2", "=i2", "<d2", ">d2", "=d2",
    "|u1", "|i1", "|d1",
)  # stable-retro's s_defaultTypes, in its order (the order of results that tie)

# stable-retro's delta-search ops, its quirks kept on purpose (sign is nonzero, negative-equal wraps): not MEANINGS
STABLE_RETRO_DELTA_OPS = {
    "equal": lambda d, r: d == r, "negative-equal": lambda d, r: d == _wrap(-r),
    "not-equal": lambda d, r: d != r, "less-than": lambda d, r: d < r,
    "greater-than": lambda d, r: d > r, "less-or-equal": lambda d, r: d <= r,
    "greater-or-equal": lambda d, r: d >= r, "nonzero": lambda d, r: d != 0,
    "zero": lambda d, r: d == 0, "negative": lambda d, r: d < 0,
    "positive": lambda d, r: d > 0, "sign": lambda d, r: d != 0,
}


def _wrap(value: int) -> int:
    value &= U64
    return value - (1 << 64) if value >> 63 else value


def _int64(value: object, argument: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{argument} must be an int, not {type(value).__name__}")
    if not -(1 << 63) <= int(value) < (1 << 63):
        raise OverflowError(f"{argument} {value} does not fit a signed 64-bit integer")
    return int(value)


def _cdiv(a: int, b: int) -> int:
    """C's integer division, truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _to_bcd(value: int, digit_bits: int) -> int:
    """stable-retro's toBcd (4 bits a digit) / toLNBcd (8): C's truncating % and /, int64 wrap
    (a shift of 64 bits or more is taken modulo 64, as x86 does)."""
    out, shift = 0, 0
    while value:
        digit = value - _cdiv(value, 10) * 10
        out = _wrap(out | _wrap(digit << ((shift * digit_bits) & 63)))
        shift += 1
        value = _cdiv(value, 10)
    return out


def _is_bcd(value: int) -> bool:
    half = (value >> 1) & 0x7777777777777777
    return not ((half + 0x3333333333333333) & 0x8888888888888888)


def _bcd_reading(value: int) -> int:
    """``DataType("=d8").decode`` of the 8 bytes of a uint64."""
    return sum(((b & 0xF) % 10 + (b >> 4) % 10 * 10) * 100**k for k, b in enumerate(value.to_bytes(8, "little")))


@cache
def type_key(text: str) -> tuple[int, str, str]:
    """What stable-retro's ``DataType ==`` compares: width, byte order and representation."""
    first, second = text[0], text[1]
    if first == ">":
        endian = {"<": "BL", "=": "BN"}.get(second, "B")
    elif first == "<":
        endian = {">": "LB", "=": "LN"}.get(second, "L")
    else:
        endian = "N" if first == "=" else "U"
    return ord(text[-1]) - ord("0"), endian, text[-2]


def checked_type(text: object, argument: str = "type") -> DataType:
    if not isinstance(text, str):
        raise TypeError(f"{argument} must be a type string such as '>u2', not {type(text).__name__}")
    try:
        return parse_type(text)
    except InvalidTypeError as e:
        raise ValueError(f"{argument}: {e}") from None


_DIGITS = {
    "d": np.array([(b & 0xF) % 10 + (b >> 4) % 10 * 10 for b in range(256)], np.uint64),
    "n": np.array([(b & 0xF) % 10 for b in range(256)], np.uint64),
}
_BYTES = np.arange(256, dtype=np.uint64)


def decode_at(logical: np.ndarray, offsets: np.ndarray, dtype: DataType) -> np.ndarray:
    """The int64 values of ``dtype`` at ``offsets`` of a block's logical bytes (DataType::decode)."""
    digits = _DIGITS.get(dtype.kind, _BYTES)
    acc = np.zeros(len(offsets), np.uint64)
    for k, weight in enumerate(dtype.weights):
        acc += digits[logical[offsets + k]] * np.uint64(weight)
    if dtype.kind == "i" and dtype.width < 8:
        bits = np.uint64(8 * dtype.width)
        acc -= ((acc >> (bits - np.uint64(1))) & np.uint64(1)) << bits
    return acc.view(np.int64)


@dataclass
class Frame:
    """The blocks of an address space: their starts, raw bytes and bytes as read through the overlay."""

    starts: list[int]
    raw: list[np.ndarray]
    logical: list[np.ndarray]

    @classmethod
    def of(cls, memory: AddressSpace, copy: bool = False) -> Frame:
        starts, raw, logical = [], [], []
        overlay = memory.overlay
        for block in memory.blocks:
            data = np.array(block.data, np.uint8) if copy else np.asarray(block.data, np.uint8)
            starts.append(block.start)
            raw.append(data)
            if overlay is not None and overlay.swaps and len(data):
                index = np.arange(len(data))
                w = overlay.width
                where = index - index % w + (w - 1 - index % w)
                inside = where < len(data)
                logical.append(np.where(inside, data[np.minimum(where, len(data) - 1)], 0).astype(np.uint8))
            else:
                logical.append(data)
        return cls(starts, raw, logical)

    def block_at(self, start: int) -> int:
        """stable-retro's ``AddressSpace::block``: the block holding address ``start``."""
        for i, s in enumerate(self.starts):
            if s <= start < s + len(self.raw[i]):
                return i
        raise IndexError(f"no block holds address {start:#x} in the search's previous memory")

    def logical_bytes(self, addresses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(mapped, logical byte) of each address; unmapped ones read 0."""
        mapped = np.zeros(len(addresses), bool)
        values = np.zeros(len(addresses), np.uint8)
        for start, data in zip(self.starts, self.logical):
            inside = ~mapped & (addresses >= start) & (addresses < start + len(data))
            values[inside] = data[addresses[inside] - start]
            mapped |= inside
        return mapped, values

    def search_byte(self, value: int, addresses: np.ndarray | None = None, offset: int = 0) -> np.ndarray:
        """Search::searchByte: every raw byte equal to ``value``, or the neighbours at ``offset`` of
        ``addresses`` whose byte (through the overlay) is ``value``. A set, sorted."""
        if addresses is None:
            found = [np.flatnonzero(data == value) + start for start, data in zip(self.starts, self.raw)]
            return np.unique(np.concatenate(found)) if found else np.zeros(0, np.int64)
        moved = addresses + offset
        mapped_from, _ = self.logical_bytes(addresses)
        mapped_to, values = self.logical_bytes(moved)
        keep = mapped_from & mapped_to & (values == value) & (moved >= 0)
        return np.unique(moved[keep])


def search_value(frame: Frame, value: int) -> np.ndarray:
    """Search::searchValue: addresses where ``value``'s bytes (little-endian or big-endian, maybe
    after leading zero bytes) may start. A superset: the types decide afterwards."""
    unsigned = value & U64
    if value < 0:
        for bound, mask in ((0x100, 0xFF), (0x10000, 0xFFFF), (0x100000000, 0xFFFFFFFF)):
            if value > -bound:
                unsigned = value & mask
                break
    start = end = np.zeros(0, np.int64)
    nbytes = 0
    while unsigned or not nbytes:
        nbytes += 1
        byte = unsigned & 0xFF
        if len(start) and len(end):
            start = np.union1d(start, frame.search_byte(byte, start, -1))
            end = np.union1d(end, frame.search_byte(byte, end, 1))
        else:
            start = end = frame.search_byte(byte)
        unsigned >>= 8
    results = np.intersect1d(start, end - (nbytes - 1))
    wide = np.zeros(0, np.int64)
    for extra in range(4 - nbytes):
        if len(wide):
            wide = np.union1d(wide, frame.search_byte(0, wide, -1))
        elif not extra and len(start):
            wide = frame.search_byte(0, start, -1)
        else:
            break
    return np.union1d(results, wide)


def scaled_candidates(frame: Frame, value: int) -> list[tuple[int, int, int, int]]:
    """Search::search's (address, mult, div, bias) candidates, sorted and unique."""
    found: list[tuple[np.ndarray, int, int, int]] = [(search_value(frame, value), 1, 1, 0)]

    def shrink(v: int, divisor: int, step: int, scale_shift: int = 0) -> None:
        scale = 1
        while v and not (v % divisor if divisor == 10 else v & 0xF):
            v = _cdiv(v, 10) if divisor == 10 else v >> step
            scale = scale * 10 if divisor == 10 else _wrap(scale << step)
            found.append((search_value(frame, v), 1, scale & U64, 0))

    shrink(value, 10, 0)
    shrink(value, 16, 4)
    v2, scale = value, 1
    while v2 and v2 < 0x100000000 and scale < 4:
        v2, scale = _wrap(v2 << 1), scale << 1
        found.append((search_value(frame, v2), scale, 1, 0))
    found.append((search_value(frame, _wrap(value + 1)), 1, 1, 1))
    found.append((search_value(frame, _wrap(value - 1)), 1, 1, -1))
    for bits in (4, 8):
        coded = _to_bcd(value, bits)
        if coded != value:
            found.append((search_value(frame, coded), 1, 1, 0))
            shrink(coded, 16, bits)
    rows = {(int(a), mult, div, bias) for addresses, mult, div, bias in found for a in addresses}
    return sorted(rows)


class Search:
    """stable-retro's ``Search``: typed results ``(address, mult, div, bias, type)`` kept sorted by
    (address, mult, div, bias), ties in the order of the types."""

    def __init__(self, types: Iterable[str] | None = None):
        texts = STABLE_RETRO_DEFAULT_TYPES if types is None else tuple(types)
        for i, text in enumerate(texts):
            checked_type(text, f"types[{i}]")
        self.types: list[str] = list(texts)
        self.current: list[tuple[int, int, int, int, str]] = []
        self.started = False

    # ---- stable-retro's Python methods ----

    def num_results(self) -> int:
        return len(self.current)

    def has_unique_result(self) -> bool:
        if not self.current:
            return False
        first = self.current[0]
        first_end = first[0] + parse_type(first[4]).width - 1
        for result in self.current:
            if result[:4] == first[:4]:
                continue
            if result[0] + parse_type(result[4]).width - 1 != first_end:
                return False
        return True

    def unique_result(self) -> dict[str, int | str]:
        """The first result as a variable (stable-retro reads past an empty vector here: IndexError)."""
        if not self.current:
            raise IndexError("unique_result: the search has no results")
        address, _, _, _, text = self.current[0]
        return {"address": address, "type": text[:4]}

    def typed_results(self) -> list[tuple[tuple[int, int, int, int], list[str]]]:
        """``[((address, mult, div, bias), [type, ...]), ...]``, the types of each in the order of
        stable-retro's ``std::unordered_set<DataType>``."""
        out: list[tuple[tuple[int, int, int, int], list[str]]] = []
        groups: dict[tuple[int, int, int, int], _TypeSet] = {}
        for address, mult, div, bias, text in self.current:
            groups.setdefault((address, mult, div, bias), _TypeSet()).add(text)
        for key in sorted(groups):
            out.append((key, list(groups[key])))
        return out

    # ---- searching ----

    def search(self, memory: AddressSpace, value: int) -> None:
        value = _int64(value, "value")
        frame = Frame.of(memory)
        candidates = scaled_candidates(frame, value)
        matches: list[tuple[int, int, int, int, str]] = []
        order: list[tuple[int, int]] = []
        if candidates:
            table = np.array([c[0] for c in candidates], np.int64)
            mults = np.array([c[1] for c in candidates], np.uint64)
            divs = np.array([c[2] & U64 for c in candidates], np.uint64)
            biases = np.array([c[3] for c in candidates], np.int64)
            combos = {(m, d): (_is_bcd(m) and _is_bcd(d), _bcd_reading(m), _bcd_reading(d))
                      for m, d in {c[1:3] for c in candidates}}
            bcd = tuple(np.array([combos[c[1:3]][k] for c in candidates], t) for k, t in
                        enumerate((bool, np.int64, np.int64)))
            for rank, text in enumerate(self.types):
                dtype = parse_type(text)
                for index in self._reduce(frame, table, mults, divs, biases, dtype, value, bcd):
                    order.append((index, rank))
                    matches.append((*candidates[index], text))
        ranked = sorted(range(len(matches)), key=lambda i: order[i])
        self._intersect([matches[i] for i in ranked])

    def _reduce(self, frame: Frame, addresses: np.ndarray, mults: np.ndarray, divs: np.ndarray,
                biases: np.ndarray, dtype: DataType, value: int, bcd: tuple[np.ndarray, ...]) -> list[int]:
        """Search::reduceOnTypes for one type: indices of the candidates it reads as ``value``."""
        kept: list[int] = []
        width, cursor = dtype.width, 0
        for start, logical in zip(frame.starts, frame.logical):
            size = len(logical)
            if cursor >= len(addresses) or addresses[cursor] + width < start:
                break  # stable-retro's unsigned width + address - start wraps: every later block stops too
            stop = int(np.searchsorted(addresses, start + size - width, "right"))
            stop = max(stop, cursor)
            span = np.arange(cursor, stop)
            span = span[addresses[span] >= start]
            cursor = stop
            if not len(span):
                continue
            read = decode_at(logical, addresses[span] - start, dtype)
            if dtype.kind == "d":
                usable, bcd_mults, bcd_divs = bcd
                # non-negative (BCD reads never are), so C's truncating division is floor division
                scaled = read // bcd_mults[span] * bcd_divs[span] - biases[span]
                hit = usable[span] & (scaled == value)
            else:
                scaled = (read.view(np.uint64) // mults[span]) * divs[span]
                hit = (scaled.view(np.int64) - biases[span]) == value
            kept.extend(int(i) for i in span[hit])
        return kept

    def delta(self, memory: AddressSpace, previous: Frame, op: str, reference: int) -> None:
        """Search::delta: keeps (address, type) whose value minus its value in ``previous`` passes ``op``."""
        if not isinstance(op, str) or op not in STABLE_RETRO_DELTA_OPS:
            raise ValueError(f"op must be one of {sorted(STABLE_RETRO_DELTA_OPS)}, not {op!r}")
        reference = _int64(reference, "ref")
        frame = Frame.of(memory)
        test = STABLE_RETRO_DELTA_OPS[op]
        found: list[tuple[int, int, str]] = []  # (address, type rank, type)
        kept_types: list[str] = []
        by_type: dict[tuple[int, str, str], list[int]] = {}
        for result in self.current:
            by_type.setdefault(type_key(result[4]), []).append(result[0])
        for rank, text in enumerate(self.types):
            dtype, key = parse_type(text), type_key(text)
            for start, logical in zip(frame.starts, frame.logical):
                old = previous.logical[previous.block_at(start)]
                size = len(logical)
                if self.started:
                    addresses = np.array(by_type.get(key, []), np.int64)
                    offsets = addresses[(addresses >= start) & (addresses <= start + size - dtype.width)] - start
                    if not len(offsets):
                        continue
                else:
                    offsets = np.arange(max(size - dtype.width + 1, 0), dtype=np.int64)
                inside = offsets + dtype.width <= len(old)
                change = np.zeros(len(offsets), np.int64)
                change[inside] = decode_at(logical, offsets[inside], dtype) - decode_at(old, offsets[inside], dtype)
                hit = test(change, reference) & inside
                if hit.any() and (not kept_types or type_key(kept_types[-1]) != key):
                    kept_types.append(text)
                found.extend((int(o) + start, rank, text) for o in offsets[hit])
        self.types = kept_types
        found.sort(key=lambda f: f[0])  # a stable sort: the multimap keeps ties in insertion order
        self._intersect([(address, 1, 1, 0, text) for address, _, text in found])

    def _intersect(self, results: list[tuple[int, int, int, int, str]]) -> None:
        """Search::intersectCurrent: both lists are sorted, so it keeps the new results (duplicates
        included) that equal an old one, comparing types as stable-retro's DataType does."""
        if self.started:
            old = {(*r[:4], type_key(r[4])) for r in self.current}
            results = [r for r in results if (*r[:4], type_key(r[4])) in old]
        self.current = results
        self.started = True


class _TypeSet(StringTable):
    """The type strings of a ``std::unordered_set<DataType>`` in iteration order: the hash is the
    type's first four characters read as a little-endian uint32 (libstdc++'s identity hash)."""

    def hash_key(self, key: str) -> int:
        return int.from_bytes(key.encode("latin-1")[:4].ljust(4, b"\0"), "little")

    add = StringTable.insert
