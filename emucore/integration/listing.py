"""Which file of an integration folder is what, decided from names alone (no file is parsed)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from emucore.integration.common import IntegrationError
from emucore.integration.statefile import STATE_SUFFIX
from emucore.systems import extension_table

METADATA_FILE = "metadata.json"
SHA_FILE = "rom.sha"
LUA_SUFFIX = ".lua"


@dataclass
class Listing:
    """The files of one folder, sorted into kinds.

    Attributes:
        roms: ``rom.<ext>`` files of known systems, in the order stable-retro tries them.
        json: Top-level ``*.json`` files by file name (data, metadata and scenarios among them).
        states: ``<Name>.state`` files by state name.
        scripts: Top-level ``*.lua`` files by file name.
        others: Every other file, by path relative to the folder (posix separators).
    """

    folder: Path
    roms: list[Path] = field(default_factory=list)
    json: dict[str, Path] = field(default_factory=dict)
    states: dict[str, Path] = field(default_factory=dict)
    scripts: dict[str, Path] = field(default_factory=dict)
    others: dict[str, Path] = field(default_factory=dict)

    def rom_names(self) -> set[str]:
        """The file names of the ROMs."""
        return {p.name for p in self.roms}


def rom_file_names() -> list[str]:
    """``rom.<ext>`` for every extension, in stable-retro's lookup order."""
    return [f"rom{ext}" for ext in extension_table()]


def find_rom(folder: str | os.PathLike[str]) -> Path | None:
    """The ROM of an integration folder, the first ``rom.<ext>`` in stable-retro's order; None if none."""
    for name in rom_file_names():
        path = Path(folder, name)
        if path.is_file():
            return path
    return None


def list_folder(folder: str | os.PathLike[str]) -> Listing:
    """Sorts the files of an integration folder by kind.

    Raises:
        IntegrationError: ``folder`` is not a readable directory.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise IntegrationError(folder, "not an integration folder (no such directory)")
    listing = Listing(folder)
    rom_names = rom_file_names()
    found_roms: dict[str, Path] = {}
    try:
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            top = Path(root) == folder
            for name in sorted(files):
                path = Path(root, name)
                if not path.is_file():
                    continue
                if not top:
                    listing.others[path.relative_to(folder).as_posix()] = path
                elif name in rom_names:
                    found_roms[name] = path
                elif name.endswith(".json"):
                    listing.json[name] = path
                elif name.endswith(STATE_SUFFIX) and len(name) > len(STATE_SUFFIX):
                    listing.states[name[: -len(STATE_SUFFIX)]] = path
                elif name.endswith(LUA_SUFFIX):
                    listing.scripts[name] = path
                else:
                    listing.others[name] = path
    except OSError as e:
        raise IntegrationError(folder, f"cannot list the folder: {e.strerror or e}") from e
    listing.roms = [found_roms[name] for name in rom_names if name in found_roms]
    return listing
