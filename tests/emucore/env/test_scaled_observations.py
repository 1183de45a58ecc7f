"""make(scale_obs=True): float32 observations in [0, 1], the uint8 ones divided by 255."""

from __future__ import annotations

import numpy as np

import emucore
from emucore.ray.rllib_hint import made_by_rllib, rllib_problems


def test_scaled_observations_are_the_plain_ones_over_255():
    kwargs = {"frame_skip": 2, "grayscale": True, "obs_size": (84, 84)}
    scaled = emucore.make("StudioDemo-Nes", scale_obs=True, **kwargs)
    plain = emucore.make("StudioDemo-Nes", **kwargs)
    try:
        assert scaled.observation_space.dtype == np.float32 and scaled.observation_space.shape == (84, 84, 1)
        a, b = scaled.reset(seed=0)[0], plain.reset(seed=0)[0]
        assert np.array_equal(a, b * np.float32(1 / 255)) and np.allclose(a, b / 255)
        for _ in range(20):
            action = plain.action_space.sample()
            a, b = scaled.step(action)[0], plain.step(action)[0]
            assert scaled.observation_space.contains(a)
            assert np.allclose(a * 255, b)
    finally:
        scaled.close()
        plain.close()


def test_outside_rllib_nothing_is_refused():
    assert not made_by_rllib()
    env = emucore.make("StudioDemo-Nes")
    try:
        assert len(rllib_problems(env)) == 2  # what RLlib would be told: MultiBinary actions, uint8 screens
    finally:
        env.close()
    env = emucore.make("StudioDemo-Nes", scale_obs=True, use_restricted_actions=emucore.Actions.DISCRETE)
    try:
        assert rllib_problems(env) == []
    finally:
        env.close()


def test_a_vector_env_refuses_scale_obs_by_name():
    import pytest

    from emucore.env import RetroVectorEnv

    with pytest.raises(ValueError, match="scale_obs is make"):
        RetroVectorEnv("StudioDemo-Nes", 2, scale_obs=True)
