"""The batch step in C (emucore.env.vector_native): each env of a RetroVectorEnv stepped in one call into C gives,
step for step, what the same vector env stepped env by env in Python gives (which the other vector tests hold
to single ``emucore.make`` envs and to Gymnasium's SyncVectorEnv), on Genesis, NES and Atari 2600, with frame
skip, pooling, gray resampling, sticky frames, time limits and both autoreset modes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import emucore
from emucore.env import RetroVectorEnv

SHORT_GENESIS = {"reward": {"variables": {"score": {"reward": 1.0}}},
                 "done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 90}}}}
SHORT_NES = {"reward": {"variables": {"score": {"reward": 1.0}}},
             "done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 40}}}}


def scenario(tmp_path, content: dict) -> str:
    path = tmp_path / "short.json"
    path.write_text(json.dumps(content))
    return str(path)


def assert_same_info(ours: dict, theirs: dict) -> None:
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        if key == "final_obs":
            for mine, expected in zip(ours[key], value):
                assert (mine is None and expected is None) or np.array_equal(mine, expected)
        elif key == "final_info":
            assert_same_info(ours[key], value)
        else:
            assert np.array_equal(ours[key], value), key


def run_side_by_side(game: str, steps: int, seed: int, in_c: bool = True,
                     **kwargs) -> tuple[RetroVectorEnv, RetroVectorEnv, int]:
    """Steps the C vector env and the Python one with the same random actions; the number of episode ends.
    If ``in_c``, every step runs in C (an env that needed Python for a step is lent again at the next)."""
    native = RetroVectorEnv(game, 3, num_threads=2, **kwargs)
    python = RetroVectorEnv(game, 3, num_threads=2, native=False, **kwargs)
    ends = stepped_in_c = 0
    ours, theirs = native.reset(seed=seed), python.reset(seed=seed)
    assert np.array_equal(ours[0], theirs[0])
    native.action_space.seed(seed)
    for _ in range(steps):
        actions = native.action_space.sample()
        ours, theirs = native.step(actions), python.step(actions)
        stepped_in_c += int(native.native_envs.sum())
        assert not python.native_envs.any()
        for mine, expected in zip(ours[:4], theirs[:4]):
            assert np.array_equal(mine, expected)
        assert_same_info(ours[4], theirs[4])
        ends += int((theirs[2] | theirs[3]).sum())
    if in_c:  # an env is handed back only for the step it needed Python
        assert stepped_in_c >= 3 * steps - 3 * ends
    return native, python, ends


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_genesis_with_frame_skip_gray_sticky_frames_and_a_time_limit(tmp_path, mode):
    native, python, ends = run_side_by_side(
        "StudioDemo-Genesis", 120, 5, scenario=scenario(tmp_path, SHORT_GENESIS), autoreset_mode=mode,
        use_restricted_actions=emucore.Actions.DISCRETE, frame_skip=4, grayscale=True, obs_size=(84, 84),
        sticky_prob=0.25, max_episode_steps=17)
    try:
        assert ends >= 6
        for mine, theirs in zip(native.envs, python.envs):  # handed back, each env is the Python one exactly
            assert mine.evaluator.frame == theirs.evaluator.frame
            assert mine.evaluator.total_reward() == theirs.evaluator.total_reward()
            assert mine.episode_state.elapsed_steps == theirs.episode_state.elapsed_steps
            assert mine.np_random.random() == theirs.np_random.random()
    finally:
        native.close()
        python.close()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_nes_with_the_whole_screen_and_filtered_buttons(tmp_path, mode):
    native, python, ends = run_side_by_side("StudioDemo-Nes", 100, 2, scenario=scenario(tmp_path, SHORT_NES),
                                            autoreset_mode=mode)
    native.close()
    python.close()
    assert ends >= 6


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_atari_with_frame_skip_and_max_pooling(tmp_path, mode):
    """Stella reloads its game before each state load (stable-retro does): its autoresets are Python's."""
    from bench.atari_games import game_folder

    folder = game_folder("Breakout", tmp_path)
    if folder is None:
        pytest.skip("stable-retro's Breakout-Atari2600-v0 or ale-py's ROM for it is not installed")
    native, python, _ = run_side_by_side(str(folder), 90, 1, autoreset_mode=mode, frame_skip=4,
                                         use_restricted_actions=emucore.Actions.MULTI_DISCRETE,
                                         max_episode_steps=40)
    native.close()
    python.close()


def test_airstriker_from_its_start_state(airstriker):
    native, python, _ = run_side_by_side(str(airstriker), 60, 9, frame_skip=4, grayscale=True, obs_size=(84, 84),
                                         max_episode_steps=25)
    native.close()
    python.close()


def test_an_env_handed_back_steps_on_in_c_where_it_left_off(tmp_path):
    """Reading ``envs`` hands every env back to Python; the next step lends them to C again."""
    kwargs = dict(scenario=scenario(tmp_path, SHORT_GENESIS), frame_skip=2, sticky_prob=0.5)
    native = RetroVectorEnv("StudioDemo-Genesis", 2, num_threads=2, **kwargs)
    singles = [emucore.make("StudioDemo-Genesis", **kwargs) for _ in range(2)]
    try:
        native.reset(seed=3)
        for index, env in enumerate(singles):
            env.reset(seed=3 + index)
        rng = np.random.default_rng(0)
        ended = [False, False]
        for step in range(60):
            actions = rng.integers(0, 2, (2, 12)).astype(np.uint8)
            obs, rewards, terminated, truncated, info = native.step(actions)
            for index, env in enumerate(singles):
                if ended[index]:  # the autoreset, at the step after the end
                    expected = (env.reset()[0], 0.0, False, False, {})
                else:
                    expected = env.step(actions[index])
                    assert info["score"][index] == expected[4]["score"]
                assert np.array_equal(obs[index], expected[0]) and rewards[index] == expected[1]
                assert terminated[index] == expected[2]
                ended[index] = expected[2]
            if step % 7 == 0:
                assert [env.evaluator.totals for env in native.envs] == [env.evaluator.totals for env in singles]
                assert not native.native_envs.any()
    finally:
        native.close()
        for env in singles:
            env.close()


def test_an_action_outside_the_space_is_refused_by_name_after_the_other_envs_stepped():
    native = RetroVectorEnv("StudioDemo-Nes", 3, num_threads=2)
    try:
        native.reset(seed=0)
        actions = np.zeros((3, 9), dtype=np.uint8)
        actions[1, 2] = 2
        with pytest.raises(ValueError, match=r"not in the action space MultiBinary\(9\)"):
            native.step(actions)
        assert native.envs[0].evaluator.frame == native.envs[2].evaluator.frame == 2
        actions[1, 2] = 1
        native.step(actions)
        assert native.native_envs.all()
    finally:
        native.close()


def test_a_lua_scenario_is_stepped_in_python(tmp_path):
    script = tmp_path / "rules.lua"
    script.write_text("function score_reward()\n  return data.score\nend\n")
    path = tmp_path / "lua.json"
    path.write_text(json.dumps({"scripts": ["rules.lua"], "reward": {"script": "lua:score_reward"}}))
    native = RetroVectorEnv("StudioDemo-Nes", 2, num_threads=2, scenario=str(path))
    try:
        native.reset(seed=0)
        native.step(np.zeros((2, 9), dtype=np.uint8))
        assert not native.native_envs.any()
    finally:
        native.close()


def test_a_closed_env_is_named_not_stepped():
    native = RetroVectorEnv("StudioDemo-Nes", 2, num_threads=2)
    try:
        native.reset(seed=0)
        native.step(np.zeros((2, 9), dtype=np.uint8))
        native.envs[1].close()
        with pytest.raises(emucore.errors.EmulatorClosedError):
            native.step(np.zeros((2, 9), dtype=np.uint8))
    finally:
        native.close()


def test_frames_that_move_memory_are_finished_in_python(tmp_path, monkeypatch):
    """C stops an env's frames after one that may have moved memory (or called into Python) and Python finishes
    the step, resets included: here every env of every step is told so, from its first frame on."""
    from emucore.env import batch_slots

    real_lend = batch_slots.lend

    def lend_elsewhere(env, batch, index, *args):
        lent = real_lend(env, batch, index, *args)
        if lent is not None:
            batch.slots[index].memory_maps_sets += 1  # as if the core had sent new memory maps
        return lent

    monkeypatch.setattr(batch_slots, "lend", lend_elsewhere)
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        native, python, ends = run_side_by_side(
            "StudioDemo-Genesis", 60, 4, False, scenario=scenario(tmp_path, SHORT_GENESIS), autoreset_mode=mode,
            frame_skip=3, grayscale=True, obs_size=(84, 84), sticky_prob=0.5, max_episode_steps=12)
        native.close()
        python.close()
        assert ends >= 6
