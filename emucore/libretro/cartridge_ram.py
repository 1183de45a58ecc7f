"""Cartridge RAM a core maps but never initializes, cleared so every run starts alike.

fceumm's NROM board (iNES mapper 0) allocates 8 KiB of work RAM at 0x6000-0x7FFF with ``malloc``
for Family BASIC and never clears it, battery or not. It holds whatever the process's heap held
there (freed pointers and strings), so the last 8 KiB of ``get_ram()`` differ from run to run, in
stable-retro as well, and a game that reads 0x6000 would see different bytes each run. The host
zeroes that block once, right after the load and before the first frame.
"""

from __future__ import annotations

from collections.abc import Iterable

from emucore.libretro._native import ffi
from emucore.libretro.structs import MemoryDescriptor

NROM_WRAM = range(0x6000, 0x8000)


def ines_mapper(rom: bytes) -> int | None:
    """The iNES mapper number of an NES ROM image, or None without an iNES header."""
    if len(rom) < 16 or rom[:4] != b"NES\x1a":
        return None
    mapper = (rom[6] >> 4) | (rom[7] & 0xF0)
    if (rom[7] & 0x0C) == 0x08:  # NES 2.0: mapper bits 8-11 in byte 8
        mapper |= (rom[8] & 0x0F) << 8
    return mapper


def uninitialized_ranges(lib: str, rom: bytes) -> list[range]:
    """The address ranges ``lib`` leaves uninitialized for this ROM image."""
    return [NROM_WRAM] if lib == "fceumm" and ines_mapper(rom) == 0 else []


def clear(descriptors: Iterable[MemoryDescriptor], ranges: list[range]) -> int:
    """Zeroes the writable memory-map blocks that start inside ``ranges``; returns the bytes cleared."""
    cleared = 0
    for d in descriptors:
        if d.is_const or not d.ptr or not d.length or not any(d.start in r for r in ranges):
            continue
        ffi.memmove(ffi.cast("uint8_t *", d.ptr), bytes(d.length), d.length)
        cleared += d.length
    return cleared
