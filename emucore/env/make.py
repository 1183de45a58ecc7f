"""``make()``: stable-retro's entry point."""

from __future__ import annotations

import os
from typing import Any

from emucore import data as retro_data
from emucore.data.lookup import close_game_names
from emucore.enums import State
from emucore.env.retro_env import RetroEnv
from emucore.errors import GameNotFoundError, did_you_mean
from emucore.integration import SHA_FILE


def make(game: str | os.PathLike[str], state: Any = State.DEFAULT, inttype: Any = None, **kwargs: Any) -> RetroEnv:
    """A RetroEnv for ``game``; GameNotFoundError (a FileNotFoundError worded as stable-retro's) if its ROM is missing.

    ``game`` is a game name, looked up in the integration sets, or a path to a game folder
    (``"./MyGame-Nes"``), which is used alone. ``inttype`` defaults to the process-wide default
    set of integrations (see ``emucore.data``).
    """
    game = os.fspath(game)
    inttype = retro_data.resolve(retro_data.Integrations.DEFAULT if inttype is None else inttype)
    try:
        retro_data.get_romfile_path(game, inttype)
    except FileNotFoundError:
        if not retro_data.get_file_path(game, SHA_FILE, inttype):
            raise
        raise GameNotFoundError(
            f"Game not found: {game}. Did you make sure to import the ROM?{_imported_hint(game, inttype)}"
        ) from None
    return RetroEnv(game, state, inttype=inttype, **kwargs)


def _imported_hint(game: str, inttype: Any) -> str:
    """`` Or did you mean X (its ROM is imported)?`` for games close to ``game`` whose ROM is there."""
    if retro_data.is_game_folder_path(game):
        return ""
    close = close_game_names(game, [g.name for g in retro_data.find_games(inttype) if g.has_rom])
    if not close:
        return ""
    whose = "its ROM is" if len(close) == 1 else "their ROMs are"
    return f" Or {did_you_mean(close)[:-1]} ({whose} imported)?"
