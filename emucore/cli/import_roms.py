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
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, TextIO

from tqdm import tqdm

from emucore.cli.format import DefaultsHelpFormatter
from emucore.data import Integrations, get_known_hashes
from emucore.data.installer import RomInstaller

Progress = bool | Literal["force"]


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


def _bar_disabled(progress: Progress) -> bool | None:
    """tqdm's ``disable``: ``None`` (off when the stream is not a terminal) for ``True``."""
    if progress == "force":
        return False
    return None if progress else True


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
        progress: ``True`` draws a progress bar (tqdm) on ``err`` when it is a terminal, ``"force"``
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
    importer = RomInstaller(get_known_hashes(inttype), out, err)
    files = _collect(paths, importer.warn)
    with tqdm(total=len(files), unit="file", file=err, disable=_bar_disabled(progress), dynamic_ncols=True) as bar:
        importer.before_output = bar.clear
        for file in files:
            bar.set_postfix_str(file.name, refresh=False)
            importer.scan_file(file)
            bar.update(1)
    importer.before_output = None
    if importer.oversized:
        importer.warn(f"skipped {importer.oversized} files or zip entries over the size limit")
    importer.say(f"Imported {len(importer.imported)} games")
    return importer.written


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emucore import",
        description="Find ROMs of known games in files, folders and zip archives and install them "
        "into their integration folders (rom.<ext>).",
        epilog="Exit status: 0 when the paths were scanned (whether or not a ROM was found); 2 on bad arguments "
        "(a PATH or --custom folder that does not exist: nothing is imported then), said on stderr.",
        formatter_class=DefaultsHelpFormatter,
    )
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders to scan")
    parser.add_argument(
        "--custom",
        action="append",
        default=[],
        metavar="DIR",
        help="also match the games of this custom integration folder (repeatable)",
    )
    parser.set_defaults(progress=True)  # before the flags: their own default is hidden from --help
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_const", const="force", dest="progress", default=argparse.SUPPRESS,
                     help="always show a progress bar (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", action="store_const", const=False, dest="progress",
                     default=argparse.SUPPRESS, help="never show a progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore import PATH...``: 0 once scanned, 2 when a PATH or ``--custom`` folder does not exist."""
    args = build_parser().parse_args(argv)
    missing = [f"{path}: no such file or folder" for path in args.paths if not os.path.exists(path)]
    missing += [f"--custom {folder}: no such folder" for folder in args.custom if not os.path.isdir(folder)]
    for problem in missing:
        print(f"emucore import: {problem}", file=sys.stderr)
    if missing:
        return 2
    for folder in args.custom:
        Integrations.add_custom_path(folder)
    import_paths(args.paths, progress=args.progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
