"""Real Atari 2600 games for the assisted-integration figures: ale-py's ROMs, stable-retro's
integrations as ground truth (both from their wheels; nothing of theirs is copied into the repo).

:func:`open_game` copies a stable-retro Atari integration and the matching ale-py ROM into a
scratch folder and opens it with ``emucore.make``: the env evaluates the shipped scenario, and
``env.em`` is the emulator the solvers read.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import emucore
from emucore.env.retro_env import RetroEnv


def stable_data() -> Path | None:
    try:
        import stable_retro
    except ImportError:
        return None
    return Path(stable_retro.__file__).parent / "data" / "stable"


def ale_rom(game: str) -> Path | None:
    """The ale-py ROM of a stable-retro Atari game name (``SpaceInvaders`` -> ``space_invaders.bin``)."""
    try:
        import ale_py.roms
    except ImportError:
        return None
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", game).lower()
    found = Path(ale_py.roms.__file__).parent / f"{name}.bin"
    return found if found.is_file() else None


def game_folder(game: str, scratch: Path | None = None) -> Path | None:
    """A copy of ``<game>-Atari2600-v0`` with ale-py's ROM in it (a game folder ``emucore.make`` opens by its
    path); None if either is missing."""
    data_root, rom = stable_data(), ale_rom(game)
    if data_root is None or rom is None or not (data_root / f"{game}-Atari2600-v0").is_dir():
        return None
    scratch = scratch or Path(tempfile.mkdtemp(prefix="emucore-bench-"))
    folder = scratch / f"{game}-Atari2600-v0"
    shutil.copytree(data_root / folder.name, folder, dirs_exist_ok=True)
    shutil.copyfile(rom, folder / "rom.a26")
    return folder


def open_game(game: str, scratch: Path | None = None, **make_kwargs: Any) -> RetroEnv | None:
    """``emucore.make`` on a copy of ``<game>-Atari2600-v0`` with ale-py's ROM; None if either is missing."""
    folder = game_folder(game, scratch)
    return None if folder is None else emucore.make(str(folder), **make_kwargs)
