"""What the user asked to open (an integration name or folder, or a ROM file) as a ROM and a state,
and the integration folder a ROM belongs to (a new one in the studio's data folder for a bare ROM)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from emucore import data
from emucore.integration import Integration
from emucore.paths import studio_integrations_dir
from emucore.systems import System, system_for_path

DEMO = "StudioDemo-Genesis"


class OpenError(ValueError):
    """A path or name the studio cannot open; the message names it and the problem."""


def _integration_named(name: str) -> Path | None:
    if data.is_game_folder_path(name):
        return None
    for base in data.Integrations.ALL.paths:
        folder = Path(base) / name
        if folder.is_dir():
            return folder
    return None


def _default_state(folder: Path) -> str | None:
    metadata = folder / "metadata.json"
    if not metadata.is_file():
        return None
    try:
        value = json.loads(metadata.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise OpenError(f"{metadata}: cannot be read as JSON ({exc})") from None
    name = value.get("default_state") if isinstance(value, dict) else None
    return name if isinstance(name, str) and name else None


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
    roms = sorted(p for p in folder.glob("rom.*") if p.suffix not in (".sha", ".delta"))
    if not roms:
        raise OpenError(
            f"{folder}: this integration has no ROM (rom.<ext>). Open the ROM file itself, "
            f"or put it in place with 'emucore import PATH'."
        )
    name = state if state is not None else _default_state(folder)
    return roms[0], _state_path(folder, name) if name else None


def _state_path(folder: Path, name: str) -> Path:
    path = Path(name).expanduser()
    if not path.is_file():
        path = folder / (name if name.endswith(".state") else f"{name}.state")
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
    if rom.stem == "rom" and (rom.parent / "rom.sha").exists():
        return rom.parent, False
    system = system_for_path(rom)
    folder = studio_integrations_dir() / integration_name_for(rom, system)
    if (folder / "rom.sha").exists():
        return folder, False
    integration = Integration.new(folder.name, rom)
    integration.save(folder, include_rom=True)
    return folder, True
