"""``make()``: stable-retro's entry point."""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Any, Literal, overload

import gymnasium

from emucore import data as retro_data
from emucore.data.lookup import close_game_names
from emucore.enums import State
from emucore.env.float_obs import scaled_observations
from emucore.env.retro_env import RetroEnv
from emucore.errors import GameNotFoundError, did_you_mean
from emucore.integration import SHA_FILE


@overload
def make(game: str | os.PathLike[str], state: Any = State.DEFAULT, inttype: Any = None, *,
         scale_obs: Literal[False] = False, **kwargs: Any) -> RetroEnv: ...
@overload
def make(game: str | os.PathLike[str], state: Any = State.DEFAULT, inttype: Any = None, *,
         scale_obs: Literal[True], **kwargs: Any) -> gymnasium.Env: ...
def make(game: str | os.PathLike[str], state: Any = State.DEFAULT, inttype: Any = None, *,
         scale_obs: bool = False, **kwargs: Any) -> RetroEnv | gymnasium.Env:
    """A RetroEnv for ``game``; GameNotFoundError (a FileNotFoundError worded as stable-retro's) if its ROM is missing.

    ``game`` is a game name, looked up in the integration sets, or a path to a game folder
    (``"./MyGame-Nes"``), which is used alone. ``inttype`` defaults to the process-wide default
    set of integrations (see ``emucore.data``). ``scale_obs=True`` wraps it so that observations are
    float32 in [0, 1] (for RLlib's models). Made by RLlib itself with spaces its default models cannot
    take, an ``RLlibSpacesWarning`` says which ``env_config`` keys work (:mod:`emucore.ray.rllib_hint`).
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
    env = RetroEnv(game, state, inttype=inttype, **kwargs)
    scaled = scaled_observations(env) if scale_obs else env
    if "ray.rllib" in sys.modules:  # only then can RLlib be the caller (emucore.ray, a layer above, tells)
        import_module("emucore.ray.rllib_hint").warn_for_rllib(scaled, env.gamename)
    return scaled


def _imported_hint(game: str, inttype: Any) -> str:
    """`` Or did you mean X (its ROM is imported)?`` for games close to ``game`` whose ROM is there."""
    if retro_data.is_game_folder_path(game):
        return ""
    close = close_game_names(game, [g.name for g in retro_data.find_games(inttype) if g.has_rom])
    if not close:
        return ""
    whose = "its ROM is" if len(close) == 1 else "their ROMs are"
    return f" Or {did_you_mean(close)[:-1]} ({whose} imported)?"
