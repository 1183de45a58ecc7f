"""stable-retro's ``retro.examples.discretizer``: a Discrete action space over chosen button combinations.

>>> import emucore
>>> env = Discretizer(emucore.make("StudioDemo-Genesis"), [[], ["LEFT"], ["RIGHT", "B"]])
>>> env.action_space
Discrete(3)
>>> env.action(2)                      # RIGHT and B pressed, as the Genesis env's MultiBinary array
array([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], dtype=int8)
>>> env.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

#: The combinations of retro-baselines' Sonic agents.
SONIC_COMBOS = [["LEFT"], ["RIGHT"], ["LEFT", "DOWN"], ["RIGHT", "DOWN"], ["DOWN"], ["DOWN", "B"], ["B"]]


class Discretizer(gym.ActionWrapper):
    """Action ``i`` presses the buttons named in ``combos[i]`` (names of the env's system, as in
    ``env.unwrapped.buttons``; ``[]`` presses none) for the first player, as the MultiBinary array the
    wrapped env takes.

    Raises:
        TypeError: the env's action space is not MultiBinary (make it with ``Actions.ALL`` or ``FILTERED``).
        ValueError: a combo names a button the system lacks (the message lists its buttons).
    """

    def __init__(self, env: gym.Env, combos: Sequence[Sequence[str]]):
        super().__init__(env)
        space = env.action_space
        if not isinstance(space, gym.spaces.MultiBinary):
            raise TypeError(f"Discretizer needs a MultiBinary action space, not {space}")
        buttons: list[str | None] = list(env.unwrapped.buttons)  # type: ignore[attr-defined]
        self._arrays: list[np.ndarray] = []
        for combo in combos:
            array = np.zeros(space.shape, dtype=space.dtype)
            for button in combo:
                if button not in buttons:
                    known = ", ".join(b for b in buttons if b)
                    raise ValueError(f"combo {list(combo)}: no button {button!r} (the buttons: {known})")
                array[buttons.index(button)] = 1
            self._arrays.append(array)
        self.action_space = gym.spaces.Discrete(len(self._arrays))

    def action(self, act: Any) -> np.ndarray:
        """The button array of combination ``act``; ValueError for an index outside the action space."""
        index = int(act)
        if not 0 <= index < len(self._arrays):
            raise ValueError(f"action {act!r} is outside Discrete({len(self._arrays)})")
        return self._arrays[index].copy()


class SonicDiscretizer(Discretizer):
    """The seven combinations of retro-baselines' Sonic agents (:data:`SONIC_COMBOS`)."""

    def __init__(self, env: gym.Env):
        super().__init__(env, SONIC_COMBOS)
