"""emucore's env beyond parity: the Gymnasium ecosystem, errors, registration, vector envs."""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import emucore as retro
from emucore.env import RetroVectorEnv
from emucore.integration import IntegrationError
from emucore.scenario.actions import ActionGroups
from emucore.scenario.load_checks import UnmappedVariableError
from emucore.systems import get_system

GAMES = ["StudioDemo-Genesis", "StudioDemo-Nes"]


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes_without_warnings(game):
    env = retro.make(game)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_gymnasium_make_by_id():
    env = gymnasium.make("emucore/StudioDemo-Nes", use_restricted_actions=retro.Actions.DISCRETE)
    try:
        obs, info = env.reset(seed=1)
        assert obs.shape == (224, 240, 3) and env.action_space.n == 36
        obs, reward, terminated, truncated, info = env.step(5)
        assert info["lives"] == 3
    finally:
        env.close()


def test_step_before_reset_and_bad_arguments():
    env = retro.make("StudioDemo-Nes")
    try:
        with pytest.raises(RuntimeError, match="reset"):
            env.step(env.action_space.sample())
    finally:
        env.close()
    with pytest.raises(ValueError, match="render_mode"):
        retro.make("StudioDemo-Nes", render_mode="window")
    with pytest.raises(FileNotFoundError, match="No romfiles found for game: NoSuchGame-Nes"):
        retro.make("NoSuchGame-Nes")


def test_several_envs_in_one_process():
    a, b = retro.make("StudioDemo-Genesis"), retro.make("StudioDemo-Genesis")
    try:
        a.reset()
        b.reset()
        right = np.zeros(12, dtype=np.int8)
        right[7] = 1
        for _ in range(10):
            a.step(right)
            b.step(np.zeros(12, dtype=np.int8))
        assert a.step(right)[4]["x"] == b.step(right)[4]["x"] + 10
    finally:
        a.close()
        b.close()


def test_multi_discrete_two_players_slices_by_group_count():
    env = retro.make("StudioDemo-Genesis", players=2, use_restricted_actions=retro.Actions.MULTI_DISCRETE)
    try:
        env.reset()
        # player 1: nothing; player 2: RIGHT (group 1, choice 2) and A (group 2, choice 2: mask 2)
        action = np.array([0, 0, 0, 0, 2, 2])
        assert env.get_action_meaning(action) == [[], ["A", "RIGHT"]]
    finally:
        env.close()


def test_action_groups_as_stable_retro_stores_them():
    genesis = get_system("Genesis")
    groups = ActionGroups(genesis.actions, genesis.buttons)
    assert groups.valid_actions() == [
        [0, 16, 32], [0, 64, 128], [0, 1, 2, 3, 256, 257, 512, 513, 1024, 1026, 1536, 2048, 2304, 2560]
    ]
    assert groups.discrete_size == 126
    assert groups.decode(125, retro.Actions.DISCRETE, 1) == [32 | 128 | 512 | 2048]
    up_down = np.zeros(12, dtype=np.uint8)
    up_down[[4, 5]] = 1
    assert groups.decode(up_down, retro.Actions.FILTERED, 1) == [0]
    start = np.zeros(12, dtype=np.uint8)
    start[3] = 1
    assert groups.decode(start, retro.Actions.FILTERED, 1) == [0]
    assert groups.decode(start, retro.Actions.ALL, 1) == [8]
    pce = get_system("PCEngine")
    assert ActionGroups(pce.actions, pce.buttons).discrete_size == 117  # the duplicate ["IV"] collapses


def test_malformed_json_names_file_line_and_key(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"reward": {"variables": {"score": {"reward": 1.0,}}}}')
    with pytest.raises(Exception, match=r"broken.json.*line 1"):
        retro.make("StudioDemo-Nes", scenario=str(bad))
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"info": {"score": {"address": "0x20", "type": "<u2"}}}))
    with pytest.raises(Exception, match=r"data.json.*score"):
        retro.make("StudioDemo-Nes", info=str(data))


def test_unknown_scenario_variable_is_an_error_at_make_naming_the_key(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"done": {"variables": {"nosuchvar": {"op": "zero"}}}}))
    with pytest.raises(IntegrationError, match="nosuchvar") as caught:
        retro.make("StudioDemo-Nes", scenario=str(path))
    assert isinstance(caught.value, ValueError)  # what stable-retro raises, at reset
    assert caught.value.path == path and caught.value.key == "done.variables.nosuchvar"


def test_unmapped_address_is_left_out_of_info_and_an_error_when_the_scenario_uses_it(tmp_path):
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"info": {"ok": {"address": 16, "type": "<u2"},
                                         "far": {"address": 0x5000, "type": "|u1"}}}))
    with pytest.warns(UserWarning, match="0x5000"):
        env = retro.make("StudioDemo-Nes", info=str(data), scenario=str(tmp_path / "none.json"))
    try:
        env.reset()
        info = env.step(env.action_space.sample())[4]
        assert "ok" in info and "far" not in info
    finally:
        env.close()
    scenario = tmp_path / "far.json"
    scenario.write_text(json.dumps({"reward": {"variables": {"far": {"reward": 1}}}}))
    with pytest.raises(UnmappedVariableError, match="0x5000") as caught:
        retro.make("StudioDemo-Nes", info=str(data), scenario=str(scenario))
    assert isinstance(caught.value, IndexError)  # what stable-retro raises, at reset
    assert caught.value.path == data and caught.value.key == "info.far.address"


def test_missing_state_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="Nope.state"):
        retro.make("StudioDemo-Nes", state="Nope")


def test_vector_env_matches_single_envs():
    vec = RetroVectorEnv("StudioDemo-Genesis", 3, use_restricted_actions=retro.Actions.DISCRETE)
    singles = [retro.make("StudioDemo-Genesis", use_restricted_actions=retro.Actions.DISCRETE) for _ in range(3)]
    try:
        obs, _ = vec.reset(seed=0)
        expected = np.stack([env.reset(seed=i)[0] for i, env in enumerate(singles)])
        assert np.array_equal(obs, expected)
        rng = np.random.default_rng(0)
        for _ in range(50):
            actions = rng.integers(0, 126, 3)
            obs, rewards, terms, truncs, infos = vec.step(actions)
            results = [env.step(int(a)) for env, a in zip(singles, actions)]
            assert np.array_equal(obs, np.stack([r[0] for r in results]))
            assert rewards.tolist() == [r[1] for r in results]
            assert infos["score"].tolist() == [r[4]["score"] for r in results]
    finally:
        vec.close()
        for env in singles:
            env.close()


def test_vector_env_autoresets_on_the_next_step(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 3}}}}))
    vec = RetroVectorEnv("StudioDemo-Nes", 2, scenario=str(path))
    try:
        vec.reset()
        frames = []
        for _ in range(10):
            terminated, infos = vec.step(vec.action_space.sample())[2::2]
            frames.append(infos["frame"].tolist())
            if terminated.all():
                break
        assert terminated.all() and frames[-1] == [3, 3]
        obs, rewards, terminated, truncated, infos = vec.step(vec.action_space.sample())
        assert not terminated.any() and (rewards == 0).all()
        assert infos == {}  # the autoreset step returns reset()'s empty info
        assert vec.step(vec.action_space.sample())[4]["frame"].tolist() == [2, 2]
    finally:
        vec.close()


def test_gymnasium_vector_envs():
    sync = gymnasium.vector.SyncVectorEnv([lambda: retro.make("StudioDemo-Nes")] * 2)
    try:
        obs, _ = sync.reset(seed=0)
        assert obs.shape == (2, 224, 240, 3)
        sync.step(sync.action_space.sample())
    finally:
        sync.close()
    async_env = gymnasium.vector.AsyncVectorEnv([lambda: retro.make("StudioDemo-Nes")] * 2)
    try:
        obs, _ = async_env.reset(seed=0)
        obs, *_ = async_env.step(async_env.action_space.sample())
        assert obs.shape == (2, 224, 240, 3)
    finally:
        async_env.close()


@pytest.mark.slow  # training
def test_ppo_trains_on_the_env():
    sb3 = pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    env = make_vec_env(lambda: retro.make("StudioDemo-Nes", obs_type=retro.Observations.RAM,
                                          use_restricted_actions=retro.Actions.DISCRETE), n_envs=1)
    model = sb3.PPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, verbose=0, seed=0)
    model.learn(total_timesteps=128)
    action, _ = model.predict(env.reset())
    assert env.action_space.contains(int(action[0]))
    env.close()


def test_rgb_array_render_and_no_window_by_default():
    env = retro.make("StudioDemo-Nes")
    try:
        assert env.render_mode is None
        env.reset()
        assert env.render() is None
    finally:
        env.close()
    env = retro.make("StudioDemo-Nes", render_mode="rgb_array")
    try:
        obs, _ = env.reset()
        assert np.array_equal(env.render(), obs)
    finally:
        env.close()


def test_bad_type_string_is_a_clear_error_when_the_scenario_uses_it(tmp_path):
    data = tmp_path / "data.json"
    variables = {"score": {"address": 32, "type": "<u9"}, "lives": {"address": 19, "type": "|u1"}}
    data.write_text(json.dumps({"info": variables}))
    with pytest.raises(Exception, match=r"data.json.*score.*width"):
        retro.make("StudioDemo-Nes", info=str(data))
    scenario = tmp_path / "lives.json"
    scenario.write_text(json.dumps({"done": {"variables": {"lives": {"op": "zero"}}}}))
    with pytest.warns(UserWarning, match="'score' is skipped"):
        env = retro.make("StudioDemo-Nes", info=str(data), scenario=str(scenario))
    env.close()


@pytest.mark.parametrize("game, plus_one", [("StudioDemo-Genesis", 0), ("StudioDemo-Nes", 8)])
def test_homebrew_reward_done_and_info_follow_the_documented_rules(game, plus_one):
    env = retro.make(game, use_restricted_actions=retro.Actions.ALL)
    try:
        env.reset()
        hold = np.zeros(env.num_buttons, dtype=np.int8)
        hold[plus_one] = 1
        total, steps, info, terminated = 0.0, 0, {}, False
        while not terminated:
            _, reward, terminated, truncated, info = env.step(hold)
            assert reward == 1.0 or info["game_over"] == 1
            assert not truncated
            total += reward
            steps += 1
        assert info["lives"] == 0 and info["game_over"] == 1
        assert steps == 899 and total == info["score"]  # the reset frame was game frame 1
    finally:
        env.close()


def test_human_render_opens_a_window_only_when_asked(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = retro.make("StudioDemo-Nes", render_mode="human")
    try:
        assert env.viewer is None
        env.reset()
        assert env.viewer is not None and env.render() is True
    finally:
        env.close()
