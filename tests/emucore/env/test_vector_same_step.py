"""RetroVectorEnv's autoreset_mode=SAME_STEP gives what Gymnasium's SyncVectorEnv gives in that mode."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import emucore
from emucore.env import RetroVectorEnv

GAME = "StudioDemo-Genesis"


@pytest.fixture
def short_kwargs(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 40}}}}))
    return dict(scenario=str(path), use_restricted_actions=emucore.Actions.DISCRETE, frame_skip=3)


def assert_same_infos(ours: dict, theirs: dict) -> None:
    """Gymnasium's batched infos key by key: arrays equal, final_obs (an object array) row by row."""
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert_same_infos(ours[key], value)
        elif key == "final_obs":
            assert ours[key].dtype == object and len(ours[key]) == len(value)
            for mine, expected in zip(ours[key], value):
                assert (mine is None and expected is None) or np.array_equal(mine, expected)
        else:
            assert ours[key].dtype == value.dtype and np.array_equal(ours[key], value), key


def test_same_step_matches_gymnasiums_sync_vector_env(short_kwargs):
    vec = RetroVectorEnv(GAME, 3, num_threads=2, autoreset_mode=AutoresetMode.SAME_STEP, **short_kwargs)
    sync = gymnasium.vector.SyncVectorEnv([lambda: emucore.make(GAME, **short_kwargs)] * 3,
                                          autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        obs, _ = vec.reset(seed=1)
        assert np.array_equal(obs, sync.reset(seed=1)[0])
        rng = np.random.default_rng(2)
        ended = 0
        for _ in range(40):
            actions = rng.integers(0, 126, 3)
            ours, theirs = vec.step(actions), sync.step(actions)
            for mine, expected in zip(ours[:4], theirs[:4]):
                assert np.array_equal(mine, expected)
            assert_same_infos(ours[4], theirs[4])
            ended += int(ours[2].sum())
            if ours[2].any():
                assert "final_obs" in ours[4] and ours[4]["_final_info"].tolist() == ours[2].tolist()
        assert ended >= 6
    finally:
        vec.close()
        sync.close()


def test_the_final_step_keeps_its_reward_and_flags_and_the_next_step_plays_on(short_kwargs):
    vec = RetroVectorEnv(GAME, 2, autoreset_mode="SameStep", **short_kwargs)
    try:
        vec.reset(seed=0)
        while True:
            obs, rewards, terminations, truncations, infos = vec.step(np.array([0, 0]))
            if terminations.any():
                break
        assert terminations.all() and not truncations.any()
        assert infos["final_info"]["frame"].tolist() == [40, 40]
        assert "frame" not in infos  # the reset's info is empty, as RetroEnv.reset's is
        single = emucore.make(GAME, **short_kwargs)
        try:
            assert np.array_equal(obs[0], single.reset()[0])
        finally:
            single.close()
        _, _, terminations, _, infos = vec.step(np.array([0, 0]))
        assert not terminations.any() and infos["frame"].tolist() == [4, 4]  # the reset (frame 1) + 3 frames
    finally:
        vec.close()


def test_recv_returns_final_observations_under_same_step(short_kwargs):
    vec = RetroVectorEnv(GAME, 2, batch_size=1, autoreset_mode=AutoresetMode.SAME_STEP, **short_kwargs)
    try:
        vec.async_reset(seed=0)
        finals = []
        for _ in range(60):
            obs, _, terminations, _, infos = vec.recv()
            if terminations[0]:
                assert infos["final_obs"].shape == (1,) and infos["final_obs"][0].shape == obs[0].shape
                finals.append(int(infos["env_id"][0]))
            vec.send(np.array([0]))
        assert sorted(set(finals)) == [0, 1]
    finally:
        vec.close()


def test_step_async_and_step_wait():
    vec = RetroVectorEnv("StudioDemo-Nes", 2)
    try:
        vec.reset(seed=0)
        with pytest.raises(RuntimeError, match="without step_async"):
            vec.step_wait()
        vec.step_async(np.zeros((2, 9), dtype=np.int8))
        with pytest.raises(RuntimeError, match="stepping"):
            vec.reset()
        obs, rewards, _, _, infos = vec.step_wait()
        assert obs.shape == (2, 224, 240, 3) and infos["frame"].shape == (2,)
    finally:
        vec.close()


def test_autoreset_mode_disabled_is_refused():
    with pytest.raises(ValueError, match="NEXT_STEP or SAME_STEP"):
        RetroVectorEnv("StudioDemo-Nes", 1, autoreset_mode=AutoresetMode.DISABLED)
    vec = RetroVectorEnv("StudioDemo-Nes", 1)
    try:
        assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    finally:
        vec.close()
