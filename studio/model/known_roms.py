"""Integrations the studio already knows for a ROM, and other ROMs' integrations under the same name.

A ROM is *known* when some integration's ``rom.sha`` lists its SHA-1 (hashed as stable-retro does:
NES without its 16-byte iNES header), in any set: stable-retro's ``contrib``, ``experimental`` and
``stable``, the custom folders (``EMUCORE_DATA_PATH``, ``add_custom_integration``), the studio's
own integrations and our repository's ``integrations/``. Such an integration can be opened, or a
new one can start from it (:func:`start_from` copies its files, never its ROM).

A *name clash* is an integration of the same name whose ``rom.sha`` lists none of this one's
hashes. Games are looked up by name, file by file, so stable-retro with ``Integrations.ALL`` would
load the other one (or mix its files with this one's). No Qt.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from emucore import data
from emucore.integration import (
    DATA_FILE,
    SCENARIO_FILE,
    SHA_FILE,
    Integration,
    IntegrationError,
    find_rom,
    read_rom_sha,
    rom_sha1,
    state_names,
)
from emucore.paths import integrations_dir, studio_integrations_dir
from emucore.systems import system_for_path

#: The sets stable-retro itself searches with ``Integrations.ALL`` (its custom paths included).
STABLE_RETRO_SETS = ("contrib", "experimental", "custom", "stable")


@dataclass(frozen=True)
class KnownIntegration:
    """One integration folder found by ROM hash or by name.

    Attributes:
        game: The folder name (the game id, ``Airstriker-Genesis-v0``).
        set_name: ``contrib``, ``experimental``, ``custom``, ``studio`` (the studio's integrations),
            ``repository`` (our ``integrations/``) or ``stable``.
        folder: The integration folder.
        shas: The SHA-1s its ``rom.sha`` lists.
        has_data: It has a ``data.json``.
        has_scenario: It has a ``scenario.json``.
        states: Its state names.
        has_rom: Its ROM is there (stable-retro's folders ship without one), so it can be opened.
    """

    game: str
    set_name: str
    folder: Path
    shas: tuple[str, ...]
    has_data: bool
    has_scenario: bool
    states: tuple[str, ...]
    has_rom: bool

    @classmethod
    def read(cls, folder: Path, set_name: str, shas: Iterable[str]) -> KnownIntegration:
        return cls(folder.name, set_name, folder, tuple(shas), (folder / DATA_FILE).is_file(),
                   (folder / SCENARIO_FILE).is_file(), tuple(state_names(folder)), find_rom(folder) is not None)

    @property
    def seen_by_stable_retro(self) -> bool:
        """Whether stable-retro's ``Integrations.ALL`` searches its set."""
        return self.set_name in STABLE_RETRO_SETS

    def describe(self) -> str:
        """One line: name, set, folder and what it holds."""
        held = [name for name, has in ((DATA_FILE, self.has_data), (SCENARIO_FILE, self.has_scenario)) if has]
        if self.states:
            held.append(f"{len(self.states)} state{'s' if len(self.states) != 1 else ''} ({', '.join(self.states)})")
        held.append("ROM here" if self.has_rom else "no ROM here")
        return f"{self.game} ({self.set_name}, {self.folder}): {', '.join(held)}"


def labelled_folders() -> list[tuple[str, Path]]:
    """Every folder of game folders, with its set name, in emucore's lookup order (no folder twice)."""
    root = data.path()
    names: dict[str, str] = {}
    if root:
        for name in ("contrib", "experimental", "stable"):
            names[os.path.join(root, name)] = name
    names[str(studio_integrations_dir().absolute())] = "studio"
    names[str(integrations_dir())] = "repository"
    found: list[tuple[str, Path]] = []
    seen: set[Path] = set()
    for folder in data.Integrations.ALL.folders:
        path = Path(folder).absolute()
        if path in seen:
            continue
        seen.add(path)
        found.append((names.get(folder, "custom"), path))
    return found


def _games(folder: Path) -> Iterable[tuple[Path, list[str]]]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            yield Path(entry.path), read_rom_sha(Path(entry.path) / SHA_FILE)
        except IntegrationError:
            continue  # no rom.sha (or unreadable): not a game


def rom_sha(rom: str | os.PathLike[str]) -> str:
    """The SHA-1 ``rom.sha`` lists for this ROM (emucore's rule, stable-retro's: NES without its header).

    Raises:
        UnknownSystemError: No system uses the ROM's extension.
        IntegrationError: The ROM cannot be read.
    """
    return rom_sha1(rom, system_for_path(rom).name)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return a.absolute() == b.absolute()


def known_integrations(rom: str | os.PathLike[str], *,
                       exclude: Iterable[str | os.PathLike[str]] = ()) -> list[KnownIntegration]:
    """Every integration whose ``rom.sha`` lists this ROM, in lookup order (contrib, experimental,
    custom folders, the studio's, the repository's, stable).

    The folder the ROM itself lies in and the ``exclude`` folders (the integration being opened)
    are left out: they are not news.
    """
    rom = Path(rom)
    sha = rom_sha(rom)
    skip = [Path(f) for f in exclude] + [rom.parent]
    found = []
    for set_name, base in labelled_folders():
        for folder, shas in _games(base):
            if sha in shas and not any(_same(folder, other) for other in skip):
                found.append(KnownIntegration.read(folder, set_name, shas))
    return found


def name_clashes(name: str, shas: str | Iterable[str]) -> list[KnownIntegration]:
    """The integrations called ``name`` whose ``rom.sha`` lists none of ``shas``: another ROM's, in
    lookup order. One with an empty ``rom.sha`` clashes too (stable-retro lists it all the same)."""
    ours = {sha.lower() for sha in ([shas] if isinstance(shas, str) else shas)}
    found = []
    for set_name, base in labelled_folders():
        for variant in _versions(name):
            folder = base / variant
            try:
                listed = read_rom_sha(folder / SHA_FILE)
            except IntegrationError:
                continue
            if not ours.intersection(listed):
                found.append(KnownIntegration.read(folder, set_name, listed))
    return found


def _versions(name: str) -> list[str]:
    """``name`` and the same name with or without stable-retro's version suffix (``Game-Nes`` and
    ``Game-Nes-v0``): stable-retro names its games with it, the studio proposes names without it."""
    bare = re.sub(r"-v\d+$", "", name)
    return [name, bare] if bare != name else [name, f"{name}-v0"]


def folder_clashes(folder: str | os.PathLike[str]) -> list[KnownIntegration]:
    """:func:`name_clashes` for an integration folder: its name, the hashes its ``rom.sha`` lists.

    Raises:
        IntegrationError: The folder has no readable ``rom.sha``.
    """
    folder = Path(folder)
    return name_clashes(folder.name, read_rom_sha(folder / SHA_FILE))


def clash_warning(name: str, clash: KnownIntegration) -> str:
    """What to tell the user about a name clash: the other folder and set, and what would be loaded."""
    if clash.seen_by_stable_retro:
        who = "stable-retro with Integrations.ALL"
    else:
        who = "emucore with Integrations.ALL (stable-retro does not search this set)"
    if clash.game != name:  # the same name but for stable-retro's version suffix
        return (f"{name}: the {clash.set_name} set has {clash.game} for another ROM (another dump of this game?), "
                f"{clash.folder}. Scripts that make {clash.game} get that one, and the two names are easily "
                f"confused: give this integration a name of its own, or, if this ROM is meant to be played "
                f"with that integration, open it instead.")
    return (f"{name}: the {clash.set_name} set already has an integration of this name for another ROM, "
            f"{clash.folder}. Games are looked up by name, so {who} would load that one "
            f"(or take from it every file this one lacks). Give this integration another name.")


def is_fresh(folder: str | os.PathLike[str]) -> bool:
    """Whether an integration holds no work yet: no variables, scenarios, states or scripts.

    Raises:
        IntegrationError: The folder cannot be read.
    """
    return _fresh(Integration.load(folder))


def _fresh(current: Integration) -> bool:
    return not (current.variables or current.scenario is not None or current.scenarios
                or len(current.states) or current.scripts)


def start_from(known: KnownIntegration, target: str | os.PathLike[str]) -> Path:
    """Copies a known integration's files into ``target`` (a new integration of the same ROM), atomically.

    ``target`` keeps its name, ``rom.sha``, ROM and own free files; it takes the known
    integration's data.json, scenarios, metadata.json, states, Lua scripts and free files. Nothing
    is written into the known integration's folder.

    Raises:
        ValueError: ``target`` already holds work of its own (:func:`is_fresh`): it is left as it is.
        IntegrationError: One of the folders cannot be read, or a file of the known one is malformed.
        OSError: The file system refused a write; ``target`` is unchanged.
    """
    target = Path(target)
    if _same(known.folder, target):
        raise ValueError(f"{target} is the integration itself")
    current = Integration.load(target)
    if not _fresh(current):
        raise ValueError(f"{target} already has variables, scenarios, states or scripts of its own: "
                         f"starting from {known.game} would replace them")
    source = Integration.load(known.folder)
    source.name = current.name
    source.rom_shas = current.rom_shas
    source.rom_path = current.rom_path
    source.metadata = {**current.metadata, **source.metadata}
    source.extra_files = {**source.extra_files, **current.extra_files}
    return source.save(target)
