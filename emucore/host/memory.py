"""The address space of a game: data.json addresses mapped onto the core's memory.

Blocks come from the core's SET_MEMORY_MAPS descriptors when it sends them, or else one block
at the system's ``rambase`` holding the core's SYSTEM_RAM, exactly as stable-retro builds them.
Reads and writes go through the system's overlay (Genesis: ``logical[a] = raw[a ^ 1]``).

Where stable-retro leaves a multi-byte access that runs past a block's end undefined, the bytes
come from the next block if it starts exactly there, and read as 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import overload

import numpy as np

from emucore.datatypes import ALL_ONES, parse_type
from emucore.errors import UnmappedAddressError


@dataclass
class Block:
    start: int
    data: np.ndarray  # uint8, a view of core memory (or zeros for a NULL descriptor)

    @property
    def end(self) -> int:
        return self.start + len(self.data)


class Overlay:
    """stable-retro's ``[backing, real, width]`` byte rearrangement."""

    def __init__(self, backing: str, real: str, width: int):
        def endian(c: str) -> str:
            return "big" if c == ">" else "little"  # "=" is native: little on every host we run on

        self.width = int(width)
        self.swaps = endian(backing) != endian(real) and self.width > 1

    @overload
    def raw_offset(self, logical: int) -> int: ...
    @overload
    def raw_offset(self, logical: np.ndarray) -> np.ndarray: ...
    def raw_offset(self, logical: int | np.ndarray) -> int | np.ndarray:
        """The raw offset of logical byte offset ``logical``, or of each in an array of them."""
        if not self.swaps:
            return logical
        w = self.width
        return logical - logical % w + (w - 1 - logical % w)


class AddressSpace:
    """data.json addresses over the core's memory blocks (stable-retro's ``Memory``)."""

    def __init__(self, blocks: Iterable[Block], overlay: tuple[str, str, int] | Overlay | None = None):
        self.blocks = sorted(blocks, key=lambda b: b.start)
        self.overlay = Overlay(*overlay) if isinstance(overlay, tuple) else overlay
        self._readers: dict[tuple[int, str, int], Callable[[], int]] = {}

    # ---- lookup ----

    def locate(self, address: int) -> tuple[int, int]:
        """(block index, offset) of an address; UnmappedAddressError (an IndexError) if unmapped."""
        for i, block in enumerate(self.blocks):
            if address < block.start:
                break
            if address - block.start < len(block.data):
                return i, address - block.start
        raise UnmappedAddressError(address)

    def is_mapped(self, address: int) -> bool:
        try:
            self.locate(address)
        except UnmappedAddressError:
            return False
        return True

    def _raw_index(self, index: int, offset: int) -> tuple[int, int] | None:
        """Where logical byte ``offset`` of block ``index`` lives, following contiguous blocks."""
        while True:
            block = self.blocks[index]
            size = len(block.data)
            if offset < size:
                raw = self.overlay.raw_offset(offset) if self.overlay else offset
                return (index, raw) if raw < size else None
            nxt = index + 1
            if nxt >= len(self.blocks) or self.blocks[nxt].start != block.end:
                return None
            offset -= size
            index = nxt

    def places(self, address: int, width: int) -> list[tuple[int, int] | None]:
        """(block index, raw offset) of each of ``width`` logical bytes from ``address``, None for a
        byte past mapped memory (it reads 0); UnmappedAddressError if ``address`` is unmapped."""
        index, offset = self.locate(address)
        return [self._raw_index(index, offset + k) for k in range(width)]

    def read_bytes(self, address: int, count: int) -> bytes:
        """``count`` logical bytes from ``address`` (only the first byte must be mapped)."""
        index, offset = self.locate(address)
        block = self.blocks[index].data
        if self.overlay is None and offset + count <= len(block):
            return block[offset : offset + count].tobytes()
        out = bytearray(count)
        for k in range(count):
            where = self._raw_index(index, offset + k)
            if where is not None:
                out[k] = self.blocks[where[0]].data[where[1]]
        return bytes(out)

    def write_bytes(self, address: int, data: bytes) -> None:
        index, offset = self.locate(address)
        for k, byte in enumerate(data):
            where = self._raw_index(index, offset + k)
            if where is not None:
                self.blocks[where[0]].data[where[1]] = byte

    # ---- typed access ----

    def read(self, address: int, type_text: str, mask: int = ALL_ONES) -> int:
        """The value of a data.json variable: ``read(0xFF0010, ">u2")``."""
        reader = self._readers.get((address, type_text, mask))
        if reader is None:
            reader = self._compile(address, type_text, mask)
        return reader()

    def _compile(self, address: int, type_text: str, mask: int) -> Callable[[], int]:
        """A reader for one variable, with its byte positions worked out once."""
        dtype = parse_type(type_text)
        places = self.places(address, dtype.width)
        if dtype.width == 0:
            reader: Callable[[], int] = lambda: 0  # noqa: E731
        else:
            decode = dtype.decode
            first = places[0]
            if first is not None and all(p is not None and p[0] == first[0] for p in places):
                raws = [p[1] for p in places if p is not None]  # all of them
                low, high = min(raws), max(raws) + 1
                view = self.blocks[first[0]].data.data  # the array's memoryview
                if raws == list(range(low, high)):

                    def reader() -> int:
                        return decode(view[low:high].tobytes(), mask)

                else:  # the overlay rearranges bytes inside the range
                    pick: Callable[[bytes], tuple[int, ...]]
                    if len(raws) == 1:  # itemgetter of one index returns the item, not a 1-tuple
                        only = raws[0] - low
                        pick = lambda b: (b[only],)  # noqa: E731
                    else:
                        pick = itemgetter(*[r - low for r in raws])

                    def reader() -> int:
                        return decode(bytes(pick(view[low:high].tobytes())), mask)

            else:  # runs into the next block, or past the end of memory (those bytes read 0)
                views = [None if p is None else (self.blocks[p[0]].data.data, p[1]) for p in places]

                def reader() -> int:
                    return decode(bytes(0 if v is None else v[0][v[1]] for v in views), mask)

        self._readers[(address, type_text, mask)] = reader
        return reader

    def write(self, address: int, type_text: str, value: int) -> None:
        """Writes all ``width`` bytes of the type (the mask is ignored, as in stable-retro)."""
        dtype = parse_type(type_text)
        self.write_bytes(address, dtype.encode(value))

    # stable-retro's Memory method names
    extract = read
    assign = write

    def __getitem__(self, variable: dict) -> int:
        return self.read(variable["address"], variable["type"], variable.get("mask", ALL_ONES))

    # ---- whole-memory views ----

    def block_bytes(self) -> dict[int, bytes]:
        """``{start: raw bytes}``, stable-retro's ``Memory.blocks``."""
        return {b.start: b.data.tobytes() for b in self.blocks}

    @property
    def size(self) -> int:
        return sum(len(b.data) for b in self.blocks)

    def get_ram(self) -> np.ndarray:
        """All blocks in ascending start order, raw bytes (no overlay), as one new array."""
        if not self.blocks:
            return np.zeros(0, dtype=np.uint8)
        if len(self.blocks) == 1:
            return self.blocks[0].data.copy()
        return np.concatenate([b.data for b in self.blocks])
