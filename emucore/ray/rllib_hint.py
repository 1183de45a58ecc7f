"""A warning, never an error, where RLlib itself makes an emucore env its default models cannot take.

RLlib's default PPO/IMPALA modules have no action distribution for ``MultiBinary`` (stable-retro's
default action type) and feed observations to float layers as they are, so uint8 screens fail in the
first forward pass with "Input type (unsigned char) and bias type (float) should be the same", after
the env runners were started. ``PPOConfig().environment("emucore/<Game>", env_config=...)`` makes the
env through ``gymnasium.make(id, **env_config)`` (``ray.rllib.env.utils._gym_env_creator``), and nothing
in the arguments says it is RLlib asking: the call stack does, so that is what is looked at.

Only an env RLlib gets as emucore made it is looked at: when the first caller outside emucore and
Gymnasium is RLlib's code (the plain id, or :func:`emucore.ray.env_creator`). An env made in the
user's own ``register_env`` creator may be wrapped into other spaces before RLlib sees it, so it is
never warned about; and even an env RLlib gets as made may be converted by the user's connectors or
RLModule, so this is a :class:`~emucore.errors.RLlibSpacesWarning` (filterable), not a refusal.
"""

from __future__ import annotations

import sys
import warnings
from types import FrameType

import gymnasium
import numpy as np

from emucore.errors import RLlibSpacesWarning

RLLIB_MODULES = "ray.rllib."
PASSED_THROUGH = ("emucore.", "gymnasium.")  # callers that hand the env on as it is
KEYS_THAT_WORK = ("{'use_restricted_actions': emucore.Actions.DISCRETE, 'scale_obs': True}, and for a screen "
                  "'frame_skip': 4, 'grayscale': True, 'obs_size': (84, 84) (RLlib's default convolutions "
                  "are for 84x84, 64x64 or 42x42)")


def _module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


def made_by_rllib(depth: int = 40) -> bool:
    """Whether the first caller above this one outside emucore and Gymnasium (within ``depth`` frames) is
    RLlib's code: then RLlib gets the env as emucore makes it."""
    frame: FrameType | None = sys._getframe(1)
    for _ in range(depth):
        if frame is None:
            return False
        module = _module(frame)
        if module.startswith(RLLIB_MODULES):
            return True
        if not module.startswith(PASSED_THROUGH):
            return False  # the user's code: it may wrap the env before RLlib sees it
        frame = frame.f_back
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


def warn_for_rllib(env: gymnasium.Env, game: str) -> None:
    """An RLlibSpacesWarning naming the ``env_config`` keys that work, where RLlib gets ``env`` as made and
    its default models cannot take its spaces."""
    problems = rllib_problems(env) if made_by_rllib() else []
    if problems:
        warnings.warn(
            f"RLlib makes emucore/{game} with spaces its default models cannot take: {'; '.join(problems)}. If you "
            f"do not wrap it (a register_env creator) or convert them (your connectors or RLModule), give the env "
            f"config {KEYS_THAT_WORK}; or use emucore.ray.env_creator (README: Train on a cluster). "
            f"Silence this with warnings.filterwarnings('ignore', category=emucore.errors.RLlibSpacesWarning)",
            RLlibSpacesWarning, stacklevel=2)
