"""Bulk decoding of data.json types from a snapshot's logical bytes, all offsets at once.

``buf`` holds the logical bytes of every block (overlay applied), each block followed by the 7
bytes a multi-byte value starting near its end reads (see :mod:`emucore.search.snapshot`).
A full decode gives one value per offset ``p`` (the value whose first byte is ``buf[p]``). It is
composed from half-width decodes, so ``>u4`` reuses ``>u2`` and ``><d4`` reuses ``<d2``; ``u``
and ``i`` types of width 2, 4 and 8 in plain byte order are numpy's own unaligned loads.
A gather decode computes the values at a few offsets only, from the same byte weights.

Full decodes are written into a :class:`DecodeScratch` of arrays reused from one refinement to the
next: fresh arrays of this size cost more in page faults than the arithmetic does.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

import numpy as np

from emucore.datatypes import RADIX, _weights
from emucore.search.typelist import unsigned_dtype

DIGIT_TABLES: dict[str, np.ndarray] = {
    "u": np.arange(256, dtype=np.uint8),
    "d": np.array([(x & 0xF) % 10 + 10 * ((x >> 4) % 10) for x in range(256)], dtype=np.uint8),
    "n": np.array([(x & 0xF) % 10 for x in range(256)], dtype=np.uint8),
}


def normal_order(width: int, order: str) -> str:
    """The order whose weights are the same as ``order``'s at this width."""
    if width == 1:
        return "little"
    if width == 2 and order in ("LB", "BL"):
        return "little" if order == "LB" else "big"
    return order


class DecodeScratch:
    """Scratch arrays kept between refinements, by name (one per thread: see :func:`decode_scratch`).

    It also keeps the decoders of the last two snapshots decoded, full decodes included: a
    refinement's "current" snapshot is usually the next one's "previous", so each snapshot is
    decoded once however many refinements compare with it.
    """

    MAX_ARRAYS = 256
    SLOTS = 2

    def __init__(self) -> None:
        self._arrays: dict[Hashable, np.ndarray] = {}
        self._decoders: list[BulkDecoder] = []  # least recently used first

    def decoder(self, buf: np.ndarray) -> BulkDecoder:
        """The decoder of ``buf``; it stays valid until :attr:`SLOTS` other buffers were asked for."""
        for i, found in enumerate(self._decoders):
            if found.buf is buf:
                self._decoders.append(self._decoders.pop(i))
                return found
        used = {d.slot for d in self._decoders}
        free = [("decoder", i) for i in range(self.SLOTS) if ("decoder", i) not in used]
        slot = free[0] if free else self._decoders.pop(0).slot
        found = BulkDecoder(buf, self, slot)
        self._decoders.append(found)
        return found

    def array(self, name: Hashable, dtype: np.dtype | type, length: int) -> np.ndarray:
        """The array called ``name``; its contents are whatever the last user left."""
        found = self._arrays.get(name)
        if found is None or found.dtype != dtype or len(found) != length:
            if len(self._arrays) >= self.MAX_ARRAYS:
                self.clear()
            found = self._arrays[name] = np.empty(length, dtype=dtype)
        return found

    def clear(self) -> None:
        self._arrays.clear()
        self._decoders.clear()


_local = threading.local()


def decode_scratch() -> DecodeScratch:
    """This thread's scratch arrays and decoders."""
    found = getattr(_local, "scratch", None)
    if found is None:
        found = _local.scratch = DecodeScratch()
    return found


class BulkDecoder:
    """Decodes every offset of one byte buffer for any ``(digits, width, order)``, caching the
    results for its own lifetime (one refinement) in ``space`` arrays named after ``slot``.

    Two decoders must not share a slot while both are in use.
    """

    def __init__(self, buf: np.ndarray, space: DecodeScratch | None = None, slot: Hashable = 0):
        self.buf = buf
        self.space = space
        self.slot = slot
        self._digits: dict[str, np.ndarray] = {"u": buf}
        self._full: dict[tuple[str, int, str], np.ndarray] = {}

    def _out(self, name: Hashable, dtype: np.dtype | type, length: int) -> np.ndarray:
        if self.space is None:
            return np.empty(length, dtype=dtype)
        return self.space.array((self.slot, name), dtype, length)

    def digits(self, kind: str) -> np.ndarray:
        """The digit value of every byte (``u``: the byte; ``d``: 0-99; ``n``: 0-9)."""
        found = self._digits.get(kind)
        if found is None:
            out = self._out(("digits", kind), np.uint8, len(self.buf))  # mode="clip": take() buffers "raise"
            found = self._digits[kind] = np.take(DIGIT_TABLES[kind], self.buf, out=out, mode="clip")
        return found

    def has_full(self, kind: str, width: int, order: str) -> bool:
        """Whether the full decode of this layout is already there."""
        return (kind, width, normal_order(width, order)) in self._full

    def full(self, kind: str, width: int, order: str) -> np.ndarray:
        """Unsigned values at every offset (``len(buf) - width + 1`` of them), in :func:`unsigned_dtype`."""
        order = normal_order(width, order)
        key = (kind, width, order)
        found = self._full.get(key)
        if found is None:
            found = self._full[key] = self._compose(kind, width, order)
        return found

    def _compose(self, kind: str, width: int, order: str) -> np.ndarray:
        g = self.digits(kind)
        if width == 1:
            return g
        n = len(g) - width + 1
        acc = unsigned_dtype(width, kind)
        if kind == "u" and width in (2, 4, 8) and order in ("little", "big"):
            code = ("<" if order == "little" else ">") + f"u{width}"
            view = np.ndarray((n,), dtype=code, buffer=g, offset=0, strides=(1,))
            out = self._out((kind, width, order), acc, n)
            np.copyto(out, view)
            return out
        radix = RADIX[kind]
        half = width // 2
        if order == "little":
            low = 4 if width > 4 else 2 if width > 2 else 1
            return self._join(kind, width, order, (low, "little", 1), (width - low, "little", radix**low), low)
        if order == "big":
            high = 4 if width > 4 else 2 if width > 2 else 1
            first = (high, "big", radix ** (width - high))
            return self._join(kind, width, order, first, (width - high, "big", 1), high)
        if order == "BL":  # big-endian order of little-endian halves
            first = (half, "little", radix ** (width - half))
            return self._join(kind, width, order, first, (width - half, "little", 1), half)
        # LB: little-endian order of big-endian halves
        return self._join(kind, width, order, (half, "big", 1), (width - half, "big", radix**half), half)

    def _join(self, kind: str, width: int, order: str, first: tuple, second: tuple, shift: int) -> np.ndarray:
        """``first`` at offset p times its weight plus ``second`` at ``p + shift`` times its weight."""
        (w1, o1, k1), (w2, o2, k2) = first, second
        acc = unsigned_dtype(width, kind)
        n = len(self.buf) - width + 1
        a = self.full(kind, w1, o1)[:n]
        b = self.full(kind, w2, o2)[shift : shift + n]
        out = self._out((kind, width, order), acc, n)
        scalar = acc.type
        if k1 != 1:
            np.multiply(a, scalar(k1), out=out)
        else:
            np.copyto(out, a)
        if k2 != 1:
            tmp = self._out(("tmp", acc.str), acc, len(self.buf))[:n]
            np.multiply(b, scalar(k2), out=tmp)
            np.add(out, tmp, out=out)
        else:
            np.add(out, b, out=out)
        return out

    def gather(self, kind: str, width: int, order: str, positions: np.ndarray,
               digits: np.ndarray | None = None) -> np.ndarray:
        """Unsigned values at ``positions`` only (a new array).

        ``digits`` may hold :meth:`gather_digits` of the same positions, shared by the orders.
        """
        order = normal_order(width, order)
        full = self._full.get((kind, width, order))
        if full is not None:
            return full[positions]
        if width == 1:
            source = self._digits.get(kind)
            return source[positions] if source is not None else DIGIT_TABLES[kind][self.buf[positions]]
        acc = unsigned_dtype(width, kind)
        if kind == "u" and width in (2, 4, 8) and order in ("little", "big"):
            code = ("<" if order == "little" else ">") + f"u{width}"
            view = np.ndarray((len(self.buf) - width + 1,), dtype=code, buffer=self.buf, offset=0, strides=(1,))
            return view[positions].astype(acc)
        if digits is None:
            digits = self.gather_digits(kind, width, positions)
        scalar = acc.type
        out = None
        for k, weight in enumerate(_weights(width, order, RADIX[kind])):
            column = digits[:, k].astype(acc)
            if weight != 1:
                column *= scalar(weight)
            if out is None:
                out = column
            else:
                out += column
        assert out is not None
        return out

    def gather_digits(self, kind: str, width: int, positions: np.ndarray) -> np.ndarray:
        """The ``width`` digits from each of ``positions``, as a ``(len(positions), width)`` array."""
        raw = self.buf[positions[:, None] + np.arange(width)]
        return raw if kind == "u" else DIGIT_TABLES[kind][raw]


def to_values(unsigned: np.ndarray, width: int, signed: bool) -> np.ndarray:
    """Unsigned decodes as the values a search compares (see :func:`~emucore.search.typelist.value_dtype`)."""
    if not signed:
        return unsigned.view(np.int64) if unsigned.dtype == np.uint64 else unsigned
    if width in (1, 2, 4, 8):
        return unsigned.view(f"i{unsigned.itemsize}")
    bit = 1 << (8 * width - 1)
    wide = unsigned.astype(np.int32) if width == 3 else unsigned.view(np.int64)
    return (wide ^ bit) - bit
