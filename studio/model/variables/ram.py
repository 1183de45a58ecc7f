"""What the RAM viewer shows, without Qt: regions, bytes, change ages, readouts and pokes.

A :class:`Region` is either a block of the game's address space (addresses as data.json writes
them, bytes in logical order: the Genesis overlay is applied) or one of the core's raw memory
regions (``system_ram``, ``save_ram``...; offsets and bytes exactly as the core keeps them).
:class:`ChangeTracker` keeps, per byte, how many frames ago it last changed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emucore.datatypes import parse_type
from emucore.errors import EmulatorClosedError
from emucore.host.emulator import Emulator

BYTES_PER_ROW = 16
# the types the RAM viewer and the variables dock offer where the system lists none (System.types)
RAM_VIEW_TYPES = ("|u1", "|i1", "|d1", ">u2", "<u2", ">i2", "<i2", ">u4", "<u4", ">i4", "<i4",
                 ">d2", ">d4", "<d4", ">n4")
REFRESH_HZ = 30.0
MAX_AGE = 1 << 30


def parse_number(text: str) -> int:
    """An address or value typed by the user: ``FF0012``, ``0xFF0012``, ``$FF0012`` or ``16711698``.

    Digits alone are decimal; a ``0x``/``$`` prefix, an ``h`` suffix or any of A-F make it hex.

    Raises:
        ValueError: Not a number.
    """
    text = text.strip().replace("_", "").replace(" ", "")
    negative = text.startswith("-")
    text = text.lstrip("+-")
    if text[:2].lower() == "0x" or text[:1] == "$":
        digits, base = text[2:] if text[:1] == "0" else text[1:], 16
    elif text[-1:] in ("h", "H"):
        digits, base = text[:-1], 16
    elif text.isdigit():
        digits, base = text, 10
    else:
        digits, base = text, 16
    if not re.fullmatch(r"[0-9a-fA-F]+", digits):
        raise ValueError(f"{text!r} is not a number (try FF0012, 0xFF0012 or 16711698)")
    value = int(digits, base)
    return -value if negative else value


def address_digits(end: int) -> int:
    """Hex digits needed to show addresses below ``end`` (at least 4)."""
    return max(4, len(f"{max(end - 1, 0):X}"))


HEX = tuple(f"{b:02X}" for b in range(256))
ASCII = tuple(chr(b) if 0x20 <= b < 0x7F else "." for b in range(256))


def hex_row(data: bytes | np.ndarray, group: int = 0) -> str:
    """``"12 34 AB"``: the bytes in hex, one space apart (two after every ``group`` bytes)."""
    parts = [HEX[b] for b in bytes(data)]
    if group:
        return "  ".join(" ".join(parts[i : i + group]) for i in range(0, len(parts), group))
    return " ".join(parts)


def ascii_row(data: bytes | np.ndarray) -> str:
    """The bytes as printable ASCII, others as ``.``."""
    return "".join(ASCII[b] for b in bytes(data))


def decode_all(data: bytes, types: Sequence[str]) -> list[tuple[str, int]]:
    """Each type string with the value it decodes from the start of ``data`` (8 logical bytes)."""
    data = bytes(data).ljust(8, b"\0")
    return [(t, parse_type(t).decode(data)) for t in types]


class ChangeTracker:
    """Per byte of a memory area, the frames since it last changed, updated at most 30 times a second.

    Args:
        max_rate: The most updates a second; calls in between are ignored.
    """

    def __init__(self, max_rate: float = REFRESH_HZ):
        self.interval = 1.0 / max_rate if max_rate > 0 else 0.0
        self.ages = np.zeros(0, dtype=np.int64)
        self._previous: np.ndarray | None = None
        self._frame = 0
        self._when = -float("inf")

    def reset(self) -> None:
        """Forgets the history: the next update marks nothing as changed."""
        self._previous = None
        self._when = -float("inf")

    def update(self, data: np.ndarray, frame: int, now: float | None = None, force: bool = False) -> bool:
        """Compares ``data`` with the last snapshot; returns False when throttled.

        Args:
            data: The memory's bytes (uint8), raw order.
            frame: The session's frame; ages count frames (they go back up after a rewind).
            now: ``time.monotonic()`` by default.
            force: Update even if the last update was under 1/30 s ago.
        """
        now = time.monotonic() if now is None else now
        if now - self._when < self.interval and not force:
            return False
        self._when = now
        if self._previous is None or self._previous.shape != data.shape:
            self._previous = data.copy()
            self.ages = np.full(data.shape, MAX_AGE, dtype=np.int64)
            self._frame = frame
            return True
        elapsed = abs(frame - self._frame)
        self._frame = frame
        if elapsed:
            np.add(self.ages, elapsed, out=self.ages)
            np.minimum(self.ages, MAX_AGE, out=self.ages)
        changed = data != self._previous
        self.ages[changed] = 0
        np.copyto(self._previous, data)
        return True


@dataclass(frozen=True)
class Region:
    """A memory area the viewer can show.

    Attributes:
        label: What the region chooser shows.
        start: The address of byte 0 (a block's start; 0 for a raw region).
        size: Bytes.
        raw: The core region's name (``"system_ram"``) for a raw region; None for a block of the
            address space, whose bytes are shown and written through the overlay.
    """

    label: str
    start: int
    size: int
    raw: str | None = None

    @property
    def end(self) -> int:
        return self.start + self.size

    def contains(self, address: int) -> bool:
        return self.start <= address < self.end


def list_regions(emulator: Emulator) -> list[Region]:
    """The address space's blocks (by start address), then the core's raw regions."""
    out = []
    for block in emulator.memory.blocks:
        digits = address_digits(block.end)
        out.append(Region(f"0x{block.start:0{digits}X}  ({_size(len(block.data))})", block.start, len(block.data)))
    for name, data in emulator.memory_regions().items():
        out.append(Region(f"{name} (raw, {_size(data.size)})", 0, int(data.size), name))
    return out


def _size(count: int) -> str:
    return f"{count // 1024} KiB" if count >= 1024 and count % 1024 == 0 else f"{count} B"


class Ram:
    """The RAM viewer's state: the region shown, its bytes in display order and their change ages.

    Args:
        emulator: Where the memory is.
    """

    def __init__(self, emulator: Emulator):
        self.emulator = emulator
        self.tracker = ChangeTracker()
        self.regions = list_regions(emulator)
        self.region: Region | None = self.regions[0] if self.regions else None

    @property
    def types(self) -> tuple[str, ...]:
        """The system's search types, or a default list covering both byte orders."""
        return tuple(self.emulator.system.types or RAM_VIEW_TYPES)

    def reload_regions(self) -> None:
        """Lists the regions again (a core may map other memory after a reset or a state load)."""
        self.regions = list_regions(self.emulator)
        if self.region not in self.regions:
            self.select(self.regions[0] if self.regions else None)

    def select(self, region: Region | None) -> None:
        self.region = region
        self.tracker.reset()

    def raw_array(self) -> np.ndarray:
        """The region's bytes as the core keeps them (a live view; empty if it went away)."""
        region, empty = self.region, np.zeros(0, dtype=np.uint8)
        try:
            if region is None:
                return empty
            if region.raw is not None:
                return self.emulator.memory_regions().get(region.raw, empty)
            for block in self.emulator.memory.blocks:
                if block.start == region.start:
                    return block.data
        except EmulatorClosedError:  # the window is opening another game
            pass
        return empty

    def raw_index(self, offsets: np.ndarray) -> np.ndarray:
        """Where each logical offset of the region is in :meth:`raw_array` (the overlay's swap)."""
        overlay = self._overlay()
        if self.region is None or self.region.raw is not None or overlay is None or not overlay.swaps:
            return offsets
        w = overlay.width
        return offsets - offsets % w + (w - 1 - offsets % w)

    def _overlay(self):
        try:
            return self.emulator.memory.overlay
        except EmulatorClosedError:
            return None

    def view(self, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``(bytes, ages)`` of ``count`` logical bytes from offset ``first`` (clipped to the region)."""
        raw = self.raw_array()
        first = min(max(first, 0), len(raw))
        offsets = np.arange(first, min(first + count, len(raw)), dtype=np.int64)
        index = np.minimum(self.raw_index(offsets), max(len(raw) - 1, 0))
        values = raw[index]
        ages = self.tracker.ages
        if len(ages) == len(raw) and len(raw):
            return values, ages[index]
        return values, np.full(len(values), MAX_AGE, dtype=np.int64)

    def refresh(self, frame: int, now: float | None = None, force: bool = False) -> bool:
        """Updates the change ages (at most 30 Hz unless forced); False when throttled."""
        return self.tracker.update(self.raw_array(), frame, now, force)

    def address_of(self, offset: int) -> int:
        assert self.region is not None
        return self.region.start + offset

    def locate(self, text: str) -> tuple[Region, int]:
        """The region and offset of a typed address; the shown region first, then any other block.

        Raises:
            ValueError: Not a number, or no region holds it.
        """
        address = parse_number(text)
        shown = self.region
        if shown is not None and shown.contains(address):
            return shown, address - shown.start
        for region in self.regions:
            if region.raw is None and region.contains(address):
                return region, address - region.start
        where = f"{shown.label.split()[0]}" if shown else "any region"
        raise ValueError(f"{address:#x} is not in {where} nor in any block of the address space")

    def read_bytes(self, offset: int, count: int) -> bytes:
        """``count`` logical bytes from ``offset`` (past the region's end: through the address space's
        rules for blocks, zeros for raw regions)."""
        region = self.region
        if region is None or not len(self.raw_array()):
            return bytes(count)
        if region.raw is None:
            return self.emulator.memory.read_bytes(region.start + offset, count)
        raw = self.raw_array()
        return bytes(raw[offset : offset + count]).ljust(count, b"\0")

    def readout(self, offset: int) -> list[tuple[str, int]]:
        """Every type of the system with the value it decodes at ``offset``."""
        return decode_all(self.read_bytes(offset, 8), self.types)

    def poke(self, offset: int, value: int, type_text: str = "|u1") -> None:
        """Writes a value at ``offset``: through the overlay for blocks, raw for raw regions."""
        region = self.region
        if region is None:
            return
        if region.raw is None:
            self.emulator.memory.write(region.start + offset, type_text, value)
            return
        raw = self.raw_array()
        encoded = parse_type(type_text).encode(value)[: max(0, len(raw) - offset)]
        raw[offset : offset + len(encoded)] = np.frombuffer(encoded, dtype=np.uint8)
