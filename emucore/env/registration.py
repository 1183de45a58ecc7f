"""Registers every known game with Gymnasium as ``emucore/<Game>``.

Runs when ``emucore.env`` is imported, and in any interpreter when Gymnasium is first imported
(see ``emucore_gymnasium``), so it must stay cheap: one directory listing per lookup folder and a
plain spec per game (``gymnasium.register`` checks every spec against all others, which costs
~70 ms over stable-retro's ~1000 games; this takes ~7 ms). Each spec has a vector entry point, so
``gymnasium.make_vec(id, n, vectorization_mode="vector_entry_point")`` builds a ``RetroVectorEnv``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium.envs.registration import EnvSpec

from emucore import data as retro_data

ENTRY_POINT = "emucore.env.make:make"
VECTOR_ENTRY_POINT = "emucore.env.vector:RetroVectorEnv"
NAMESPACE = "emucore"


def game_spec(game: str, kwargs: dict[str, Any], max_episode_steps: int | None = None) -> EnvSpec:
    """The spec of ``emucore/<game>`` made with ``kwargs``; gymnasium.error.Error if ``game`` cannot be an id."""
    return EnvSpec(id=f"{NAMESPACE}/{game}", entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                   kwargs=kwargs, max_episode_steps=max_episode_steps)


def made_spec(game: str, kwargs: dict[str, Any]) -> EnvSpec | None:
    """The spec of an env made with ``kwargs`` (``max_episode_steps`` among them), for ``env.spec``; None
    where ``game`` (a folder's name) cannot be a Gymnasium id."""
    kwargs = dict(kwargs)
    limit = kwargs.pop("max_episode_steps", None)
    try:
        return game_spec(game, kwargs, limit)
    except gymnasium.error.Error:
        return None


def register_games() -> int:
    """Registers the games found now; returns how many ids were added."""
    added = 0
    for game in retro_data.list_games(retro_data.Integrations.ALL):
        env_id = f"{NAMESPACE}/{game}"
        if env_id in gymnasium.registry:
            continue
        try:
            spec = game_spec(game, {"game": game, "inttype": retro_data.Integrations.ALL})
        except gymnasium.error.Error:
            continue  # a folder name Gymnasium cannot take as an id
        gymnasium.registry[env_id] = spec
        added += 1
    return added
