"""env.step() refuses actions outside the action space, naming the space (stable-retro accepts them)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import emucore as retro

WRONG_SIZES = [3, 100]


@pytest.fixture(scope="module")
def envs():
    made = {}
    for mode in (retro.Actions.FILTERED, retro.Actions.ALL, retro.Actions.DISCRETE, retro.Actions.MULTI_DISCRETE):
        env = retro.make("StudioDemo-Genesis", use_restricted_actions=mode)
        env.reset(seed=0)
        made[mode] = env
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("mode", [retro.Actions.FILTERED, retro.Actions.ALL])
@pytest.mark.parametrize(
    "action",
    [
        np.zeros(3, np.int8),
        np.zeros(100, np.int8),
        np.zeros((1, 12), np.int8),
        np.full(12, 2, np.uint8),
        np.full(12, -1, np.int8),
        np.full(12, 0.5),
        np.full(12, np.nan),
        [0] * 11 + [3],
        ["a"] * 12,
        5,
    ],
    ids=["3", "100", "2d", "two", "minus-one", "half", "nan", "list-3", "strings", "scalar"],
)
def test_multibinary_refuses_actions_outside_the_space(envs, mode, action):
    env = envs[mode]
    frame = env.unwrapped.em.frame_count
    with pytest.raises(ValueError, match=r"action space MultiBinary\(12\)"):
        env.step(action)
    assert env.unwrapped.em.frame_count == frame, "a refused action runs no frame"


@pytest.mark.parametrize("mode", [retro.Actions.FILTERED, retro.Actions.ALL])
def test_multibinary_takes_every_form_a_policy_gives(envs, mode):
    env = envs[mode]
    state = env.unwrapped.em.get_state()
    rng = np.random.default_rng(3)
    pressed = rng.integers(0, 2, 12)
    screens = []
    for form in (
        pressed.astype(np.int8),
        pressed.astype(np.uint8),
        pressed.astype(bool),
        pressed.astype(np.int64),
        pressed.astype(np.float32),
        pressed.astype(np.float64),
        pressed.tolist(),
        tuple(float(v) for v in pressed),
    ):
        env.unwrapped.em.set_state(state)
        obs, *_ = env.step(form)
        screens.append(obs)
    assert all(np.array_equal(screens[0], s) for s in screens[1:])


def test_discrete_refuses_out_of_range_and_non_integers(envs):
    env = envs[retro.Actions.DISCRETE]
    n = env.action_space.n
    for bad in (n, -1, 2.5, np.array([1, 2]), "3", None):
        with pytest.raises(ValueError, match=rf"action space Discrete\({n}\)"):
            env.step(bad)
    for good in (0, n - 1, np.int64(1), np.array(2), np.array([3]), 4.0, np.float32(1)):
        env.step(good)


def test_multi_discrete_refuses_wrong_length_and_out_of_range_choices(envs):
    env = envs[retro.Actions.MULTI_DISCRETE]
    nvec = env.action_space.nvec
    space = "action space " + re.escape(repr(env.action_space))
    size = len(nvec)
    for bad in (np.zeros(size + 1, int), np.zeros(1, int), nvec, -np.ones(size, int), np.full(size, 0.5)):
        with pytest.raises(ValueError, match=space):
            env.step(bad)
    env.step(nvec - 1)
    env.step((nvec - 1).astype(np.float32))
    env.step([0] * len(nvec))


def test_the_error_names_the_problem(envs):
    env = envs[retro.Actions.FILTERED]
    with pytest.raises(ValueError, match=r"expected shape \(12,\), got \(3,\)"):
        env.step(np.zeros(3, np.int8))
    with pytest.raises(ValueError, match="every value must be 0 or 1"):
        env.step(np.full(12, 2, np.uint8))


def test_action_space_samples_are_always_accepted(envs):
    for env in envs.values():
        env.action_space.seed(5)
        for _ in range(20):
            env.step(env.action_space.sample())


def test_flags_to_mask_matches_the_python_rule():
    from emucore.libretro import flags_to_mask

    rng = np.random.default_rng(11)
    for size in (0, 1, 12, 16, 48):
        flags = rng.integers(0, 2, size).astype(np.uint8)
        assert flags_to_mask(flags) == sum(int(v) << i for i, v in enumerate(flags))
    assert flags_to_mask(np.array([0, 2], np.uint8)) == -1
    assert flags_to_mask(np.zeros(49, np.uint8)) == -1


@pytest.mark.parametrize("game", ["StudioDemo-Nes", "Breakout-Atari2600"])
def test_every_system_refuses_a_wrong_length_naming_its_space(game, stable_atari):
    env = stable_atari("Breakout") if game.endswith("Atari2600") else retro.make(game)
    try:
        env.reset(seed=0)
        size = env.action_space.n
        with pytest.raises(ValueError, match=rf"action space MultiBinary\({size}\)"):
            env.step(np.zeros(size + 1, np.int8))
        env.step(np.ones(size, np.float32))
    finally:
        env.close()
