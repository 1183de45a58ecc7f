"""RLlib trains on an emucore env across the two nodes, with an integration only the driver has."""

from __future__ import annotations

import shutil
import sys

import numpy as np
import pytest

import emucore
from emucore.paths import integrations_dir
from emucore.ray import env_config, env_creator

pytestmark = pytest.mark.ray


def probe(config: dict, steps: int) -> tuple[bool, float, bytes]:
    """On a worker: whether the game is known there, then ``steps`` steps of the env ``config`` makes."""
    import emucore as worker_emucore

    known = worker_emucore.data.get_file_path("OnlyHere-Nes", "rom.sha", worker_emucore.data.Integrations.ALL)
    env = env_creator(config)
    env.reset(seed=0)
    total = 0.0
    for step in range(steps):
        obs, reward, *_ = env.step(step % env.action_space.n)
        total += float(reward)
    env.close()
    return known is not None, total, np.asarray(obs).tobytes()


def test_a_worker_without_the_integration_makes_the_env(ray_driver, tmp_path):
    import ray

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    folder = tmp_path / "OnlyHere-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    kwargs = {"use_restricted_actions": emucore.Actions.DISCRETE, "obs_type": emucore.Observations.RAM}
    config = env_config(str(folder), **kwargs)
    local = probe({"game": str(folder), **kwargs}, 120)
    shutil.rmtree(folder)  # from now on only the object store has it
    nodes = ray.nodes()
    results = ray.get([
        ray.remote(probe).options(
            scheduling_strategy=ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node["NodeID"], False)
        ).remote(config, 120)
        for node in nodes if node["Alive"]
    ])
    assert len(results) == 2
    for known, total, obs in results:
        assert not known and (total, obs) == local[1:]


def test_ppo_trains_an_iteration_with_two_env_runners(ray_driver, tmp_path):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    register_env("emucore-test", env_creator)
    folder = tmp_path / "OnlyHere-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    config = (
        PPOConfig()
        .environment("emucore-test", env_config=env_config(
            str(folder), use_restricted_actions=emucore.Actions.DISCRETE, obs_type=emucore.Observations.RAM))
        .env_runners(num_env_runners=2, num_cpus_per_env_runner=1, rollout_fragment_length=64)
        .training(train_batch_size=128, minibatch_size=64, num_epochs=1)
        .resources(num_cpus_for_main_process=0)
        .debugging(seed=0)
    )
    shutil.rmtree(folder)
    algo = config.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["num_env_steps_sampled_lifetime"] >= 128
    assert result["env_runners"]["num_env_steps_sampled"] >= 128


def plain_id_config(env_config: dict, runners: int):
    from ray.rllib.algorithms.ppo import PPOConfig

    return (
        PPOConfig()
        .environment("emucore/StudioDemo-Genesis", env_config=env_config)
        .env_runners(num_env_runners=runners, num_cpus_per_env_runner=1, rollout_fragment_length=64)
        .training(train_batch_size=64 * max(runners, 1), minibatch_size=64, num_epochs=1)
        .resources(num_cpus_for_main_process=0)
        .debugging(seed=0)
    )


@pytest.mark.parametrize("env_config", [{}, {"use_restricted_actions": emucore.Actions.DISCRETE},
                                        {"scale_obs": True}])
def test_the_plain_id_warns_at_once_which_env_config_keys_work(ray_driver, env_config):
    from emucore.errors import RLlibSpacesWarning

    warned = pytest.warns(RLlibSpacesWarning, match=r"RLlib makes emucore/StudioDemo-Genesis with spaces its default "
                                                    r"models cannot take.*'use_restricted_actions': emucore.Actions."
                                                    r"DISCRETE, 'scale_obs': True")
    with warned, pytest.raises(ValueError, match="No default CNN configuration"):  # RLlib's own refusal, not emucore's
        plain_id_config(env_config, 0).build_algo()


def test_a_registered_creator_that_wraps_the_env_trains_unwarned(ray_driver):
    import warnings

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    from emucore.errors import RLlibSpacesWarning
    from tests.emucore.ray.test_rllib_hint import wrapping_creator

    register_env("emucore-wrapped", wrapping_creator)  # Discrete(4) actions, float32 84x84 screens
    config = (PPOConfig().environment("emucore-wrapped")
              .env_runners(num_env_runners=0, rollout_fragment_length=64)
              .training(train_batch_size=64, minibatch_size=64, num_epochs=1).debugging(seed=0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RLlibSpacesWarning)
        algo = config.build_algo()  # the env runner is this process: a warning would raise here
        try:
            result = algo.train()
        finally:
            algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 64


def test_the_plain_id_trains_with_the_keys_it_names(ray_driver):
    config = plain_id_config({"use_restricted_actions": emucore.Actions.DISCRETE, "scale_obs": True, "frame_skip": 4,
                              "grayscale": True, "obs_size": (84, 84)}, 1)
    algo = config.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 64
