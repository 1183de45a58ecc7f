"""ROM hashes: ``rom.sha`` parsing, the known-hash table, grooming and verification."""

from __future__ import annotations

import hashlib
import os
from typing import BinaryIO

import numpy as np

from emucore.data.integrations import Integrations, resolve
from emucore.data.lookup import get_file_path, get_romfile_path
from emucore.data.systeminfo import get_romfile_system, rom_extension_for_game
from emucore.fileio import open_regular
from emucore.integration import SHA_FILE, IntegrationError, read_rom_sha
from emucore.systems import get_system, systems

#: The largest ROM hashed or imported (32 MiB, stable-retro's limit).
MAX_ROM_BYTES = 0x2000000
INES_MAGIC = b"NES\x1a"  # how an NES ROM's file starts (its header's size is the Nes descriptor's rom_header_bytes)


SMD_HEADER_BYTES = 512
SMD_BLOCK_BYTES = 0x4000


def parse_smd(header: bytes, body: bytes) -> bytes:
    """A Super Magic Drive dump (``.smd``: a 512-byte header, then 16 KiB blocks each holding the
    odd bytes of its half of the ROM, then the even ones) as the plain Mega Drive ROM it holds.

    Content that does not de-interleave into a Mega Drive ROM (no ``SEGA`` at 0x100) is returned
    as ``header + body``, unchanged. (stable-retro's version compares a byte with ``b"E"``, which is
    never equal, so it always returns the input unchanged.)
    """
    if not body or len(body) % SMD_BLOCK_BYTES:
        return header + body
    blocks = np.frombuffer(body, dtype=np.uint8).reshape(-1, 2, SMD_BLOCK_BYTES // 2)
    linear = np.empty((blocks.shape[0], SMD_BLOCK_BYTES // 2, 2), dtype=np.uint8)
    linear[:, :, 0] = blocks[:, 1]  # even bytes come second in a block
    linear[:, :, 1] = blocks[:, 0]
    rom = linear.tobytes()
    return rom if rom[0x100:0x104] == b"SEGA" or rom[0x101:0x105] == b"SEGA" else header + body


def groom_rom(filename: str | os.PathLike[str], data: bytes | BinaryIO) -> tuple[bytes, str]:
    """The bytes to write for a ROM and the SHA-1 that identifies it, by stable-retro's rule.

    The rule is keyed on ``filename``'s extension: ``.nes`` hashes the content after the
    16-byte iNES header (the bytes returned keep it); ``.smd`` is de-interleaved first
    (:func:`parse_smd`; stable-retro means to, but its version never does); anything else hashes
    the whole content. :mod:`emucore.cli.import_roms` additionally tries the header-less hash of
    any file that starts with an iNES header; see :func:`candidate_hashes`.

    Args:
        filename: The source file name (only its extension matters).
        data: The file's content, or a binary file object to read it from.

    Raises:
        ValueError: ``"ROM is too big"`` for content over 32 MiB (not for ``.nes``, as stable-retro).
    """
    name = os.fspath(filename).lower()
    header = _header_bytes(name)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        data = data.read() if header else data.read(MAX_ROM_BYTES + 1)
    data = bytes(data)
    if header:
        return data, hashlib.sha1(data[header:]).hexdigest()
    if name.endswith(".smd"):
        data = parse_smd(data[:SMD_HEADER_BYTES], data[SMD_HEADER_BYTES:])
    if len(data) > MAX_ROM_BYTES:
        raise ValueError("ROM is too big")
    return data, hashlib.sha1(data).hexdigest()


def candidate_hashes(filename: str, data: bytes) -> list[str]:
    """The SHA-1s a file may be known by, best first.

    stable-retro's rule (:func:`groom_rom`), and, for a file that starts with an iNES header but
    is not named ``.nes`` (a ``.bin`` in an archive, say), the header-less hash before the
    whole-file one.
    """
    header = _header_bytes(filename.lower())
    if header:
        return [hashlib.sha1(data[header:]).hexdigest()]
    whole = hashlib.sha1(data).hexdigest()
    header = get_system("Nes").rom_header_bytes
    if data[:4] == INES_MAGIC and len(data) > header:
        return [hashlib.sha1(data[header:]).hexdigest(), whole]
    return [whole]


def _header_bytes(filename: str) -> int:
    """The bytes before the ROM image in a file named so: its system's ``rom_header_bytes`` (a ``.nes`` file's
    iNES header), found by the file's extension as stable-retro does; 0 for other files."""
    extension = os.path.splitext(filename)[1].lstrip(".")
    for system in systems().values():
        if extension in system.extensions:
            return system.rom_header_bytes
    return 0


def _game_shas(folders: list[str]) -> dict[str, dict[str, list[str]]]:
    """``{game: {folder: shas}}`` for every readable ``rom.sha`` in the folders."""
    table: dict[str, dict[str, list[str]]] = {}
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for game in names:
            try:
                shas = read_rom_sha(os.path.join(folder, game, SHA_FILE))
            except IntegrationError:
                continue
            table.setdefault(game, {})[folder] = shas
    return table


def get_known_hashes(inttype: Integrations | int = Integrations.ALL) -> dict[str, tuple[str, str, str]]:
    """``{sha1: (game, ".ext", set_folder)}`` for every game whose name declares a known system.

    When a hash appears more than once, the last one in (sorted game, lookup order) wins, so
    ``stable`` beats the other sets, as in stable-retro. Missing folders are skipped. Unlike
    stable-retro, an empty ``rom.sha`` contributes no ``""`` key.

    Args:
        inttype: The sets to take games from (stable-retro always uses ``ALL``).
    """
    folders = resolve(inttype).folders
    table = _game_shas(folders)
    known: dict[str, tuple[str, str, str]] = {}
    for game in sorted(table):
        ext = rom_extension_for_game(game)
        if ext is None:
            continue
        for folder in folders:
            for sha in table[game].get(folder, ()):
                known[sha] = (game, ext, folder)
    return known


def verify_hash(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> list[tuple[str, str]]:
    """``[(game, "sha mismatch")]`` if the game's ROM matches none of its ``rom.sha`` hashes, else ``[]``.

    NES ROMs are hashed without their 16-byte header. A game without ``rom.sha`` gives
    ``[(game, "missing rom.sha")]``.

    Raises:
        FileNotFoundError: The game has no ROM.
    """
    rom = get_romfile_path(game, inttype)
    system = get_romfile_system(rom)
    sha_file = get_file_path(game, SHA_FILE, resolve(inttype) | Integrations.STABLE)
    if sha_file is None:
        return [(game, "missing rom.sha")]
    expected = read_rom_sha(sha_file)
    digest = hashlib.sha1()
    with open_regular(rom) as f:
        known = systems().get(system or "")
        f.read(known.rom_header_bytes if known is not None else 0)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return [] if digest.hexdigest() in expected else [(game, "sha mismatch")]
