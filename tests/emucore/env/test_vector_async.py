"""RetroVectorEnv's asynchronous form (EnvPool's async_reset/send/recv) on real cores."""

from __future__ import annotations

import json

import numpy as np
import pytest

import emucore as retro
from emucore.env import RetroVectorEnv

SHORT = {"done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 40}}}}


@pytest.fixture
def short_scenario(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps(SHORT))
    return str(path)


def test_each_env_steps_as_a_single_env_would(short_scenario):
    """Whatever order the envs finish in, each one's rows are those of a single env given its actions,
    autoresets included."""
    kwargs = dict(scenario=short_scenario, use_restricted_actions=retro.Actions.DISCRETE)
    vec = RetroVectorEnv("StudioDemo-Genesis", 4, num_threads=2, batch_size=2, **kwargs)
    singles = [retro.make("StudioDemo-Genesis", **kwargs) for _ in range(4)]
    rng = np.random.default_rng(3)
    plans = rng.integers(0, 126, (4, 200))
    sent = [0] * 4  # actions sent to each env
    ended = [False] * 4
    try:
        vec.async_reset(seed=10)
        first = {i: env.reset(seed=10 + i)[0] for i, env in enumerate(singles)}
        seen_ids, resets_seen = [], 0
        for _ in range(120):
            obs, rewards, terminations, truncations, infos = vec.recv()
            ids = infos["env_id"]
            assert len(ids) == 2 and len(set(ids.tolist())) == 2 and obs.shape[0] == 2
            for row, index in enumerate(ids.tolist()):
                if sent[index] == 0:
                    expected = (first[index], 0.0, False, {})
                elif ended[index]:  # the action sent after the end was a reset
                    expected = (singles[index].reset()[0], 0.0, False, {})
                    resets_seen += 1
                else:
                    got = singles[index].step(int(plans[index][sent[index] - 1]))
                    expected = (got[0], got[1], got[2], got[4])
                assert np.array_equal(obs[row], expected[0]), (index, sent[index])
                assert rewards[row] == expected[1] and terminations[row] == expected[2]
                if expected[3]:
                    assert infos["frame"][row] == expected[3]["frame"]
                assert not truncations[row]
                ended[index] = bool(terminations[row])
            seen_ids.extend(ids.tolist())
            vec.send(plans[ids, [sent[i] for i in ids.tolist()]])
            for index in ids.tolist():
                sent[index] += 1
        assert set(seen_ids) == {0, 1, 2, 3} and resets_seen >= 4
    finally:
        vec.close()
        for env in singles:
            env.close()


def test_sync_and_async_forms_do_not_mix():
    vec = RetroVectorEnv("StudioDemo-Nes", 2, batch_size=1)
    try:
        with pytest.raises(RuntimeError, match="before send"):
            vec.recv()
        vec.async_reset(seed=0)
        with pytest.raises(RuntimeError, match="recv"):
            vec.step(vec.action_space.sample())
        with pytest.raises(RuntimeError, match="recv"):
            vec.reset()
        first = vec.recv()[4]["env_id"].tolist()
        second = vec.recv()[4]["env_id"].tolist()
        assert sorted(first + second) == [0, 1]
        with pytest.raises(ValueError, match="envs are stepping"):
            vec._queue.take(1)  # nothing pending: a clear error, not a hang
        vec.send(vec.action_space.sample(), env_id=[0, 1])
        assert sorted(vec.recv()[4]["env_id"].tolist() + vec.recv()[4]["env_id"].tolist()) == [0, 1]
        vec.step(vec.action_space.sample())  # nothing in flight: the synchronous form works again
    finally:
        vec.close()


def test_bad_sends_name_the_problem():
    vec = RetroVectorEnv("StudioDemo-Nes", 3, batch_size=2)
    try:
        actions = vec.action_space.sample()
        with pytest.raises(ValueError, match="distinct env indices"):
            vec.send(actions[:2], env_id=[0, 0])
        with pytest.raises(ValueError, match="distinct env indices"):
            vec.send(actions[:1], env_id=[3])
        with pytest.raises(ValueError, match=r"send\(\) got 2 action rows for 1 envs"):
            vec.send(actions[:2], env_id=[1])
        vec.send(actions[:1], env_id=[1])
        with pytest.raises(ValueError, match=r"envs \[1\] are still stepping"):
            vec.send(actions[:1], env_id=[1])
    finally:
        vec.close()  # with an env in flight: returns


def test_an_env_that_fails_raises_from_recv_and_stays_usable():
    vec = RetroVectorEnv("StudioDemo-Genesis", 2, batch_size=2, use_restricted_actions=retro.Actions.DISCRETE)
    try:
        vec.async_reset(seed=0)
        vec.recv()
        vec.send(np.array([5, 10_000]), env_id=[0, 1])  # 10000 is not in Discrete(126)
        with pytest.raises(ValueError, match="10000"):
            vec.recv()
        vec.send(np.array([5, 6]), env_id=[0, 1])
        assert sorted(vec.recv()[4]["env_id"].tolist()) == [0, 1]
    finally:
        vec.close()


def test_batch_size_is_checked():
    with pytest.raises(ValueError, match="batch_size must be between 1 and num_envs"):
        RetroVectorEnv("StudioDemo-Nes", 2, batch_size=3)


def test_a_dropped_vector_env_stops_its_threads():
    import gc
    import threading

    before = threading.active_count()
    vec = RetroVectorEnv("StudioDemo-Nes", 2, num_threads=2, batch_size=1)
    vec.async_reset(seed=0)
    vec.recv()
    assert threading.active_count() > before
    del vec
    gc.collect()
    for _ in range(100):  # the finalizer joins the pool's thread
        if threading.active_count() == before:
            break
        threading.Event().wait(0.01)
    assert threading.active_count() == before


def test_step_with_a_batch_of_the_wrong_length_names_the_problem_and_stays_usable():
    """rel-09: two action rows for three envs raised a raw IndexError from a worker."""
    vec = RetroVectorEnv("StudioDemo-Nes", 3)
    try:
        vec.reset(seed=0)
        actions = vec.action_space.sample()
        with pytest.raises(ValueError, match=r"step\(\) got 2 action rows for 3 envs"):
            vec.step(actions[:2])
        with pytest.raises(ValueError, match="one row per env"):
            vec.step(7)
        observations, *_ = vec.step(actions)
        assert observations.shape[0] == 3
    finally:
        vec.close()
