"""Registers every known game with Gymnasium as ``emucore/<Game>``.

Runs when ``emucore.env`` is imported, and in any interpreter when Gymnasium is first imported
(see ``emucore_gymnasium``), so it must stay cheap: one directory listing per lookup folder and a
plain spec per game (``gymnasium.register`` checks every spec against all others, which costs
~70 ms over stable-retro's ~1000 games; this takes ~7 ms).
"""

from __future__ import annotations

import gymnasium
from gymnasium.envs.registration import EnvSpec

from emucore import data as retro_data

ENTRY_POINT = "emucore.env.make:make"


def register_games() -> int:
    """Registers the games found now; returns how many ids were added."""
    added = 0
    for game in retro_data.list_games(retro_data.Integrations.ALL):
        env_id = f"emucore/{game}"
        if env_id in gymnasium.registry:
            continue
        try:
            spec = EnvSpec(id=env_id, entry_point=ENTRY_POINT,
                           kwargs={"game": game, "inttype": retro_data.Integrations.ALL})
        except gymnasium.error.Error:
            continue  # a folder name Gymnasium cannot take as an id
        gymnasium.registry[env_id] = spec
        added += 1
    return added
