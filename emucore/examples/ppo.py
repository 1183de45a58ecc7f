"""stable-retro's ``retro.examples.ppo``: the env preparation of its Stable-Baselines3 PPO example.

``make_retro`` is the Retro Contest's setup: each action held for 4 frames, the first of them still the
previous action with probability 0.25 (:class:`StochasticFrameSkip`), and a time limit. ``make(...,
frame_skip=4, sticky_prob=0.25, max_episode_steps=...)`` does the same inside the env, in C.
``wrap_deepmind_retro`` adds SB3's ``WarpFrame`` (84x84 gray) and ``ClipRewardEnv`` (the rl extra).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.wrappers import TimeLimit

import emucore
from emucore.enums import State
from emucore.errors import MissingExtraError


class StochasticFrameSkip(gym.Wrapper):
    """Each action is stepped ``n`` times, rewards summed, stopping at the end of the episode. On the first
    of the ``n`` steps the action before is kept with probability ``stickprob`` (a sticky key); the first
    action of an episode always applies at once.

    The random source is ``self.rng`` (a ``numpy.random.RandomState``; ``reset(seed=s)`` seeds it).
    """

    def __init__(self, env: gym.Env, n: int, stickprob: float):
        super().__init__(env)
        if n < 1 or not 0.0 <= stickprob <= 1.0:
            raise ValueError(f"n must be at least 1 and stickprob within [0, 1], not n={n}, stickprob={stickprob}")
        self.n = n
        self.stickprob = stickprob
        self.curac: Any = None
        self.rng = np.random.RandomState()

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        self.curac = None
        if kwargs.get("seed") is not None:
            self.rng.seed(kwargs["seed"])
        return self.env.reset(**kwargs)

    def step(self, ac: Any) -> tuple[Any, float, bool, bool, dict]:
        total = 0.0
        for i in range(self.n):
            if self.curac is None or i == 1 or (i == 0 and self.rng.rand() > self.stickprob):
                self.curac = ac
            obs, reward, terminated, truncated, info = self.env.step(self.curac)
            total += float(reward)
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info


def make_retro(*, game: str, state: Any = None, max_episode_steps: int | None = 4500, **kwargs: Any) -> gym.Env:
    """``emucore.make(game, state, **kwargs)`` with :class:`StochasticFrameSkip` (4 steps, 0.25) and a
    ``TimeLimit`` of ``max_episode_steps`` (None: none)."""
    env: gym.Env = emucore.make(game, State.DEFAULT if state is None else state, **kwargs)
    env = StochasticFrameSkip(env, n=4, stickprob=0.25)
    if max_episode_steps is not None:
        env = TimeLimit(env, max_episode_steps=max_episode_steps)
    return env


def wrap_deepmind_retro(env: gym.Env) -> gym.Env:
    """SB3's ``WarpFrame`` then ``ClipRewardEnv`` over ``env``, as DeepMind's Atari setup."""
    try:
        from stable_baselines3.common.atari_wrappers import ClipRewardEnv, WarpFrame
    except ModuleNotFoundError as exc:
        raise MissingExtraError("wrap_deepmind_retro", "Stable-Baselines3", "rl") from exc
    return ClipRewardEnv(WarpFrame(env))
