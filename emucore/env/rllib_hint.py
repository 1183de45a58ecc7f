"""A clear error, at once, where RLlib makes an env from a plain ``emucore/<Game>`` id that its default
models cannot take.

RLlib's default PPO/IMPALA modules have no action distribution for ``MultiBinary`` (stable-retro's
default action type) and feed observations to float layers as they are, so uint8 screens fail in the
first forward pass with "Input type (unsigned char) and bias type (float) should be the same", after
the env runners were started. ``PPOConfig().environment("emucore/<Game>", env_config=...)`` makes the
env through ``gymnasium.make(id, **env_config)`` (``ray.rllib.env.utils._gym_env_creator``), and nothing
in the arguments says it is RLlib asking: the call stack does, so that is what is looked at.
"""

from __future__ import annotations

import sys

import gymnasium
import numpy as np

RLLIB_MODULES = "ray.rllib."
KEYS_THAT_WORK = ("{'use_restricted_actions': emucore.Actions.DISCRETE, 'scale_obs': True}, and for a screen "
                  "'frame_skip': 4, 'grayscale': True, 'obs_size': (84, 84) (RLlib's default convolutions "
                  "are for 84x84, 64x64 or 42x42)")


def called_by_rllib(depth: int = 12) -> bool:
    """Whether one of the ``depth`` callers above this one is RLlib's code."""
    frame = sys._getframe(1)
    for _ in range(depth):
        if frame is None:
            return False
        if str(frame.f_globals.get("__name__", "")).startswith(RLLIB_MODULES):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def rllib_problems(env: gymnasium.Env) -> list[str]:
    """What of ``env``'s spaces RLlib's default models cannot take."""
    problems = []
    if isinstance(env.action_space, gymnasium.spaces.MultiBinary):
        problems.append(f"its actions are {env.action_space} (RLlib has no MultiBinary action distribution)")
    space = env.observation_space
    if isinstance(space, gymnasium.spaces.Box) and space.dtype == np.uint8:
        problems.append(f"its observations are uint8 {space.shape} (RLlib's layers take floats)")
    return problems


def check_for_rllib(env: gymnasium.Env, game: str) -> None:
    """ValueError naming the ``env_config`` keys that work, where RLlib asks for an env it cannot train."""
    problems = rllib_problems(env) if called_by_rllib() else []
    if problems:
        env.close()
        raise ValueError(f"RLlib cannot train emucore/{game} as made: {'; '.join(problems)}. Give the env "
                         f"config {KEYS_THAT_WORK}; or use emucore.ray.env_creator (README: Train on a cluster)")
