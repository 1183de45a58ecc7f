"""Matching ROM bytes against the known games' SHA-1s and installing them into their game folders.

The engine of ``emucore import`` (:mod:`emucore.cli.import_roms`, which walks folders and shows progress)
and of :func:`merge` (stable-retro's ``retro.data.merge``). See :mod:`emucore.cli.import_roms` for the
matching rules and the departures from stable-retro.
"""

from __future__ import annotations

import io
import lzma
import os
import stat
import struct
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TextIO

from emucore.data.hashes import MAX_ROM_BYTES, SMD_HEADER_BYTES, candidate_hashes, get_known_hashes, parse_smd
from emucore.data.integrations import Integrations
from emucore.fileio import atomic_write_bytes
from emucore.integration import IntegrationError
from emucore.integration.listing import METADATA_FILE
from emucore.integration.metadatafile import is_file_name, read_metadata

#: Zip entries larger than this (uncompressed) are skipped.
MAX_ENTRY_BYTES = 64 << 20
#: Inner zips nested deeper than this are not opened.
MAX_ZIP_DEPTH = 8

_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    lzma.LZMAError,
    struct.error,
    EOFError,
    OSError,
    NotImplementedError,  # unsupported compression method
    RuntimeError,  # encrypted entry
    ValueError,
)


class RomInstaller:
    """Hashes candidate ROMs (files, zips and their entries) and installs the known ones into their game folders."""

    def __init__(self, known: dict[str, tuple[str, str, str]], out: TextIO, err: TextIO,
                 before_output: Callable[[], None] | None = None):
        self.known = known
        self.out = out
        self.err = err
        self.before_output = before_output  # e.g. clears a progress bar
        self.written: list[tuple[str, Path]] = []
        self.seen: set[tuple[str, str]] = set()
        self.imported: set[str] = set()
        self.oversized = 0

    # -- reporting ---------------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        if self.before_output is not None:
            self.before_output()
        stream = self.err if error else self.out
        print(text, file=stream)
        stream.flush()

    def warn(self, text: str) -> None:
        self.say(f"emucore import: {text}", error=True)

    # -- matching and writing ----------------------------------------------------------------
    def offer(self, name: str, data: bytes) -> None:
        """Hash one candidate ROM (``name`` decides the hashing rule) and install it on a match."""
        if name.lower().endswith(".smd"):
            data = parse_smd(data[:SMD_HEADER_BYTES], data[SMD_HEADER_BYTES:])
        if len(data) > MAX_ROM_BYTES:
            self.oversized += 1
            return
        for sha in candidate_hashes(name, data):
            if sha in self.known:
                self.install(data, *self.known[sha])
                return

    def install(self, data: bytes, game: str, ext: str, set_dir: str) -> None:
        key = (game, set_dir)
        if key in self.seen:
            return
        self.seen.add(key)
        self.say(f"Importing {game}")
        game_dir = Path(set_dir) / game
        targets = [game_dir / f"rom{ext}"]
        original = _original_rom_name(game_dir)
        if original and original != targets[0].name:
            targets.append(game_dir / original)
        for target in targets:
            try:
                if not (target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data):
                    atomic_write_bytes(target, data)
            except OSError as exc:
                self.warn(f"cannot write {target}: {exc.strerror or exc}")
                continue
            self.written.append((game, target))
            self.imported.add(game)

    # -- walking -----------------------------------------------------------------------------
    def scan_file(self, path: Path) -> None:
        try:
            info = path.stat()
        except OSError as exc:
            self.warn(f"cannot read {path}: {exc.strerror or exc}")
            return
        if not stat.S_ISREG(info.st_mode):
            return
        is_zip = path.suffix.lower() == ".zip"
        if info.st_size > MAX_ROM_BYTES and not is_zip:
            self.oversized += 1
        elif info.st_size <= MAX_ROM_BYTES:
            try:
                data = path.read_bytes()
            except OSError as exc:
                self.warn(f"cannot read {path}: {exc.strerror or exc}")
                return
            self.offer(path.name, data)
            if is_zip:
                self.scan_zip(data, str(path), 1)
        elif is_zip:
            self.scan_zip(path, str(path), 1)

    def scan_zip(self, source: bytes | Path, label: str, depth: int) -> None:
        """Offer every entry of a zip (given as its bytes or its path), recursing into inner zips."""
        try:
            with zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source) as archive:
                for entry in archive.infolist():
                    self.scan_entry(archive, entry, label, depth)
        except _ZIP_ERRORS as exc:
            self.warn(f"skipping corrupt zip {label}: {exc}")

    def scan_entry(self, archive: zipfile.ZipFile, entry: zipfile.ZipInfo, label: str, depth: int) -> None:
        where = f"{label}!{entry.filename}"
        if entry.is_dir():
            return
        if entry.file_size > MAX_ENTRY_BYTES:
            self.oversized += 1
            return
        try:
            with archive.open(entry) as f:
                data = f.read(MAX_ENTRY_BYTES + 1)
        except _ZIP_ERRORS as exc:
            self.warn(f"skipping unreadable entry {where}: {exc}")
            return
        if len(data) > MAX_ENTRY_BYTES:
            self.oversized += 1
            return
        name = PurePosixPath(entry.filename).name
        if len(data) <= MAX_ROM_BYTES or not name.lower().endswith(".zip"):
            self.offer(name, data)
        if name.lower().endswith(".zip"):
            if depth >= MAX_ZIP_DEPTH:
                self.warn(f"not opening {where}: zips nested deeper than {MAX_ZIP_DEPTH}")
                return
            self.scan_zip(data, where, depth + 1)


def _original_rom_name(game_dir: Path) -> str | None:
    try:
        name = read_metadata(game_dir / METADATA_FILE).get("original_rom_name")
    except IntegrationError:
        return None
    return name if is_file_name(name) else None


def merge(
    *files: str | os.PathLike[str], quiet: bool = True, inttype: Integrations | int = Integrations.ALL
) -> list[tuple[str, Path]]:
    """Import exactly these files, without zip handling (stable-retro's ``retro.data.merge``).

    Args:
        files: ROM files.
        quiet: When false, print ``Importing <game>`` per match and ``Imported <n> games``.
        inttype: The sets to match against.
    """
    sink: TextIO = io.StringIO() if quiet else sys.stdout
    importer = RomInstaller(get_known_hashes(inttype), sink, sys.stderr)
    for file in files:
        path = Path(file)
        try:
            if not path.is_file() or path.stat().st_size > MAX_ROM_BYTES:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        importer.offer(path.name, data)
    if not quiet:
        importer.say(f"Imported {len(importer.imported)} games")
    return importer.written
