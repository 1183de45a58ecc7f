"""RLlib making an emucore env: a warning where RLlib gets it as made with spaces its default models cannot
take, nothing where the user's creator may wrap it, never an error (no cluster: RLlib's own env creator)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import emucore
from emucore.errors import RLlibSpacesWarning
from emucore.examples.discretizer import Discretizer
from emucore.ray.rllib_hint import made_by_rllib, rllib_problems

rllib_utils = pytest.importorskip("ray.rllib.env.utils", reason="Ray is an optional extra: pip install -e '.[ray]'")


def rllib_makes(descriptor, config=None):
    """The env RLlib's own creator makes (as ``PPOConfig().environment(descriptor, env_config=config)`` does), and
    the RLlibSpacesWarnings given meanwhile."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = rllib_utils._gym_env_creator(dict(config or {}), descriptor)
    return env, [str(w.message) for w in caught if issubclass(w.category, RLlibSpacesWarning)]


def test_the_plain_id_warns_with_the_keys_that_work_and_the_env_is_made():
    env, said = rllib_makes("emucore/StudioDemo-Nes")
    try:
        assert isinstance(env.action_space, gymnasium.spaces.MultiBinary)  # made, not refused
        env.reset(seed=0)
        env.step(env.action_space.sample())
    finally:
        env.close()
    assert len(said) == 1
    assert said[0].startswith("RLlib makes emucore/StudioDemo-Nes with spaces its default models cannot take: its "
                              "actions are MultiBinary(9)")
    assert "If you do not wrap it" in said[0] and "'use_restricted_actions': emucore.Actions.DISCRETE" in said[0]
    assert "category=emucore.errors.RLlibSpacesWarning" in said[0]


def test_the_plain_id_with_the_keys_named_says_nothing():
    env, said = rllib_makes("emucore/StudioDemo-Nes",
                            {"use_restricted_actions": emucore.Actions.DISCRETE, "scale_obs": True})
    env.close()
    assert said == []


def test_emucore_ray_env_creator_is_rllib_getting_the_env_as_made():
    from ray.tune.registry import _global_registry, register_env

    from emucore.ray import env_creator

    register_env("emucore-hint-test", env_creator)
    creator = _global_registry.get("env_creator", "emucore-hint-test")
    env, said = rllib_makes(creator, {"game": "StudioDemo-Nes"})  # scaled by default, actions MultiBinary
    env.close()
    assert len(said) == 1 and "its actions are MultiBinary(9)" in said[0] and "uint8" not in said[0]


def wrapping_creator(config):
    env = gymnasium.make("emucore/StudioDemo-Nes", frame_skip=4, grayscale=True, obs_size=(84, 84))
    env = Discretizer(env, combos=[["LEFT"], ["RIGHT"], ["A"], []])
    return gymnasium.wrappers.TransformObservation(env, lambda o: (o / 255.0).astype(np.float32),
                                                   gymnasium.spaces.Box(0.0, 1.0, (84, 84, 1), np.float32))


def test_a_creator_that_wraps_the_env_is_not_warned_about():
    env, said = rllib_makes(wrapping_creator)
    try:
        assert said == []
        assert rllib_problems(env) == [] and isinstance(env.action_space, gymnasium.spaces.Discrete)
        assert env.observation_space.contains(env.reset(seed=0)[0])
    finally:
        env.close()


def test_made_outside_rllib_nothing_is_looked_at():
    assert not made_by_rllib()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RLlibSpacesWarning)
        emucore.make("StudioDemo-Nes").close()
