"""Frozen copies of a game's address space, laid out for bulk decoding.

A :class:`Layout` lays the blocks of an :class:`~emucore.host.memory.AddressSpace` end to end in one
byte buffer, in the order of their start addresses. Each block's logical bytes (the system's
overlay applied: Genesis ``logical[a] = raw[a ^ 1]``) are followed by 7 *tail* bytes: what a
value of up to 8 bytes starting near the block's end reads past it, by the address space's own
rule (the next block when it starts exactly at the end, else 0). So the value at every mapped
address decodes from consecutive buffer bytes, and equals ``memory.read(address, type)``.

Buffer offsets are the search's *positions*. A position is *valid* when it is a block byte whose
address the lookup gives to that block (a block overlapped by an earlier one loses those bytes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.errors import UnmappedAddressError
from emucore.host.memory import AddressSpace
from emucore.search.decode import BulkDecoder, DecodeScratch, to_values
from emucore.search.typelist import SearchType, search_type

TAIL = 7  # bytes past a block's end that a value of up to 8 bytes reads


class Layout:
    """Where each address's bytes sit in a snapshot buffer (one per block layout and overlay)."""

    def __init__(self, memory: AddressSpace):
        blocks = memory.blocks
        overlay = memory.overlay if memory.overlay is not None and memory.overlay.swaps else None
        self.signature = (tuple((b.start, len(b.data)) for b in blocks), overlay.width if overlay else 0)
        sizes = [len(b.data) for b in blocks]
        starts = [b.start for b in blocks]
        raw_base = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64)
        zero = int(raw_base[-1])  # index of the zero appended after the raw bytes
        parts, valid, seg_offsets = [], [], []
        offset, owned_end = 0, None
        for i, (start, size) in enumerate(zip(starts, sizes)):
            logical = np.arange(size, dtype=np.int64)
            raw = overlay.raw_offset(logical) if overlay else logical
            index = np.where(raw < size, raw_base[i] + raw, zero)
            tail = [self._tail_index(blocks, raw_base, zero, overlay, i, size + j) for j in range(TAIL)]
            parts += [index, np.array(tail, dtype=np.int64)]
            ok = np.ones(size, dtype=bool)
            if owned_end is not None and owned_end > start:  # addresses an earlier block answers for
                ok[: min(size, owned_end - start)] = False
            valid += [ok, np.zeros(TAIL, dtype=bool)]
            owned_end = start + size if owned_end is None else max(owned_end, start + size)
            seg_offsets.append(offset)
            offset += size + TAIL
        self.gather_index = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        self.length = int(offset)  # L: buffer bytes
        self.positions = max(self.length - TAIL, 0)  # P: offsets a value can start at
        self.valid = np.concatenate(valid)[: self.positions] if valid else np.zeros(0, dtype=bool)
        self.valid.flags.writeable = False
        self.valid_positions = np.flatnonzero(self.valid)
        self.valid_positions.flags.writeable = False
        self.seg_addresses = np.array(starts, dtype=np.int64)
        self.seg_offsets = np.array(seg_offsets, dtype=np.int64)
        self.seg_sizes = np.array(sizes, dtype=np.int64)
        self._identity = len(blocks) == 1 and overlay is None
        self._overlapping = any(a + n > b for a, n, b in zip(starts, sizes, starts[1:]))

    @staticmethod
    def _tail_index(blocks: list, raw_base: np.ndarray, zero: int, overlay: Any, index: int, offset: int) -> int:
        """The raw index of logical byte ``offset`` of block ``index`` (following contiguous blocks)."""
        while offset >= len(blocks[index].data):
            nxt = index + 1
            if nxt >= len(blocks) or blocks[nxt].start != blocks[index].start + len(blocks[index].data):
                return zero
            offset -= len(blocks[index].data)
            index = nxt
        raw = overlay.raw_offset(offset) if overlay else offset
        return int(raw_base[index] + raw) if raw < len(blocks[index].data) else zero

    def capture(self, memory: AddressSpace) -> np.ndarray:
        """The logical bytes of ``memory`` now, as a new read-only buffer of :attr:`length` bytes."""
        if self._identity:
            buf = np.zeros(self.length, dtype=np.uint8)
            buf[: self.length - TAIL] = memory.blocks[0].data
        else:
            raw = np.concatenate([b.data for b in memory.blocks] + [np.zeros(1, dtype=np.uint8)])
            buf = np.take(raw, self.gather_index)
        buf.flags.writeable = False
        return buf

    def addresses(self, positions: np.ndarray) -> np.ndarray:
        """The data.json address of each (valid) position."""
        positions = np.asarray(positions, dtype=np.int64)
        seg = np.searchsorted(self.seg_offsets, positions, side="right") - 1
        return self.seg_addresses[seg] + (positions - self.seg_offsets[seg])

    def positions_of(self, addresses: np.ndarray) -> np.ndarray:
        """The position of each address, -1 where it is not mapped (the address space's lookup)."""
        addresses = np.asarray(addresses, dtype=np.int64)
        if not self._overlapping and len(self.seg_addresses):  # the block is the last one starting at or before
            seg = np.maximum(np.searchsorted(self.seg_addresses, addresses, side="right") - 1, 0)
            offset = addresses - self.seg_addresses[seg]
            inside = (offset >= 0) & (offset < self.seg_sizes[seg])
            return np.where(inside, self.seg_offsets[seg] + offset, -1)
        out = np.full(addresses.shape, -1, dtype=np.int64)
        for start, off, size in zip(self.seg_addresses[::-1], self.seg_offsets[::-1], self.seg_sizes[::-1]):
            inside = (addresses >= start) & (addresses < start + size)
            out[inside] = off + addresses[inside] - start  # earlier blocks win: they are written last
        ok = out >= 0
        ok[ok] = self.valid[out[ok]]
        out[~ok] = -1
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other.signature == self.signature

    def __hash__(self) -> int:
        return hash(self.signature)


_LAYOUTS: dict[tuple, Layout] = {}


def layout_of(memory: AddressSpace) -> Layout:
    """The (shared) layout of an address space's current blocks."""
    overlay = memory.overlay if memory.overlay is not None and memory.overlay.swaps else None
    key = (tuple((b.start, len(b.data)) for b in memory.blocks), overlay.width if overlay else 0)
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) > 32:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = Layout(memory)
    return found


class Snapshot:
    """The logical bytes of a game's memory at one moment; decodes any type at any address.

    Args:
        layout: Where the addresses sit in ``buf``.
        buf: :attr:`Layout.length` logical bytes (see :meth:`Layout.capture`).
        frame: The emulator's frame count when taken, for display.
        label: A free text (``"state Lives2"``).
    """

    def __init__(self, layout: Layout, buf: np.ndarray, frame: int | None = None, label: str = ""):
        if len(buf) != layout.length:
            raise ValueError(f"a snapshot of this layout has {layout.length} bytes, not {len(buf)}")
        self.layout = layout
        self.buf = buf
        self.frame = frame
        self.label = label

    @classmethod
    def capture(cls, memory: AddressSpace, frame: int | None = None, label: str = "") -> Snapshot:
        """A snapshot of ``memory`` as it is now."""
        layout = layout_of(memory)
        return cls(layout, layout.capture(memory), frame, label)

    def decoder(self, space: DecodeScratch | None = None) -> BulkDecoder:
        """A decoder of this snapshot: ``space``'s (full decodes kept there), or a private one."""
        return space.decoder(self.buf) if space is not None else BulkDecoder(self.buf)

    def values(self, st: SearchType) -> np.ndarray:
        """The value of ``st`` at every position (a new array of at least :attr:`Layout.positions`)."""
        return to_values(self.decoder().full(*st.key).copy(), st.width, st.signed)

    def values_at(self, st: SearchType, positions: np.ndarray) -> np.ndarray:
        """The value of ``st`` at ``positions``, decoding only those bytes."""
        return to_values(self.decoder().gather(*st.key, positions), st.width, st.signed)

    def read(self, address: int, type_text: str) -> int:
        """The value of one variable in this snapshot (same result as ``AddressSpace.read``)."""
        position = int(self.layout.positions_of(np.array([address]))[0])
        if position < 0:
            raise UnmappedAddressError(address)
        return int(self.values_at(search_type(type_text), np.array([position]))[0])

    def __repr__(self) -> str:
        where = f" frame {self.frame}" if self.frame is not None else ""
        return f"<Snapshot {self.layout.positions} positions{where}{' ' + self.label if self.label else ''}>"


def snapshot_from_state(emulator: Any, state: bytes, label: str = "") -> Snapshot:
    """The memory a save state holds, read by loading it and then restoring the emulator's state.

    Args:
        emulator: The :class:`~emucore.host.emulator.Emulator` (its core decodes the state).
        state: Raw state bytes (``Emulator.get_state()``, ``StateLibrary.load(name)``).
        label: A label for the snapshot.

    Raises:
        StateError: the core rejects the state (the emulator is unchanged).
    """
    saved = emulator.get_state()
    try:
        emulator.set_state(bytes(state))
        return Snapshot.capture(emulator.memory, None, label or "state")
    finally:
        emulator.set_state(saved)
