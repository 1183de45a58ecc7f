"""Reading a ROM file and catching the damage a core would not report clearly.

Cores load almost anything and some crash on garbage, so the header checks that real hardware
or a console's boot code make are done here first, with an error that names the file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from emucore.errors import RomError, RomNotFoundError
from emucore.fileio import atomic_write_bytes, read_regular
from emucore.host import rom_probe
from emucore.libretro import CoreSession
from emucore.paths import user_cache_dir, user_config_dir
from emucore.systems import System

MAX_ROM_BYTES = 1 << 30


def _nes(data: bytes) -> str | None:
    if len(data) < 16 or data[:4] != b"NES\x1a":
        return "no iNES header (the file must start with 'NES' 0x1A)"
    prg_units, chr_units = data[4], data[5]
    if (data[7] & 0x0C) == 0x08:  # NES 2.0: size high nibbles in byte 9
        prg_units |= (data[9] & 0x0F) << 8
        chr_units |= (data[9] & 0xF0) << 4
    if prg_units == 0:
        return "the iNES header declares no PRG-ROM"
    trainer = 512 if data[6] & 0x04 else 0
    expected = 16 + trainer + prg_units * 16384 + chr_units * 8192
    if len(data) < expected:
        return f"truncated: the iNES header declares {expected} bytes, the file has {len(data)}"
    return None


def _sega(data: bytes, system: System) -> str | None:
    what = system.title
    if len(data) < 0x200:
        return f"truncated: {len(data)} bytes is less than the 512-byte vector table and header"
    if b"SEGA" not in data[0x100:0x110]:
        return f"no 'SEGA' at 0x100: not a {what} ROM (an interleaved .smd must be converted first)"
    # The header's ROM-end field is not checked: homebrew often leaves it wrong (Airstriker
    # declares 4 MiB and has 117 KiB), so it cannot tell a truncated file.
    return None


def _gameboy(data: bytes) -> str | None:
    if len(data) < 0x150:
        return f"truncated: {len(data)} bytes is less than the 0x150-byte cartridge header"
    checksum = 0
    for byte in data[0x134:0x14D]:
        checksum = (checksum - byte - 1) & 0xFF
    if checksum != data[0x14D]:
        return f"header checksum mismatch at 0x14D (0x{data[0x14D]:02X}, computed 0x{checksum:02X}): corrupt"
    if data[0x148] <= 8:
        declared = 0x8000 << data[0x148]
        if len(data) < declared:
            return f"truncated: the header declares {declared} bytes, the file has {len(data)}"
    return None


def _gba(data: bytes) -> str | None:
    if len(data) < 0xC0:
        return f"truncated: {len(data)} bytes is less than the 192-byte cartridge header"
    complement = (-(sum(data[0xA0:0xBD]) + 0x19)) & 0xFF
    if data[0xB2] != 0x96 or data[0xBD] != complement:
        return "cartridge header check failed (fixed byte 0x96 at 0xB2, complement at 0xBD): corrupt"
    return None


def _minimum(data: bytes, size: int) -> str | None:
    if len(data) < size:
        return f"truncated: {len(data)} bytes, a ROM for this system has at least {size}"
    return None


#: The structure checks a system descriptor's ``rom_format`` names: (ROM bytes, system) -> the problem, or None.
ROM_CHECKS: dict[str, Callable[[bytes, System], str | None]] = {
    "ines": lambda data, system: _nes(data),
    "sega": lambda data, system: _sega(data, system),  # a 32X cartridge is a Mega Drive one, header included
    "gameboy": lambda data, system: _gameboy(data),
    "gba": lambda data, system: _gba(data),
    "minimum": lambda data, system: _minimum(data, system.rom_min_bytes),
}


def read_rom(path: str | os.PathLike[str], system: System) -> bytes:
    """The ROM's bytes after the checks for its system; RomError names the file and problem."""
    path = Path(path)
    if not path.exists():
        raise RomNotFoundError(path, "no such file")
    if not path.is_file():
        raise RomError(path, "not a regular file")
    size = path.stat().st_size
    if size == 0:
        raise RomError(path, "the file is empty")
    if size > MAX_ROM_BYTES:
        raise RomError(path, f"{size} bytes is larger than any console ROM")
    try:
        data = read_regular(path, MAX_ROM_BYTES)
    except OSError as exc:
        raise RomError(path, f"cannot be read: {exc.strerror or exc}") from exc
    check = ROM_CHECKS.get(system.rom_format or "")
    problem = check(data, system) if check else None
    if problem:
        raise RomError(path, f"{problem} ({system.title})")
    return data


def check_rom_loads(open_session: Callable[[], CoreSession], path: Path, data: bytes, core_name: str,
                    core_path: Path, options: dict[str, str]) -> None:
    """GameLoadError naming ``path`` if the core crashed on ``data`` in a forked probe process
    (``emucore.host.rom_probe``); ``open_session`` opens it as the emulator will."""
    try:
        cache_dir: Path | None = user_cache_dir() / "rom-probe"
        key_path: Path | None = user_config_dir() / "rom-probe.key"
    except (OSError, RuntimeError, KeyError):  # no home folder
        cache_dir = key_path = None
    rom_probe.check_rom(open_session, path, data, core_name, core_path, options, cache_dir=cache_dir,
                        key_path=key_path, write=atomic_write_bytes)
