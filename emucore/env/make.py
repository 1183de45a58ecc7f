"""``make()``: stable-retro's entry point."""

from __future__ import annotations

from typing import Any

from emucore import data as retro_data
from emucore.enums import State
from emucore.env.retro_env import RetroEnv


def make(game: str, state: Any = State.DEFAULT, inttype: Any = None, **kwargs: Any) -> RetroEnv:
    """A RetroEnv for ``game``; FileNotFoundError, as stable-retro words it, if its ROM is missing.

    ``inttype`` defaults to the process-wide default set of integrations (see ``emucore.data``).
    """
    inttype = retro_data.resolve(retro_data.Integrations.DEFAULT if inttype is None else inttype)
    try:
        retro_data.get_romfile_path(game, inttype)
    except FileNotFoundError:
        if not retro_data.get_file_path(game, "rom.sha", inttype):
            raise
        raise FileNotFoundError(f"Game not found: {game}. Did you make sure to import the ROM?") from None
    return RetroEnv(game, state, inttype=inttype, **kwargs)
