"""Observations as float32 in [0, 1]: what neural-network libraries (RLlib's encoders) take."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


def scaled_observations(env: gymnasium.Env) -> gymnasium.Env:
    """``env`` with its uint8 observations (screen or RAM) divided by 255, as float32."""
    space = env.observation_space
    if not isinstance(space, gymnasium.spaces.Box) or space.dtype != np.uint8:
        raise TypeError(f"scaled_observations takes uint8 Box observations, not {space}")
    scaled = gymnasium.spaces.Box(0.0, 1.0, space.shape, np.float32)

    def scale(obs: Any) -> np.ndarray:
        return np.multiply(obs, np.float32(1 / 255), dtype=np.float32)

    return gymnasium.wrappers.TransformObservation(env, scale, scaled)
