"""Finding games: stable-retro's ``stable_retro.data`` API over our data roots.

``import emucore.data`` gives stable-retro's names (``Integrations``, ``get_file_path``,
``list_games``, ``get_known_hashes``, ...); documented in the project spec (env-api.md §10).

Data roots
    * **stable-retro's data root** (:func:`path`): ``RETRO_DATA_PATH`` if set, else the ``data``
      folder of an installed stable-retro, found with ``importlib.util.find_spec`` (its
      compiled module is never imported). It holds the ``stable``, ``experimental`` and
      ``contrib`` sets. With neither, those sets are simply absent. stable-retro's ``DATA_PATH``
      is the folder above it (:func:`data_path_parent`): ``<DATA_PATH>/data/stable/<game>``.
    * **the studio's** integrations (``$RETRO_STUDIO_DATA/integrations``, by default
      ``~/.local/share/retro-studio/integrations``) and **our repository's** ``integrations/``
      folder: part of the STABLE set, so ``make(name)`` finds what the studio created.
    * **custom folders**: ``EMUCORE_DATA_PATH`` (``os.pathsep``-separated folders of game
      folders), then those registered with ``Integrations.add_custom_path`` /
      :func:`add_custom_integration`, in registration order. While ``EMUCORE_DATA_PATH`` names
      a folder, ``CUSTOM_ONLY`` is part of the default mask, so ``make("MyGame")`` finds its
      games (and, as a consequence, registered custom folders are then searched by default too).

Lookup order (``Integrations.folders``; only the sets enabled in the mask take part)
    1. ``<root>/contrib``                        (CONTRIB_ONLY)
    2. ``<root>/experimental``                   (EXPERIMENTAL_ONLY)
    3. ``EMUCORE_DATA_PATH`` folders, in order   (CUSTOM_ONLY)
    4. registered custom folders, in order       (CUSTOM_ONLY)
    5. the studio's integrations                 (STABLE)
    6. our ``integrations/``                      (STABLE)
    7. ``<root>/stable``                         (STABLE)

A ``game`` argument that is a path to a game folder (it holds a path separator) is looked up in
that folder alone, whatever the mask: ``make("path/to/MyGame-Nes")`` runs exactly that folder.

Each file of a game is resolved on its own (:func:`get_file_path`): the first folder holding
``<folder>/<game>/<file>`` wins, so ``rom.md`` may come from ``stable`` and
``scenario.json`` from a custom folder. For the known-hash table the *last* folder wins, so
``stable`` beats the others, as in stable-retro.

``Integrations.DEFAULT`` is the process default mask at the time of use: ``STABLE``, plus
what :func:`add_integrations` / :func:`add_custom_integration` added, plus ``CUSTOM_ONLY``
while ``EMUCORE_DATA_PATH`` is set.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from emucore.data.hashes import (
    MAX_ROM_BYTES,
    candidate_hashes,
    get_known_hashes,
    groom_rom,
    parse_smd,
    verify_hash,
)
from emucore.data.installer import merge
from emucore.data.integrations import (
    DefaultIntegrations,
    Integrations,
    add_custom_integration,
    add_integrations,
    custom_paths,
    data_path_parent,
    env_custom_paths,
    path,
    resolve,
)
from emucore.data.lookup import (
    GameInfo,
    find_games,
    game_name,
    get_fbneo_rom_name,
    get_file_path,
    get_original_romfile_path,
    get_romfile_path,
    is_fbneo_game,
    is_game_folder_path,
    list_games,
    list_scenarios,
    list_states,
)
from emucore.data.systeminfo import (
    EMU_CORES,
    EMU_EXTENSIONS,
    EMU_INFO,
    get_romfile_system,
    get_system_info,
    init_core_info,
    rom_extension_for_game,
    system_from_game_name,
)
from emucore.integration import read_rom_sha

#: The file name extension of core libraries on this platform (stable-retro's ``data.EXT``).
EXT = {"darwin": "dylib", "win32": "dll"}.get(sys.platform, "so")

# stable-retro's GameData is its API on top of emucore's evaluator: emucore.retro, a layer above this
# one (see the import contracts in pyproject.toml), so it is named here and imported at first use.
_LAZY = {
    "GameData": ("emucore.retro.gamedata", "GameData"),
    # stable-retro's base class of GameData, constructible empty and load()-ed: here GameData itself
    "GameDataGlue": ("emucore.retro.gamedata", "GameData"),
    "Variables": ("emucore.retro.gamedata", "Variables"),
}


def __getattr__(name: str) -> Any:
    """``GameData``, ``GameDataGlue`` and ``Variables`` load when first used (they bring the evaluator
    along); ``DATA_PATH`` is :func:`data_path_parent` at the time of the access."""
    if name == "DATA_PATH":
        return data_path_parent()
    found = _LAZY.get(name)
    if found is None:
        raise AttributeError(f"module 'emucore.data' has no attribute {name!r}")
    return getattr(importlib.import_module(found[0]), found[1])


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"DATA_PATH"})


__all__ = [
    "DATA_PATH",
    "EMU_CORES",
    "EMU_EXTENSIONS",
    "EMU_INFO",
    "EXT",
    "MAX_ROM_BYTES",
    "DefaultIntegrations",
    "GameData",
    "GameDataGlue",
    "GameInfo",
    "Integrations",
    "add_custom_integration",
    "add_integrations",
    "candidate_hashes",
    "custom_paths",
    "data_path_parent",
    "env_custom_paths",
    "find_games",
    "game_name",
    "get_fbneo_rom_name",
    "get_file_path",
    "get_known_hashes",
    "get_original_romfile_path",
    "get_romfile_path",
    "get_romfile_system",
    "get_system_info",
    "groom_rom",
    "init_core_info",
    "is_fbneo_game",
    "is_game_folder_path",
    "list_games",
    "list_scenarios",
    "list_states",
    "merge",
    "parse_smd",
    "path",
    "read_rom_sha",
    "resolve",
    "rom_extension_for_game",
    "system_from_game_name",
    "verify_hash",
    "Variables",
]
