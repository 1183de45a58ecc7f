"""make(sticky_prob=, max_episode_steps=): the Retro Contest's env (stable-retro's examples/ppo.py:
StochasticFrameSkip and TimeLimit over stable-retro) inside the step, drawing the same random numbers."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import TimeLimit

import emucore
from emucore.paths import integrations_dir

retro = pytest.importorskip("stable_retro")
contest = pytest.importorskip("stable_retro.examples.ppo")


def contest_env(game: str, frames: int, sticky: float, limit: int | None, seed: int):
    """stable-retro's own StochasticFrameSkip (and TimeLimit), its generator replaced by one that draws what
    ``reset(seed=seed)`` gives our env's ``np_random``."""
    retro.data.Integrations.add_custom_path(str(integrations_dir()))
    env = retro.make(game, inttype=retro.data.Integrations.ALL, render_mode=None,
                     use_restricted_actions=retro.Actions.ALL)
    skipping = contest.StochasticFrameSkip(env, n=frames, stickprob=sticky)
    skipping.rng = SimpleNamespace(rand=seeding.np_random(seed)[0].random)
    return skipping if limit is None else TimeLimit(skipping, max_episode_steps=limit)


def our_env(game: str, frames: int, sticky: float, limit: int | None, **kwargs):
    return emucore.make(game, inttype=emucore.data.Integrations.ALL, use_restricted_actions=emucore.Actions.ALL,
                        frame_skip=frames, max_pool=False, sticky_prob=sticky, max_episode_steps=limit, **kwargs)


@pytest.mark.slow  # stable-retro parity
@pytest.mark.parametrize(("game", "frames", "sticky", "limit"), [
    ("StudioDemo-Genesis", 4, 0.25, None),
    ("StudioDemo-Genesis", 1, 0.5, 150),
    ("Airstriker-Genesis-v0", 4, 0.25, 120),
    ("StudioDemo-Nes", 3, 0.75, None),
])
def test_the_same_as_stochastic_frame_skip_over_stable_retro(game, frames, sticky, limit):
    theirs = contest_env(game, frames, sticky, limit, seed=3)
    ours = our_env(game, frames, sticky, limit)
    rng = np.random.default_rng(frames)
    endings = []
    try:
        for episode in range(3):  # the first seeded; the next ones go on drawing from the same generators
            seed = 3 if episode == 0 else None
            a_obs, _ = theirs.reset(seed=seed)
            b_obs, _ = ours.reset(seed=seed)
            assert np.array_equal(a_obs, b_obs)
            for step in range(400):
                action = rng.integers(0, 2, ours.action_space.n, dtype=np.int8)
                a, b = theirs.step(action), ours.step(action)
                assert np.array_equal(a[0], b[0]), f"episode {episode}: observations differ at step {step}"
                assert a[1:] == b[1:], f"episode {episode}: reward, flags or info differ at step {step}"
                if a[2] or a[3]:
                    endings.append("terminated" if a[2] else "truncated")
                    break
    finally:
        theirs.close()
        ours.close()
    assert endings, "no episode ended: the episode's end went untested"
    if limit is not None:
        assert "truncated" in endings


def test_a_held_first_frame_is_what_changes():
    """With probability 1 the first frame of every step but an episode's first is the previous action's:
    the frames differ from the same actions without stickiness, and equal them with the previous action
    pressed by hand for one frame."""
    sticky = our_env("StudioDemo-Genesis", 2, 1.0, None)
    plain = our_env("StudioDemo-Genesis", 1, 0.0, None)
    rng = np.random.default_rng(0)
    try:
        sticky.reset(seed=0)
        plain.reset(seed=0)
        previous = None
        differed = False
        for _ in range(60):
            action = rng.integers(0, 2, sticky.action_space.n, dtype=np.int8)
            obs, _, terminated, _, _ = sticky.step(action)
            plain.step(action if previous is None else previous)
            assert np.array_equal(obs, plain.step(action)[0])
            differed = differed or previous is not None and not np.array_equal(previous, action)
            previous = action
            if terminated:
                break
        assert differed
    finally:
        sticky.close()
        plain.close()


def test_recording_a_movie_gives_the_same_frames(tmp_path):
    """A recording env runs its frames in Python (to record each): the same frames, and the movie holds the
    buttons each frame had, the held first frames included."""
    recording = our_env("StudioDemo-Genesis", 4, 0.5, None, record=str(tmp_path))
    plain = our_env("StudioDemo-Genesis", 4, 0.5, None)
    rng = np.random.default_rng(1)
    frames = []
    try:
        recording.reset(seed=5)
        plain.reset(seed=5)
        for step in range(50):
            action = rng.integers(0, 2, plain.action_space.n, dtype=np.int8)
            a, b = recording.step(action), plain.step(action)
            assert np.array_equal(a[0], b[0]) and a[1:] == b[1:], f"step {step}"
            frames.append(plain.get_screen().copy())
            if b[2]:
                break
    finally:
        recording.close()
        plain.close()
    movie = emucore.Movie(str(next(tmp_path.glob("*.bk2"))))
    movie.step()
    replay = emucore.make("StudioDemo-Genesis", inttype=emucore.data.Integrations.ALL, state=None,
                          use_restricted_actions=emucore.Actions.ALL)
    try:
        replay.initial_state = movie.get_state()
        replay.reset()
        count = 0
        while movie.step():
            replay.step([movie.get_key(i, 0) for i in range(replay.num_buttons)])
            count += 1
            if count % 4 == 0:
                assert np.array_equal(replay.get_screen(), frames[count // 4 - 1]), f"frame {count}"
        assert count // 4 == len(frames)
    finally:
        movie.close()
        replay.close()


def test_time_limit_truncates_and_is_in_the_spec():
    env = our_env("StudioDemo-Genesis", 2, 0.0, 5)
    try:
        assert env.spec is not None and env.spec.max_episode_steps == 5
        for _ in range(2):
            env.reset(seed=0)
            flags = [env.step(env.action_space.sample())[3] for _ in range(5)]
            assert flags == [False] * 4 + [True]
        check_env(env, skip_render_check=True)
    finally:
        env.close()


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"sticky_prob": 1.5}, "sticky_prob"),
    ({"sticky_prob": -0.1}, "sticky_prob"),
    ({"sticky_prob": "0.25"}, "sticky_prob"),
    ({"max_episode_steps": 0}, "max_episode_steps"),
    ({"max_episode_steps": 4.5}, "max_episode_steps"),
])
def test_bad_values_are_a_clear_value_error(kwargs, named):
    with pytest.raises(ValueError, match=named):
        emucore.make("StudioDemo-Genesis", **kwargs)
