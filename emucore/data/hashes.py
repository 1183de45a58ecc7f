"""ROM hashes: ``rom.sha`` parsing, the known-hash table, grooming and verification."""

from __future__ import annotations

import hashlib
import os
from typing import BinaryIO

from emucore.data.integrations import Integrations, resolve
from emucore.data.lookup import get_file_path, get_romfile_path
from emucore.data.systeminfo import get_romfile_system, rom_extension_for_game
from emucore.integration import SHA_FILE, IntegrationError, read_rom_sha

#: The largest ROM hashed or imported (32 MiB, stable-retro's limit).
MAX_ROM_BYTES = 0x2000000
INES_MAGIC = b"NES\x1a"
INES_HEADER_BYTES = 16


def groom_rom(filename: str | os.PathLike[str], data: bytes | BinaryIO) -> tuple[bytes, str]:
    """The bytes to write for a ROM and the SHA-1 that identifies it, by stable-retro's rule.

    The rule is keyed on ``filename``'s extension: ``.nes`` hashes the content after the
    16-byte iNES header (the bytes returned keep it); anything else hashes the whole content.
    (stable-retro's ``.smd`` de-interleaving is broken and never matches; ``.smd`` files are
    hashed whole here too.) :mod:`emucore.importer` additionally tries the header-less hash of
    any file that starts with an iNES header; see :func:`candidate_hashes`.

    Args:
        filename: The source file name (only its extension matters).
        data: The file's content, or a binary file object to read it from.

    Raises:
        ValueError: ``"ROM is too big"`` for content over 32 MiB (not for ``.nes``, as stable-retro).
    """
    name = os.fspath(filename).lower()
    if not isinstance(data, (bytes, bytearray, memoryview)):
        data = data.read() if name.endswith(".nes") else data.read(MAX_ROM_BYTES + 1)
    data = bytes(data)
    if name.endswith(".nes"):
        return data, hashlib.sha1(data[INES_HEADER_BYTES:]).hexdigest()
    if len(data) > MAX_ROM_BYTES:
        raise ValueError("ROM is too big")
    return data, hashlib.sha1(data).hexdigest()


def candidate_hashes(filename: str, data: bytes) -> list[str]:
    """The SHA-1s a file may be known by, best first.

    stable-retro's rule (:func:`groom_rom`), and, for a file that starts with an iNES header but
    is not named ``.nes`` (a ``.bin`` in an archive, say), the header-less hash before the
    whole-file one.
    """
    if filename.lower().endswith(".nes"):
        return [hashlib.sha1(data[INES_HEADER_BYTES:]).hexdigest()]
    whole = hashlib.sha1(data).hexdigest()
    if data[:4] == INES_MAGIC and len(data) > INES_HEADER_BYTES:
        return [hashlib.sha1(data[INES_HEADER_BYTES:]).hexdigest(), whole]
    return [whole]


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
    with open(rom, "rb") as f:
        if system == "Nes":
            f.read(INES_HEADER_BYTES)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return [] if digest.hexdigest() in expected else [(game, "sha mismatch")]
