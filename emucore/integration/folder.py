"""An integration folder in memory: load it, make a new one from a ROM, save it atomically."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from emucore.fileio import named_write_error
from emucore.integration import jsontext
from emucore.integration.common import IntegrationError, read_file, rom_sha1, system_from_extension, system_from_name
from emucore.integration.datafile import DATA_FILE, Variable, dump_data_json, parse_data_json
from emucore.integration.listing import METADATA_FILE, SHA_FILE, Listing, list_folder
from emucore.integration.metadatafile import parse_metadata
from emucore.integration.scenariofile import (
    SCENARIO_FILE,
    dump_scenario_json,
    is_scenario,
    parse_scenario_json,
    validate_scenario,
)
from emucore.integration.statefile import MAX_STATE_BYTES, STATE_SUFFIX, StateStore, gzip_state
from emucore.systems import system_for_path, systems


def read_text(path: Path) -> str:
    """A text file of the folder (UTF-8; undecodable bytes survive a save unchanged). JSON is read as bytes."""
    return read_file(path).decode("utf-8", errors="surrogateescape")


def read_bytes(path: Path) -> bytes:
    """A file of the folder; an IntegrationError naming it when it cannot be read."""
    return read_file(path, MAX_STATE_BYTES)


def parse_sha_text(text: str) -> list[str]:
    """The hashes of a ``rom.sha`` text, one per non-empty line (whitespace stripped)."""
    return [line.strip() for line in text.strip().split("\n") if line.strip()]


def read_rom_sha(path: str | os.PathLike[str]) -> list[str]:
    """The SHA-1s a ``rom.sha`` file lists, as stable-retro reads them: case, CR and bad UTF-8 are
    tolerated (lint reports them).

    Raises:
        IntegrationError: The file cannot be read, or is unreasonably large.
    """
    text = read_file(path).decode("utf-8", errors="replace")
    return [sha.lower() for sha in parse_sha_text(text)]


def other_scenarios(
    listing: Listing, errors: list[IntegrationError] | None = None
) -> tuple[dict[str, dict], dict[str, Path]]:
    """The alternative scenarios of a folder by name, and its other ``*.json`` files (not scenarios).

    Args:
        listing: The folder's files.
        errors: If given, a scenario stable-retro cannot load is left out and its error added
            here; otherwise the error is raised.
    """
    scenarios: dict[str, dict] = {}
    plain: dict[str, Path] = {}
    for name, path in listing.json.items():
        if name in (DATA_FILE, METADATA_FILE, SCENARIO_FILE):
            continue
        try:
            data = read_bytes(path)
            try:
                decoded = json.loads(data)
            except (ValueError, RecursionError):
                decoded = None  # stable-retro skips a json file it cannot decode
            if is_scenario(decoded):
                text = data.decode("utf-8-sig", errors="replace")
                scenarios[name[: -len(".json")]] = validate_scenario(decoded, path, text)
            else:
                plain[name] = path
        except IntegrationError as e:
            if errors is None:
                raise
            errors.append(e)
    return scenarios, plain


@dataclass
class Integration:
    """One game's integration folder: variables, scenarios, metadata, states, scripts and ROM hashes.

    Attributes:
        name: The folder name, which is the game id (``Airstriker-Genesis-v0``).
        folder: Where it was loaded from or last saved to; None for a new, unsaved one.
        variables: ``data.json`` variables by name.
        scenario: ``scenario.json``, as decoded; None when there is none.
        scenarios: The other scenario files by name (``contest`` for ``contest.json``).
        metadata: ``metadata.json`` ({} when there is none).
        states: State name -> raw core state (uncompressed). Read lazily.
        scripts: Lua file name -> source text.
        rom_shas: The SHA-1s of ``rom.sha``.
        rom_path: The ROM file, when known.
        extra_files: Other files to carry along, by relative path (``notes.txt``, ``rom.delta``).
    """

    name: str
    folder: Path | None = None
    variables: dict[str, Variable] = field(default_factory=dict)
    scenario: dict | None = None
    scenarios: dict[str, dict] = field(default_factory=dict)
    metadata: dict = field(default_factory=dict)
    states: StateStore | dict[str, bytes] = field(default_factory=StateStore)
    scripts: dict[str, str] = field(default_factory=dict)
    rom_shas: list[str] = field(default_factory=list)
    rom_path: Path | None = None
    extra_files: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: str | os.PathLike[str]) -> Integration:
        """Reads an integration folder.

        States are read when first used. ``rom.<ext>`` files (and an FBNeo ``original_rom_name``)
        become ``rom_path``, not extra files.

        Raises:
            IntegrationError: The folder does not exist, or a JSON file stable-retro would use is
                malformed (the message names the file, line and key).
        """
        listing = list_folder(Path(folder).absolute())
        path = listing.folder
        json_files = listing.json
        metadata = {}
        if METADATA_FILE in json_files:
            metadata = parse_metadata(read_bytes(json_files[METADATA_FILE]), json_files[METADATA_FILE])
        variables = {}
        if DATA_FILE in json_files:
            variables = parse_data_json(read_bytes(json_files[DATA_FILE]), json_files[DATA_FILE])
        scenario = None
        if SCENARIO_FILE in json_files:
            scenario = parse_scenario_json(read_bytes(json_files[SCENARIO_FILE]), json_files[SCENARIO_FILE])
        scenarios, plain_json = other_scenarios(listing)
        sha_file = listing.others.pop(SHA_FILE, None)
        rom_shas = parse_sha_text(read_text(sha_file)) if sha_file else []
        original = metadata.get("original_rom_name")
        if isinstance(original, str) and original in listing.others:
            del listing.others[original]  # the FBNeo set's ROM under its own name: a ROM, not a free file
        extra = {name: read_bytes(p) for name, p in {**plain_json, **listing.others}.items()}
        return cls(
            name=path.name,
            folder=path,
            variables=variables,
            scenario=scenario,
            scenarios=scenarios,
            metadata=metadata,
            states=StateStore(files=listing.states),
            scripts={name: read_text(p) for name, p in listing.scripts.items()},
            rom_shas=rom_shas,
            rom_path=listing.roms[0] if listing.roms else None,
            extra_files=dict(sorted(extra.items())),
        )

    @classmethod
    def new(cls, name: str, rom_path: str | os.PathLike[str]) -> Integration:
        """A new integration for a ROM: its hash listed, nothing else yet.

        Args:
            name: The game id, e.g. ``MyGame-Genesis``; it should end with the ROM's system.
            rom_path: The ROM; its extension decides the system.

        Raises:
            UnknownSystemError: No system uses the ROM's extension.
            IntegrationError: The ROM cannot be read.
        """
        rom_path = Path(rom_path)
        system = system_for_path(rom_path)
        return cls(name=name, rom_path=rom_path, rom_shas=[rom_sha1(rom_path, system.name)])

    def system(self) -> str | None:
        """The system: from the ROM's extension, else from the name (``-Arcade`` -> ``FBNeo``), else metadata."""
        if self.rom_path is not None:
            found = system_from_extension(self.rom_path)
            if found:
                return found
        found = system_from_name(self.name)
        if found:
            return found
        declared = self.metadata.get("system")
        return declared if isinstance(declared, str) and declared in systems() else None

    def files(self, *, include_rom: bool = False) -> dict[str, bytes | Path]:
        """Every file a save writes, by relative path: content, or a file to copy."""
        out: dict[str, bytes | Path] = {}

        def put(name: str, content: bytes | Path) -> None:
            parts = PurePosixPath(name).parts
            if not parts or name.startswith("/") or ".." in parts or "\\" in name:
                raise IntegrationError(self.folder, f"cannot save a file named {name!r}: not a plain relative path")
            if name in out:
                raise IntegrationError(self.folder, f"two files would be saved as {name!r}")
            out[name] = content

        put(SHA_FILE, "".join(f"{sha}\n" for sha in self.rom_shas).encode())
        put(DATA_FILE, dump_data_json(self.variables).encode())
        if self.scenario is not None:
            put(SCENARIO_FILE, dump_scenario_json(self.scenario).encode())
        for name, scenario in self.scenarios.items():
            put(f"{name}.json", dump_scenario_json(scenario).encode())
        put(METADATA_FILE, jsontext.dump(self.metadata).encode())
        for name in self.states:
            if isinstance(self.states, StateStore):
                put(f"{name}{STATE_SUFFIX}", self.states.compressed(name))
            else:
                put(f"{name}{STATE_SUFFIX}", gzip_state(self.states[name]))
        for name, source in self.scripts.items():
            put(name, source.encode("utf-8", errors="surrogateescape"))
        for name, content in self.extra_files.items():
            put(name, bytes(content))
        if include_rom:
            for name, rom in self._rom_files().items():
                put(name, rom)
        return out

    def _rom_files(self) -> dict[str, Path]:
        if self.rom_path is None:
            raise IntegrationError(self.folder, "include_rom=True but the integration has no ROM file")
        roms = {f"rom{self.rom_path.suffix.lower()}": self.rom_path}
        original = self.metadata.get("original_rom_name")
        if isinstance(original, str) and (self.rom_path.parent / original).is_file():
            roms[original] = self.rom_path.parent / original
        return roms

    def save(self, folder: str | os.PathLike[str] | None = None, *, include_rom: bool = False) -> Path:
        """Writes the integration folder atomically and returns it.

        The whole folder is written into a temporary sibling, then renamed into place; an
        existing folder is renamed aside first and deleted last, so a failure leaves either the
        old folder or the new one, never a mix. ROM files already in an existing target folder
        are kept even without ``include_rom`` (a save must not delete the user's ROM).

        Args:
            folder: The integration folder to write (its name should be the game id); default
                :attr:`folder`.
            include_rom: Also write ``rom.<ext>``, a copy of :attr:`rom_path`.

        Raises:
            IntegrationError: No folder given and none known, or ``include_rom`` without a ROM.
            OSError: The file system refused a write; the target is unchanged.
        """
        target = Path(folder) if folder is not None else self.folder
        if target is None:
            raise IntegrationError(None, f"no folder to save {self.name!r} to")
        target = target.absolute()
        if target.exists() and not target.is_dir():
            raise IntegrationError(target, "exists and is not a folder")
        files = self.files(include_rom=include_rom)
        if target.is_dir():
            kept = list_folder(target)
            for rom in kept.roms:
                files.setdefault(rom.name, rom)
            original = self.metadata.get("original_rom_name")
            if isinstance(original, str) and original in kept.others:
                files.setdefault(original, kept.others[original])
        created = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.saving-", dir=target.parent))
        except OSError as error:
            _remove_empty(created)
            raise named_write_error(error, target) from error
        try:
            # mkdtemp makes the folder private (0700); give it the old folder's mode or the usual one
            os.chmod(staging, target.stat().st_mode & 0o7777 if target.is_dir() else 0o755)
            for name, content in files.items():
                write_file(staging / name, content)
            _sync_dir(staging)
            replace_folder(staging, target)
        except BaseException as error:
            shutil.rmtree(staging, ignore_errors=True)
            _remove_empty(created)  # a failed save leaves nothing behind, not even the folders it made
            if isinstance(error, OSError):
                raise named_write_error(error, target) from error
            raise
        self.folder = target
        if isinstance(self.states, StateStore):
            self.states.moved_to(target)
        if include_rom and self.rom_path is not None:
            self.rom_path = target / f"rom{self.rom_path.suffix.lower()}"
        return target


def _remove_empty(folders: list[Path]) -> None:
    for folder in folders:  # deepest first
        try:
            folder.rmdir()
        except OSError:
            return


def write_file(path: Path, content: bytes | Path) -> None:
    """Writes one file of a folder being saved (content, or a copy of a file), flushed to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, Path):
        shutil.copyfile(content, path)
        with open(path, "rb") as f:
            os.fsync(f.fileno())
        return
    with open(path, "wb") as f:
        f.write(content)
        f.flush()
        os.fsync(f.fileno())


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def replace_folder(staging: Path, target: Path) -> None:
    """Renames ``staging`` to ``target``; an existing ``target`` is moved aside first and deleted last."""
    if not target.exists():
        os.rename(staging, target)
        _sync_dir(target.parent)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rmdir(aside)  # only the unique name is wanted
    os.rename(target, aside)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    _sync_dir(target.parent)
    shutil.rmtree(aside, ignore_errors=True)
