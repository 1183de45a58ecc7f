"""stable-retro's core tables (``EMU_CORES``, ``EMU_INFO``, ``EMU_EXTENSIONS``), from our descriptors."""

from __future__ import annotations

import glob
import os
import re
from typing import Any

from emucore.systems import System, extension_table, load_core_info, systems


def _info(system: System) -> dict[str, Any]:
    info: dict[str, Any] = {
        "lib": system.cores[0],
        "ext": list(system.extensions),
        "rambase": system.rambase,
        "keybinds": list(system.keybinds),
        "buttons": list(system.buttons),
        "actions": system.actions,
    }
    if system.types is not None:
        info["types"] = list(system.types)
    if system.overlay is not None:
        info["overlay"] = list(system.overlay)
    return info


#: System token to the file name of the core stable-retro uses for it (``"genesis_plus_gx_libretro.so"``).
EMU_CORES: dict[str, str] = {name: f"{s.cores[0]}_libretro.so" for name, s in systems().items()}
#: System token to a dict shaped like stable-retro's cores json entry.
EMU_INFO: dict[str, dict[str, Any]] = {name: _info(s) for name, s in systems().items()}
#: ``".ext"`` to system token, in the systems table order (the order ``rom.<ext>`` is looked up in).
EMU_EXTENSIONS: dict[str, str] = extension_table()


def init_core_info(path: str | os.PathLike[str]) -> None:
    """stable-retro's: loads each ``*.json`` core info file of the folder ``path``
    (:func:`emucore.systems.load_core_info`: what emulators made from now on use), then brings
    ``EMU_CORES``, ``EMU_INFO`` and ``EMU_EXTENSIONS`` up to date.

    Raises:
        ValueError: naming a file that is not core info JSON (the files before it are loaded).
        OSError: a file cannot be read.
    """
    for file in sorted(glob.glob(os.path.join(glob.escape(os.fspath(path)), "*.json"))):
        with open(file, encoding="utf-8") as f:
            text = f.read()
        if not load_core_info(text):
            raise ValueError(f"{file}: not core info JSON ({{system: {{lib, ext, buttons, ...}}}}, as stable-retro's)")
    for name, system in systems().items():
        EMU_CORES[name] = f"{system.cores[0]}_libretro.so"
        EMU_INFO[name] = _info(system)
    EMU_EXTENSIONS.update(extension_table())


def get_romfile_system(rom_path: str | os.PathLike[str]) -> str:
    """The system token of a ROM, from its extension (case-sensitive, like stable-retro).

    Raises:
        Exception: ``"Unsupported rom type at path: <path>"`` for an unknown extension.
    """
    extension = os.path.splitext(os.fspath(rom_path))[1]
    try:
        return EMU_EXTENSIONS[extension]
    except KeyError:
        raise Exception(f"Unsupported rom type at path: {os.fspath(rom_path)}") from None


def get_system_info(system: str) -> dict[str, Any]:
    """The cores-json-like dict of a system: lib, ext, rambase, keybinds, buttons, actions, [types], [overlay].

    Raises:
        KeyError: ``"Unsupported system type: <system>"``.
    """
    try:
        return EMU_INFO[system]
    except KeyError:
        raise KeyError(f"Unsupported system type: {system}") from None


_VERSION_SUFFIX = re.compile(r"-v\d+$")


def system_from_game_name(game: str) -> str | None:
    """The system a game folder name declares, as stable-retro's importer reads it.

    A trailing ``-v<digits>`` is dropped and the text after the last ``-`` is the token: a
    system token (``Genesis``) or a system's name token (``Arcade`` for FBNeo, any case).
    ``None`` when the token names no system.
    """
    token = _VERSION_SUFFIX.sub("", game).rsplit("-", 1)[-1]
    table = systems()
    if token in table:
        return token
    for system in table.values():
        if system.name_token != system.name and system.name_token.lower() == token.lower():
            return system.name
    return None


def rom_extension_for_game(game: str) -> str | None:
    """``".ext"`` of the ``rom.<ext>`` the importer writes for ``game`` (the system's first extension)."""
    system = system_from_game_name(game)
    if system is None:
        return None
    return "." + systems()[system].extensions[0]
