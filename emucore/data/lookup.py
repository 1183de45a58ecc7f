"""Finding a game's files across the integration sets, and listing games, states and scenarios."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import NamedTuple

from emucore.data.integrations import Integrations, is_registered_custom, resolve
from emucore.data.systeminfo import EMU_EXTENSIONS, system_from_game_name
from emucore.errors import GameNotFoundError, did_you_mean
from emucore.integration.common import IntegrationError
from emucore.integration.listing import METADATA_FILE, SHA_FILE, rom_file_names
from emucore.integration.metadatafile import is_file_name, read_metadata
from emucore.integration.scenariofile import is_scenario_file
from emucore.integration.statefile import STATE_SUFFIX

_ROM_NAMES = tuple(rom_file_names())


def is_game_folder_path(game: str) -> bool:
    """Whether ``game`` names a game folder by path (it holds a separator) rather than by name."""
    return os.sep in game or bool(os.altsep and os.altsep in game)


def game_name(game: str) -> str:
    """The game's name: ``game`` itself, or the last part of a game folder's path."""
    return os.path.basename(os.path.normpath(game)) if is_game_folder_path(game) else game


def game_dirs(game: str, inttype: Integrations | int) -> list[str]:
    """The folders a game's files are looked for in, in order: the folder itself when given by path."""
    if is_game_folder_path(game):
        return [os.path.abspath(os.path.expanduser(game))]
    return [os.path.join(folder, game) for folder in resolve(inttype).folders]


def get_file_path(
    game: str, file: str | os.PathLike[str], inttype: Integrations | int = Integrations.DEFAULT
) -> str | None:
    """The first existing ``<set>/<game>/<file>`` in lookup order, or ``None``.

    Each file is resolved on its own, so one game's files may come from different sets.

    Args:
        game: The game folder name, e.g. ``"Airstriker-Genesis-v0"``, or a path to a game folder
            (then only that folder is searched).
        file: A file name inside the game folder. An absolute path is returned as-is if it exists.
        inttype: The sets to search.
    """
    file = os.fspath(file)
    if os.path.isabs(file):
        return file if os.path.exists(file) else None
    for game_dir in game_dirs(game, inttype):
        candidate = os.path.join(game_dir, file)
        if os.path.exists(candidate):
            return candidate
    return None


def get_romfile_path(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> str:
    """The game's ``rom.<ext>``, trying every known extension in the systems table order.

    Raises:
        GameNotFoundError: ``"No romfiles found for game: <game>"`` (a FileNotFoundError).
    """
    folders = game_dirs(game, inttype)
    for name in _ROM_NAMES:
        for game_dir in folders:
            candidate = os.path.join(game_dir, name)
            if os.path.exists(candidate):
                return candidate
    raise GameNotFoundError(f"No romfiles found for game: {game}{unknown_game_hint(game, inttype)}")


def close_game_names(game: str, games: list[str], n: int = 3) -> list[str]:
    """The names of ``games`` close to ``game``, closest first.

    Names are ``<Title>-<System>[-vN]``: the titles are compared (difflib, case ignored), so that the
    shared ``-Nes-v0`` of two unrelated games makes no match; among the close titles the whole names rank.
    """
    title = game.partition("-")[0].lower()
    by_title: dict[str, list[str]] = {}
    for name in games:
        by_title.setdefault(name.partition("-")[0].lower(), []).append(name)
    close_titles = difflib.get_close_matches(title, list(by_title), n=n, cutoff=0.75)
    candidates = {name.lower(): name for t in close_titles for name in by_title[t]}
    ranked = difflib.get_close_matches(game.lower(), list(candidates), n=n, cutoff=0.0)
    return [candidates[name] for name in ranked if candidates[name] != game]


def unknown_game_hint(game: str, inttype: Integrations | int) -> str:
    """``"; did you mean ...?"`` when no set knows ``game`` by name and some known names are close."""
    if is_game_folder_path(game) or _public_lookups().get_file_path(game, SHA_FILE, inttype):
        return ""
    try:
        hint = did_you_mean(close_game_names(game, list_games(inttype)))
    except OSError:
        return ""
    return f"; {hint}" if hint else ""


def _public_lookups():
    """``emucore.data`` itself: lookups that call each other go through the public module, so code
    that replaces ``retro.data.get_file_path`` or ``get_romfile_path`` (stable-retro's own tests
    do) is followed, as in stable-retro, where they live in one module."""
    import emucore.data

    return emucore.data


def _read_metadata(game: str, inttype: Integrations | int) -> dict:
    metadata = _public_lookups().get_file_path(game, METADATA_FILE, inttype)
    if not metadata or not os.path.isfile(metadata):
        return {}
    try:
        return read_metadata(metadata)
    except IntegrationError:
        return {}  # the env reads it again, and raises, naming the file and the problem


def get_original_romfile_path(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> str:
    """``metadata.json``'s ``original_rom_name`` (FBNeo) if that file exists, else :func:`get_romfile_path`."""
    lookups = _public_lookups()
    original = _read_metadata(game, inttype).get("original_rom_name")
    if isinstance(original, str) and is_file_name(original):
        found = lookups.get_file_path(game, original, inttype)
        if found and os.path.exists(found):
            return found
    return lookups.get_romfile_path(game, inttype)


def get_fbneo_rom_name(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> str | None:
    """``metadata.json``'s ``original_rom_name`` (e.g. ``"mk2.zip"``), or ``None``."""
    name = _read_metadata(game, inttype).get("original_rom_name")
    return name if isinstance(name, str) and is_file_name(name) else None


def is_fbneo_game(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> bool:
    """Whether ``metadata.json`` says ``"system": "FBNeo"``."""
    return _read_metadata(game, inttype).get("system") == "FBNeo"


def _listdir(folder: str, strict: bool) -> list[str]:
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        if strict:
            raise
        return []
    except OSError:
        return []


def list_games(inttype: Integrations | int = Integrations.DEFAULT) -> list[str]:
    """Sorted names of the game folders that have a ``rom.sha``, ROM present or not.

    A missing or unreadable set folder is skipped, except an explicitly registered custom
    folder that does not exist, which raises ``FileNotFoundError`` as in stable-retro.
    """
    games: set[str] = set()
    for folder in resolve(inttype).folders:
        for name in _listdir(folder, strict=is_registered_custom(folder)):
            if name not in games and os.path.exists(os.path.join(folder, name, SHA_FILE)):
                games.add(name)
    return sorted(games)


def _game_files(game: str, inttype: Integrations | int, suffix: str) -> list[tuple[str, str]]:
    """``(folder, name)`` of every ``*<suffix>`` file of the game, across the sets (hidden names skipped)."""
    found = []
    for game_dir in game_dirs(game, inttype):
        for name in _listdir(game_dir, strict=False):
            if name.endswith(suffix) and len(name) > len(suffix) and not name.startswith("."):
                found.append((game_dir, name))
    return found


def list_states(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> list[str]:
    """Sorted state names (no ``.state``) across the sets; names starting with ``_`` are hidden."""
    states = {name[: -len(STATE_SUFFIX)] for _, name in _game_files(game, inttype, STATE_SUFFIX)
              if not name.startswith("_")}
    return sorted(states)


def list_scenarios(game: str, inttype: Integrations | int = Integrations.DEFAULT) -> list[str]:
    """Sorted names of the game's ``*.json`` files that parse to an object with reward, rewards or done."""
    scenarios = set()
    for game_dir, name in _game_files(game, inttype, ".json"):
        if is_scenario_file(os.path.join(game_dir, name)):
            scenarios.add(name[: -len(".json")])
    return sorted(scenarios)


class GameInfo(NamedTuple):
    """One row of :func:`find_games`."""

    name: str
    folder: Path  # the game folder whose rom.sha the lookup resolves
    has_rom: bool  # some enabled set holds a rom.<ext>
    system: str | None  # from the ROM's extension, else from the name; None if neither tells


def find_games(inttype: Integrations | int = Integrations.ALL) -> list[GameInfo]:
    """Every game of the enabled sets, sorted by name, with whether a ROM is present.

    Lists each game folder once (one directory read per folder), so it stays fast over the
    ~1000 games of stable-retro. Missing or unreadable folders are skipped, never raised.
    """
    sha_folder: dict[str, str] = {}
    rom_files: dict[str, set[str]] = {}
    for folder in resolve(inttype).folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if not entry.is_dir():
                    continue
                names = os.listdir(entry.path)
            except OSError:
                continue
            if SHA_FILE in names and entry.name not in sha_folder:
                sha_folder[entry.name] = entry.path
            roms = [n for n in names if n in _ROM_NAMES]
            if roms:
                rom_files.setdefault(entry.name, set()).update(roms)
    games = []
    for name in sorted(sha_folder):
        present = rom_files.get(name, set())
        system = None
        for rom in _ROM_NAMES:
            if rom in present:
                system = EMU_EXTENSIONS[rom[3:]]
                break
        games.append(GameInfo(name, Path(sha_folder[name]), system is not None, system or system_from_game_name(name)))
    return games
