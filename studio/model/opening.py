"""What the user asked to open (an integration name or folder, or a ROM file) as a ROM and a state,
and the integration folder a ROM belongs to (a new one in the studio's data folder for a bare ROM)."""

from __future__ import annotations

import re
from pathlib import Path

from emucore import data
from emucore.integration import (
    METADATA_FILE,
    SHA_FILE,
    STATE_SUFFIX,
    Integration,
    IntegrationError,
    default_state_name,
    find_rom,
    read_rom_sha,
    rom_sha1,
    state_file,
)
from emucore.integration import read_metadata as read_metadata_file
from emucore.paths import studio_integrations_dir
from emucore.systems import System, system_for_path
from studio.model.set_aside import OpenProblem, problem_of

DEMO = "StudioDemo-Genesis"


class OpenError(ValueError):
    """A path or name the studio cannot open; the message names it and the problem."""


def _integration_named(name: str) -> Path | None:
    if data.is_game_folder_path(name):
        return None
    for base in data.Integrations.ALL.folders:
        folder = Path(base) / name
        if folder.is_dir():
            return folder
    return None


def read_metadata(folder: Path) -> tuple[dict, OpenProblem | None]:
    """The integration's metadata.json (``{}`` when it has none), and why it could not be read, if so.

    The file is the integration's: one that cannot be read is left where it is.
    """
    path = folder / METADATA_FILE
    if not path.exists():
        return {}, None
    try:
        return read_metadata_file(path), None
    except IntegrationError as exc:
        return {}, problem_of(exc, path, "the integration opens without its default state")


def _default_state(folder: Path) -> str | None:
    try:
        return default_state_name(read_metadata(folder)[0], folder / METADATA_FILE)
    except IntegrationError:
        return None  # metadata_problems says why


def metadata_problems(folder: Path, *, state_given: bool) -> list[OpenProblem]:
    """What is wrong with metadata.json: unreadable, or (when no state was asked for) a default state
    that cannot be found. :func:`resolve_game` opens the game at power-on then; this says why."""
    metadata, problem = read_metadata(folder)
    if problem is not None:
        return [problem]
    if state_given:
        return []
    try:
        name = default_state_name(metadata, folder / METADATA_FILE)
    except IntegrationError as exc:
        return [problem_of(exc, folder / METADATA_FILE, "the game starts at power-on")]
    if name is None:
        return []
    try:
        _state_path(folder, name)
        return []
    except OpenError:
        text = f"default_state {name!r}: no such state in the integration"
    return [OpenProblem(folder / METADATA_FILE, text, "default_state", None, "the game starts at power-on")]


def resolve_game(target: str | None, state: str | None) -> tuple[Path, Path | None]:
    """The ROM and state file to open for ``target`` (default: the demo game).

    ``target`` is an integration folder, an integration name (looked up in every integration set,
    the studio's own included) or a ROM file; ``state`` a state name in the integration or a path.

    Raises:
        OpenError: Nothing to open there, naming the path and what is missing.
    """
    target = target or DEMO
    folder = Path(target).expanduser()
    if not folder.exists():
        folder = _integration_named(target) or folder
    if not folder.exists():
        raise OpenError(f"{target}: no such file, folder or integration")
    if not folder.is_dir():
        return folder, _state_path(folder.parent, state) if state else None
    rom = find_rom(folder)
    if rom is None:
        raise OpenError(
            f"{folder}: this integration has no ROM (rom.<ext>). Open the ROM file itself, "
            f"or put it in place with 'emucore import PATH'."
        )
    if state is not None:
        return rom, _state_path(folder, state) if state else None
    name = _default_state(folder)  # one that cannot be found or read: power-on (Session reports it)
    try:
        return rom, _state_path(folder, name) if name else None
    except OpenError:
        return rom, None


def _state_path(folder: Path, name: str) -> Path:
    path = Path(name).expanduser()
    if not path.is_file():
        path = folder / name if name.endswith(STATE_SUFFIX) else state_file(folder, name)
    if not path.is_file():
        raise OpenError(f"{path}: no such state")
    return path


def integration_name_for(rom: Path, system: System) -> str:
    """Gym Retro's proposal for a new integration: the file name in CamelCase, then ``-System``."""
    words = re.findall(r"[A-Za-z0-9]+", re.sub(r"\(.*?\)|\[.*?\]", " ", rom.stem))
    title = "".join(w[:1].upper() + w[1:] for w in words) or "Game"
    return f"{title}-{system.name_token}"


def integration_folder_for(rom: Path) -> tuple[Path, bool]:
    """The integration a ROM belongs to, creating one in the studio's data folder if needed.

    Returns the folder and whether it was created now.
    """
    if rom.stem == "rom" and (rom.parent / SHA_FILE).exists():
        return rom.parent, False
    system = system_for_path(rom)
    name = integration_name_for(rom, system)
    title, _, suffix = name.rpartition("-")
    sha = rom_sha1(rom, system.name)
    for n in range(1, 1000):  # another ROM of the same file name has its own folder: Game2-Nes, Game3-Nes...
        folder = studio_integrations_dir() / (name if n == 1 else f"{title}{n}-{suffix}")
        if not (folder / SHA_FILE).exists():
            break
        try:
            if sha in read_rom_sha(folder / SHA_FILE):
                return folder, False
        except (IntegrationError, OSError):
            continue  # an unreadable rom.sha is not this ROM's folder
    integration = Integration.new(folder.name, rom)
    integration.save(folder, include_rom=True)
    return folder, True
