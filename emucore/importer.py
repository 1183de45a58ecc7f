"""``emucore import PATH...``: find known ROMs in files, folders and zip archives and install them.

Like ``python -m stable_retro.import`` (env-api §11): every file is hashed and matched against
the SHA-1s in the games' ``rom.sha`` files; a match is written to
``<set folder>/<game>/rom.<ext>`` (ext = the first extension of the system the game name
declares, so ``air.gen`` becomes ``rom.md``), plus ``metadata.json``'s ``original_rom_name``
for FBNeo sets. A ``.zip`` is hashed whole (FBNeo sets are matched that way) and each entry
inside is hashed too, recursing into inner zips.

Departures from stable-retro, all deliberate:

* PATH may be a file as well as a folder; FIFOs and other special files are skipped.
* A file that starts with an iNES header (``NES\\x1a``) is also matched by its header-less hash
  whatever its name (stable-retro does that only for names ending in ``.nes``). The file is
  written with its header.
* Inner zips are hashed whole too, not only walked. Nesting deeper than 8 levels is not followed.
* Zip entries over 64 MiB uncompressed are skipped, by their declared size and by reading at
  most 64 MiB + 1 bytes (the declared size is not trusted). Other files over 32 MiB are skipped.
* A corrupt or unreadable archive, entry or file is reported on stderr and the walk goes on.
* Files are written atomically (temporary file, then rename). A ROM already installed with the
  same bytes is not rewritten. ``original_rom_name`` is only honoured if it is a plain file name.
* Each game is reported and counted once, however many copies of its ROM were found.
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import os
import shutil
import stat
import struct
import sys
import time
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath
from typing import Literal, TextIO

from emucore.data import Integrations, candidate_hashes, get_known_hashes
from emucore.data.hashes import MAX_ROM_BYTES
from emucore.fileio import atomic_write_bytes

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

Progress = bool | Literal["force"]


class _ProgressBar:
    """A one-line ``[####----] 12/40 name`` bar, redrawn in place with ``\\r``."""

    WIDTH = 28

    def __init__(self, total: int, stream: TextIO, enabled: bool):
        self.total = total
        self.stream = stream
        self.enabled = enabled and total > 0
        self.shown = 0
        self.last_draw = 0.0

    def update(self, done: int, label: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < self.total and now - self.last_draw < 0.05:
            return
        self.last_draw = now
        filled = self.WIDTH * done // self.total
        text = f"[{'#' * filled}{'-' * (self.WIDTH - filled)}] {done}/{self.total} {label}"
        columns = shutil.get_terminal_size((80, 24)).columns - 1
        text = text[:columns]
        self.stream.write("\r" + text + " " * max(0, self.shown - len(text)))
        self.stream.flush()
        self.shown = len(text)

    def clear(self) -> None:
        if self.enabled and self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


class _Importer:
    def __init__(self, known: dict[str, tuple[str, str, str]], out: TextIO, err: TextIO, bar: _ProgressBar | None):
        self.known = known
        self.out = out
        self.err = err
        self.bar = bar
        self.written: list[tuple[str, Path]] = []
        self.seen: set[tuple[str, str]] = set()
        self.imported: set[str] = set()
        self.oversized = 0

    # -- reporting ---------------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        if self.bar is not None:
            self.bar.clear()
        stream = self.err if error else self.out
        print(text, file=stream)
        stream.flush()

    def warn(self, text: str) -> None:
        self.say(f"emucore import: {text}", error=True)

    # -- matching and writing ----------------------------------------------------------------
    def offer(self, name: str, data: bytes) -> None:
        """Hash one candidate ROM (``name`` decides the hashing rule) and install it on a match."""
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
        metadata = json.loads((game_dir / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = metadata.get("original_rom_name") if isinstance(metadata, dict) else None
    if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name:
        return None
    return name


def _collect(paths: Iterable[str | os.PathLike[str]], warn) -> list[Path]:
    files: list[Path] = []
    for item in paths:
        root = Path(item).expanduser()
        if root.is_dir():
            for folder, dirs, names in os.walk(root, onerror=lambda exc: warn(f"cannot list {exc.filename}")):
                dirs.sort()
                files.extend(Path(folder, n) for n in sorted(names))
        elif root.exists():
            files.append(root)
        else:
            warn(f"{root}: no such file or folder")
    return files


def _show_progress(progress: Progress, err: TextIO) -> bool:
    if progress == "force":
        return True
    if not progress:
        return False
    try:
        return err.isatty()
    except (AttributeError, ValueError):
        return False


def import_paths(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    *,
    inttype: Integrations | int = Integrations.ALL,
    progress: Progress = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> list[tuple[str, Path]]:
    """Find known ROMs under ``paths`` and install them into their game folders.

    Args:
        paths: Files and folders to scan (folders recursively); one path is accepted too.
        inttype: The sets whose ``rom.sha`` files are matched against (default ``ALL``, custom
            folders included). Games are written into the folder that holds their ``rom.sha``.
        progress: ``True`` draws a progress bar on ``err`` when it is a terminal, ``"force"``
            always draws it, ``False`` never.
        out: Where ``Importing <game>`` and ``Imported <n> games`` go (default ``sys.stdout``).
        err: Where warnings and the progress bar go (default ``sys.stderr``).

    Returns:
        ``(game, path)`` for each file written or found already installed: ``rom.<ext>`` and,
        for FBNeo sets, the ``original_rom_name`` copy.
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    importer = _Importer(get_known_hashes(inttype), out, err, None)
    files = _collect(paths, importer.warn)
    bar = _ProgressBar(len(files), err, _show_progress(progress, err))
    importer.bar = bar
    for done, file in enumerate(files, 1):
        bar.update(done - 1, file.name)
        importer.scan_file(file)
        bar.update(done, file.name)
    bar.clear()
    if importer.oversized:
        importer.warn(f"skipped {importer.oversized} files or zip entries over the size limit")
    importer.say(f"Imported {len(importer.imported)} games")
    return importer.written


def merge_files(
    files: Iterable[str | os.PathLike[str]], *, quiet: bool = True, inttype: Integrations | int = Integrations.ALL
) -> list[tuple[str, Path]]:
    """Import exactly these files, without zip handling (``data.merge``'s engine).

    Args:
        files: ROM files.
        quiet: When false, print ``Importing <game>`` per match and ``Imported <n> games``.
        inttype: The sets to match against.
    """
    sink: TextIO = io.StringIO() if quiet else sys.stdout
    importer = _Importer(get_known_hashes(inttype), sink, sys.stderr, None)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emucore import",
        description="Find ROMs of known games in files, folders and zip archives and install them "
        "into their integration folders (rom.<ext>).",
    )
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")
    parser.add_argument(
        "--custom",
        action="append",
        default=[],
        metavar="DIR",
        help="also match the games of this custom integration folder (repeatable)",
    )
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_const", const="force", dest="progress", help="always show progress")
    bar.add_argument("--no-progress", action="store_const", const=False, dest="progress", help="never show progress")
    parser.set_defaults(progress=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore import PATH...``. Returns 0, or 1 when a PATH does not exist."""
    args = build_parser().parse_args(argv)
    for folder in args.custom:
        Integrations.add_custom_path(folder)
    missing = [p for p in args.paths if not os.path.exists(p)]
    import_paths(args.paths, progress=args.progress)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
