"""Registers every known game with Gymnasium as ``emucore/<Game>``."""

from __future__ import annotations

import gymnasium

from emucore import data as retro_data


def register_games() -> int:
    """Registers the games found now; returns how many ids were added."""
    added = 0
    for game in retro_data.list_games(retro_data.Integrations.ALL):
        env_id = f"emucore/{game}"
        if env_id in gymnasium.registry:
            continue
        try:
            gymnasium.register(
                id=env_id,
                entry_point="emucore.env.make:make",
                kwargs={"game": game, "inttype": retro_data.Integrations.ALL},
            )
        except gymnasium.error.Error:
            continue  # a folder name Gymnasium cannot take as an id
        added += 1
    return added
