"""emucore: a libretro host and Gymnasium env layer, compatible with stable-retro.

``import emucore as retro`` gives stable-retro's names: ``retro.make``, ``retro.RetroEnv``,
``retro.State``, ``retro.Actions``, ``retro.Observations``, ``retro.data``, ``retro.RetroEmulator``.
The Gymnasium parts load when first used, so the host alone does not import Gymnasium.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from emucore import data
from emucore.data import get_fbneo_rom_name, get_romfile_system, get_system_info, is_fbneo_game
from emucore.enums import Actions, Observations, State
from emucore.errors import (
    CoreError,
    CoreLoadError,
    CoreNotFoundError,
    EmucoreError,
    GameLoadError,
    GameNotFoundError,
    RomError,
    RomNotFoundError,
    StateError,
    StateNotFoundError,
    UnknownSystemError,
    UnmappedAddressError,
)
from emucore.host.emulator import Emulator
from emucore.systems import get_system, system_for_path

RetroEmulator = Emulator

#: stable-retro's ``ROOT_DIR``: the package's folder.
ROOT_DIR = os.path.dirname(os.path.abspath(__file__))

__version__ = "0.1.0"

_LAZY = {
    "make": "emucore.env",
    "RetroEnv": "emucore.env",
    "RetroVectorEnv": "emucore.env",
    "Movie": "emucore.movie",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'emucore' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def core_path(path: str | None = None) -> str:
    """stable-retro's ``core_path``: with ``path``, make it the folder searched first for cores
    (it is put in front of ``EMUCORE_CORE_PATH``); returns the folder searched first."""
    from emucore.host.corefinder import search_dirs

    if path is not None:
        current = os.environ.get("EMUCORE_CORE_PATH")
        os.environ["EMUCORE_CORE_PATH"] = os.pathsep.join([str(path), current] if current else [str(path)])
    dirs = search_dirs()
    return str(dirs[0][1]) if dirs else ""


def get_core_path(system: str) -> str:
    """The core library that runs ``system`` on this machine (stable-retro's name)."""
    from emucore.host.corefinder import find_core

    return str(find_core(system).path)


__all__ = [
    "Actions",
    "CoreError",
    "CoreLoadError",
    "CoreNotFoundError",
    "EmucoreError",
    "Emulator",
    "GameLoadError",
    "GameNotFoundError",
    "Observations",
    "ROOT_DIR",
    "RetroEmulator",
    "RetroEnv",
    "RetroVectorEnv",
    "RomError",
    "RomNotFoundError",
    "State",
    "StateError",
    "StateNotFoundError",
    "UnknownSystemError",
    "UnmappedAddressError",
    "core_path",
    "data",
    "get_core_path",
    "get_fbneo_rom_name",
    "get_romfile_system",
    "get_system",
    "get_system_info",
    "is_fbneo_game",
    "make",
    "system_for_path",
]
