"""emucore.sb3.RetroVecEnv holds to Stable-Baselines3's VecEnv contract (what DummyVecEnv and SubprocVecEnv do),
steps each env as a single emucore env steps, and trains PPO."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import emucore

pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.vec_env import VecFrameStack, VecMonitor, VecTransposeImage  # noqa: E402

from emucore.sb3 import RetroVecEnv  # noqa: E402

GAME = "StudioDemo-Genesis"
ATARI_LIKE = {"frame_skip": 4, "grayscale": True, "obs_size": (84, 84)}
DISCRETE = emucore.Actions.DISCRETE


@pytest.fixture
def short_scenario(tmp_path):
    """Episodes that end (terminated) once the game's frame counter reaches 40: about ten steps of 4 frames."""
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 40}}}}))
    return str(path)


@pytest.fixture
def opened():
    """Closes the envs a test opens."""
    envs: list = []
    yield envs
    for env in envs:
        env.close()


def test_reset_and_step_give_sb3_shapes_and_types(opened):
    venv = RetroVecEnv(GAME, 3, num_threads=2, **ATARI_LIKE)
    opened.append(venv)
    assert venv.num_envs == 3 and venv.observation_space.shape == (84, 84, 1)
    obs = venv.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (3, 84, 84, 1) and obs.dtype == np.uint8
    assert all(venv.observation_space.contains(row) for row in obs)
    assert venv.reset_infos == [{}, {}, {}]
    venv.step_async(np.stack([venv.action_space.sample() for _ in range(3)]))
    obs, rewards, dones, infos = venv.step_wait()
    assert obs.shape == (3, 84, 84, 1) and obs.dtype == np.uint8
    assert rewards.shape == (3,) and dones.shape == (3,) and dones.dtype == np.bool_
    assert isinstance(infos, list) and len(infos) == 3
    for info in infos:
        assert info["TimeLimit.truncated"] is False
        assert {key: type(value) for key, value in info.items() if key != "TimeLimit.truncated"} == dict.fromkeys(
            ["dx", "frame", "game_over", "score", "lives", "score_bcd", "timer", "x", "y"], int)
    with pytest.raises(ValueError, match="2 action rows for 3 envs"):
        venv.step(np.zeros((2, 12), dtype=np.int8))


def test_each_env_steps_as_a_single_env_across_autoresets(short_scenario, opened):
    """Observations, rewards, dones and infos per env are a single emucore env's given the same actions; a done
    env's row is its reset observation and the last one is terminal_observation."""
    kwargs = dict(scenario=short_scenario, use_restricted_actions=DISCRETE, **ATARI_LIKE)
    venv = RetroVecEnv(GAME, 3, num_threads=2, **kwargs)
    singles = [emucore.make(GAME, **kwargs) for _ in range(3)]
    opened.extend([venv, *singles])
    venv.seed(5)
    obs = venv.reset()
    assert np.array_equal(obs, np.stack([env.reset(seed=5 + i)[0] for i, env in enumerate(singles)]))
    rng = np.random.default_rng(0)
    episodes_ended = 0
    for _ in range(35):
        actions = rng.integers(0, venv.action_space.n, 3)
        obs, rewards, dones, infos = venv.step(actions)
        for index, env in enumerate(singles):
            expected, reward, terminated, truncated, info = env.step(int(actions[index]))
            assert not truncated and dones[index] == terminated and rewards[index] == reward
            info["TimeLimit.truncated"] = False
            if terminated:
                episodes_ended += 1
                assert np.array_equal(infos[index].pop("terminal_observation"), expected)
                expected = env.reset()[0]
            assert infos[index] == info
            assert np.array_equal(obs[index], expected), index
        assert venv.venv.native_envs.all()  # stepped in one call into C, autoresets included
    assert episodes_ended >= 6  # every env went through at least two autoresets


def test_the_autoreset_runs_in_the_same_step(short_scenario, opened):
    venv = RetroVecEnv(GAME, 2, scenario=short_scenario, **ATARI_LIKE)
    opened.append(venv)
    venv.reset()
    idle = np.zeros((2, 12), dtype=np.int8)
    while True:
        _, _, dones, infos = venv.step(idle)
        if dones.any():
            break
    assert dones.all() and [info["frame"] for info in infos] == [40, 40]  # the frame skip stops at the end
    _, _, dones, infos = venv.step(idle)
    assert not dones.any() and [info["frame"] for info in infos] == [5, 5]  # the reset (frame 1) + 4 frames


def test_get_set_attr_and_env_method_reach_the_envs_at_the_indices(opened):
    venv = RetroVecEnv(GAME, 3, use_restricted_actions=DISCRETE)
    opened.append(venv)
    venv.reset()
    assert venv.get_attr("gamename") == [GAME] * 3
    assert venv.get_attr("statename", indices=1) == ["Start.state"]
    venv.set_attr("multi_rewards", True, indices=[0, 2])
    assert venv.get_attr("multi_rewards") == [True, False, True]
    assert [env.multi_rewards for env in venv.envs] == [True, False, True]
    assert venv.env_method("get_action_meaning", 0, indices=[2]) == [venv.envs[2].get_action_meaning(0)]
    assert venv.env_method("set_value", "lives", 1, indices=[0, 2]) == [None, None]
    _, _, _, infos = venv.step(np.array([0, 0, 0]))
    assert [info["lives"] for info in infos] == [1, 3, 1]
    ram = venv.env_method("get_ram", indices=range(3))
    assert all(np.array_equal(got, env.get_ram()) for got, env in zip(ram, venv.envs))
    assert venv.has_attr("buttons") and not venv.has_attr("no_such_attribute")
    with pytest.raises(AttributeError):
        venv.get_attr("no_such_attribute")
    assert venv.env_is_wrapped(VecMonitor) == [False] * 3 and venv.env_is_wrapped(VecMonitor, indices=[1]) == [False]


def test_seeds_apply_to_the_next_reset_only(opened):
    venv = RetroVecEnv(GAME, 3)
    opened.append(venv)
    assert venv.seed(7) == [7, 8, 9]
    venv.reset()
    assert venv.get_attr("np_random_seed") == [7, 8, 9]
    draws = [env.np_random.integers(1 << 30) for env in venv.envs]
    venv.seed(7)
    venv.reset()
    assert [env.np_random.integers(1 << 30) for env in venv.envs] == draws
    venv.reset()  # seeds are used once: this reset leaves the generators as they are
    assert venv.get_attr("np_random_seed") == [7, 8, 9]
    venv.set_options({"unused": 1})
    venv.reset()  # options go to RetroEnv.reset, which ignores them (as stable-retro's does)
    assert venv._options == [{}, {}, {}]


def test_time_limit_truncation_is_told_apart_from_termination(short_scenario, opened):
    """The short scenario ends at the 10th step: a limit of 6 truncates (TimeLimit.truncated), a limit of 10 falls on
    the terminating step (terminated wins, as Gymnasium's TimeLimit and SB3's wrappers have it)."""
    idle = np.zeros(2, dtype=np.int64)
    for limit, cut_short in ((6, True), (10, False)):
        kwargs = dict(scenario=short_scenario, use_restricted_actions=DISCRETE, max_episode_steps=limit, **ATARI_LIKE)
        venv = RetroVecEnv(GAME, 2, **kwargs)
        single = emucore.make(GAME, **kwargs)
        opened.extend([venv, single])
        venv.reset()
        single.reset()
        for step in range(1, limit + 1):
            _, _, dones, infos = venv.step(idle)
            last = single.step(0)[0]
            assert dones.tolist() == [step == limit] * 2
        assert [info["TimeLimit.truncated"] for info in infos] == [cut_short] * 2
        assert all(np.array_equal(info["terminal_observation"], last) for info in infos)
        _, _, dones, infos = venv.step(idle)  # the count starts again after the autoreset
        assert not dones.any() and [info["TimeLimit.truncated"] for info in infos] == [False, False]


def test_seeded_sticky_actions_are_reproducible_and_each_env_its_single_env(opened):
    """With sticky_prob the trajectories depend on the seeds: the same seeds give the same play, env i plays as a
    single env reset with seed + i, and other seeds play otherwise."""
    kwargs = dict(sticky_prob=0.5, **ATARI_LIKE)
    rng = np.random.default_rng(4)
    actions = rng.integers(0, 2, (30, 2, 12), dtype=np.int8)

    def play(seed: int) -> list[np.ndarray]:
        venv = RetroVecEnv(GAME, 2, **kwargs)
        opened.append(venv)
        venv.seed(seed)
        return [venv.reset()] + [venv.step(row)[0] for row in actions]

    first, again, other = play(3), play(3), play(11)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))
    for index in range(2):
        single = emucore.make(GAME, **kwargs)
        opened.append(single)
        observed = [single.reset(seed=3 + index)[0]] + [single.step(row[index])[0] for row in actions]
        assert all(np.array_equal(obs[index], expected) for obs, expected in zip(first, observed))


def test_sb3_wrappers_stack_transpose_and_monitor_episodes(short_scenario, opened):
    venv = RetroVecEnv(GAME, 2, scenario=short_scenario, **ATARI_LIKE)
    opened.append(venv)
    wrapped = VecMonitor(VecTransposeImage(VecFrameStack(venv, n_stack=4)))
    obs = wrapped.reset()
    assert obs.shape == (2, 4, 84, 84) and wrapped.observation_space.shape == (4, 84, 84)
    idle = np.zeros((2, 12), dtype=np.int8)
    lengths = 0
    while True:
        lengths += 1
        obs, rewards, dones, infos = wrapped.step(idle)
        if dones.any():
            break
    assert dones.all() and obs.shape == (2, 4, 84, 84)
    for info in infos:
        assert info["episode"]["l"] == lengths and info["terminal_observation"].shape == (4, 84, 84)
    # after the autoreset the stack holds the reset observation alone (older frames zeroed)
    assert not obs[:, :3].any() and np.array_equal(obs[:, 3], venv.envs[0].reset()[0][..., 0][None].repeat(2, 0))


def test_images_are_the_screens(opened):
    venv = RetroVecEnv(GAME, 2, render_mode="rgb_array", **ATARI_LIKE)
    opened.append(venv)
    venv.reset()
    venv.step(np.ones((2, 12), dtype=np.int8))
    images = venv.get_images()
    assert len(images) == 2 and all(image.shape == (224, 320, 3) for image in images)
    assert all(np.array_equal(image, env.get_screen()) for image, env in zip(images, venv.envs))
    tiled = venv.render()
    assert tiled.shape == (448, 320, 3) and np.array_equal(tiled[:224], images[0])
    plain = RetroVecEnv(GAME, 1)
    opened.append(plain)
    with pytest.warns(UserWarning, match="render_mode"):
        assert plain.render() is None


def test_close_closes_the_emulators(opened):
    venv = RetroVecEnv(GAME, 2)
    venv.reset()
    venv.close()
    with pytest.raises(RuntimeError, match="closed"):
        venv.step(np.zeros((2, 12), dtype=np.int8))


@pytest.mark.slow  # training
def test_ppo_learns_on_it(opened):
    venv = RetroVecEnv(GAME, 2, **ATARI_LIKE)
    opened.append(venv)
    model = PPO("CnnPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps == 64 and isinstance(model.get_env(), VecTransposeImage)


def test_sb3s_own_checks_pass(short_scenario, opened):
    """SB3's NaN/inf checker over whole episodes, its space check against a DummyVecEnv of the same envs
    (what ``model.set_env`` runs), and its ``evaluate_policy``, which needs episodes to end and restart."""
    from stable_baselines3.common.evaluation import evaluate_policy
    from stable_baselines3.common.utils import check_for_correct_spaces
    from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan

    venv = RetroVecEnv(GAME, 2, scenario=short_scenario, use_restricted_actions=DISCRETE, **ATARI_LIKE)
    dummy = DummyVecEnv([lambda: emucore.make(GAME, scenario=short_scenario, use_restricted_actions=DISCRETE,
                                              **ATARI_LIKE)] * 2)
    opened += [venv, dummy]
    check_for_correct_spaces(venv, dummy.observation_space, dummy.action_space)
    checked = VecCheckNan(venv, raise_exception=True, check_inf=True)
    checked.reset()
    for _ in range(25):  # over two autoresets
        checked.step(np.array([venv.action_space.sample() for _ in range(2)]))
    model = PPO("CnnPolicy", VecMonitor(venv), n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.set_env(VecMonitor(venv))
    returns, lengths = evaluate_policy(model, model.get_env(), n_eval_episodes=4, return_episode_rewards=True)
    assert len(returns) == 4 and all(length == 10 for length in lengths)


def test_without_stable_baselines3_the_error_names_the_rl_extra():
    code = """
        import sys
        sys.modules["stable_baselines3"] = None
        try:
            import emucore.sb3
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "MissingExtraError emucore.sb3 (RetroVecEnv) needs stable-baselines3, which is not installed: "
        "pip install 'retro-integration-studio[rl]'"
    )
