"""make(frame_skip=, max_pool=, obs_size=, grayscale=) against stable-retro under Stable-Baselines3's
MaxAndSkipEnv and WarpFrame: the same rewards, done and frames (see emucore.env.frame_skip)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import emucore
from emucore.env import RetroVectorEnv
from emucore.paths import integrations_dir

retro = pytest.importorskip("stable_retro")
cv2 = pytest.importorskip("cv2")
atari_wrappers = pytest.importorskip("stable_baselines3.common.atari_wrappers")


def their_env(game: str, skip: int, pool: bool):
    retro.data.Integrations.add_custom_path(str(integrations_dir()))
    env = retro.make(game, inttype=retro.data.Integrations.ALL, render_mode=None,
                     use_restricted_actions=retro.Actions.ALL)
    return atari_wrappers.MaxAndSkipEnv(env, skip=skip) if pool else LastFrameSkip(env, skip)


class LastFrameSkip:
    """MaxAndSkipEnv without the pooling: the reference for max_pool=False."""

    def __init__(self, env, skip: int):
        self.env, self.skip = env, skip
        self.action_space = env.action_space

    def reset(self, **kwargs):
        return self.env.reset(**kwargs)

    def step(self, action):
        total = 0.0
        for _ in range(self.skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            total += reward
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info

    def close(self):
        self.env.close()


def shaped(frame: np.ndarray, size, gray: bool) -> np.ndarray:
    if gray:
        frame = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY)
    if size is not None:
        frame = cv2.resize(frame, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    return frame.reshape(frame.shape[0], frame.shape[1], -1)


@pytest.mark.slow  # stable-retro parity
@pytest.mark.parametrize(("game", "skip", "pool", "size", "gray"), [
    ("StudioDemo-Genesis", 4, True, (84, 84), True),
    ("StudioDemo-Genesis", 3, False, None, False),
    ("StudioDemo-Nes", 4, True, (120, 128), False),
    ("Airstriker-Genesis-v0", 2, True, None, True),
    ("Airstriker-Genesis-v0", 4, True, (84, 84), True),
    ("Airstriker-Genesis-v0", 3, True, (84, 84), False),
    ("Airstriker-Genesis-v0", 2, False, (112, 160), True),
    ("Airstriker-Genesis-v0", 2, True, (56, 80), False),
])
def test_same_as_stable_retro_under_sb3_wrappers(game, skip, pool, size, gray):
    theirs = their_env(game, skip, pool)
    ours = emucore.make(game, inttype=emucore.data.Integrations.ALL, use_restricted_actions=emucore.Actions.ALL,
                        frame_skip=skip, max_pool=pool, obs_size=size, grayscale=gray)
    rng = np.random.default_rng(skip)
    dones = 0
    try:
        for _ in range(2):
            a_obs, _ = theirs.reset(seed=0)
            b_obs, _ = ours.reset(seed=0)
            assert np.array_equal(shaped(a_obs, size, gray), b_obs)
            for step in range(400):
                action = rng.integers(0, 2, theirs.action_space.n)
                a, b = theirs.step(action), ours.step(action)
                assert a[1] == b[1] and a[2:] == b[2:], f"reward, flags or info differ at step {step}"
                if a[2]:
                    dones += 1
                    break  # the last observation may differ on purpose (see emucore.env.frame_skip)
                assert np.array_equal(shaped(a[0], size, gray), b[0]), f"obs differ at step {step}"
    finally:
        theirs.close()
        ours.close()
    if game.startswith("StudioDemo"):
        assert dones, "the episodes never ended: done at a skipped frame went untested"


COMBINATIONS = list(itertools.product([1, 3], [True, False], [None, (60, 80)], [False, True]))


@pytest.mark.parametrize(("skip", "pool", "size", "gray"), COMBINATIONS)
def test_check_env_and_space_for_every_combination(skip, pool, size, gray):
    env = emucore.make("StudioDemo-Genesis", frame_skip=skip, max_pool=pool, obs_size=size, grayscale=gray)
    try:
        height, width = size or (224, 320)
        assert env.observation_space.shape == (height, width, 1 if gray else 3)
        check_env(env, skip_render_check=True)
        obs = env.reset(seed=1)[0]
        assert env.observation_space.contains(obs)
        assert env.render() is None
    finally:
        env.close()


def test_ram_observations_skip_frames():
    env = emucore.make("StudioDemo-Genesis", obs_type=emucore.Observations.RAM, frame_skip=2)
    try:
        check_env(env, skip_render_check=True)
        env.reset(seed=0)
        before = env.em.frame_count
        env.step(env.action_space.sample())
        assert env.em.frame_count == before + 2
    finally:
        env.close()


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"frame_skip": 0}, "frame_skip"),
    ({"frame_skip": 2.5}, "frame_skip"),
    ({"frame_skip": True}, "frame_skip"),
    ({"max_pool": "yes"}, "max_pool"),
    ({"grayscale": 1}, "grayscale"),
    ({"obs_size": (84,)}, "obs_size"),
    ({"obs_size": (0, 84)}, "obs_size"),
    ({"obs_size": (225, 84)}, "larger than the screen"),
    ({"obs_size": (84, 321)}, "larger than the screen"),
    ({"grayscale": True, "obs_type": emucore.Observations.RAM}, "image observations"),
])
def test_bad_values_are_a_clear_value_error(kwargs, named):
    with pytest.raises(ValueError, match=named):
        emucore.make("StudioDemo-Genesis", **kwargs)


def test_vector_env_steps_preprocessed_envs_like_single_ones():
    kwargs = {"frame_skip": 4, "grayscale": True, "obs_size": (84, 84), "use_restricted_actions": emucore.Actions.ALL}
    vector = RetroVectorEnv("StudioDemo-Genesis", 3, num_threads=2, **kwargs)
    singles = [emucore.make("StudioDemo-Genesis", **kwargs) for _ in range(3)]
    rng = np.random.default_rng(7)
    try:
        obs, _ = vector.reset(seed=0)
        assert obs.shape == (3, 84, 84, 1)
        for index, env in enumerate(singles):
            assert np.array_equal(env.reset(seed=index)[0], obs[index])
        for _ in range(50):
            actions = rng.integers(0, 2, (3, 12))
            obs, rewards, terminated, _, _ = vector.step(actions)
            for index, env in enumerate(singles):
                if not terminated[index]:
                    one = env.step(actions[index])
                    assert np.array_equal(one[0], obs[index]) and one[1] == rewards[index]
            if terminated.any():
                break
    finally:
        vector.close()
        for env in singles:
            env.close()


def test_the_plain_c_forms_give_the_same_observations():
    """The AVX2 forms (where the CPU has them) against the plain C ones on the same frames."""
    from emucore.libretro._native import lib

    env = emucore.make("StudioDemo-Genesis", frame_skip=2, grayscale=True, obs_size=(84, 84))
    plain = np.empty((84, 84, 1), np.uint8)
    try:
        env.reset(seed=0)
        rng = np.random.default_rng(2)
        for _ in range(30):
            env.em.set_button_mask(int(rng.integers(0, 1 << 12)))
            env.em.step()
            env.episode_state.plan.hold()
            env.em.step()
            wide = env.episode_state.plan.build(np.empty_like(plain), True)
            was = lib.emu_obs_vector_paths(0)
            try:
                env.episode_state.plan.build(plain, True)
            finally:
                lib.emu_obs_vector_paths(was)
            assert np.array_equal(wide, plain)
    finally:
        env.close()


@pytest.mark.parametrize("pool", [True, False])
def test_a_32_bit_core_through_the_plane_path(stable_atari, pool):
    """Stella sends XRGB8888 frames: the observation is the cv2 pipeline over the env's own screens."""
    plain = stable_atari("Pong")
    shaped_env = stable_atari("Pong", frame_skip=3, max_pool=pool, grayscale=True, obs_size=(84, 84))
    rng = np.random.default_rng(5)
    plain.reset(seed=0)
    assert np.array_equal(shaped(plain.get_screen(), (84, 84), True), shaped_env.reset(seed=0)[0])
    for step in range(60):
        action = rng.integers(0, 2, plain.action_space.n)
        frames, total = [], 0.0
        for _ in range(3):
            obs, reward, terminated, _, _ = plain.step(action)
            frames.append(obs)
            total += reward
            if terminated:
                break
        ours = shaped_env.step(action)
        assert ours[1] == total and ours[2] == terminated
        last = np.maximum(frames[-2], frames[-1]) if pool and len(frames) == 3 else frames[-1]
        assert np.array_equal(shaped(last, (84, 84), True), ours[0]), f"step {step}"
