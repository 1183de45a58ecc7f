"""emucore.make against stable_retro.make: identical obs, reward, flags, info and RAM at every
step, for every action type, on Airstriker and our homebrew games, with tree and Lua scenarios."""

from __future__ import annotations

import json

import numpy as np
import pytest

import emucore
from emucore.paths import integrations_dir

pytestmark = pytest.mark.slow  # stable-retro parity: the same episodes in both

retro = pytest.importorskip("stable_retro")

LUA_SCENARIO = {
    "reward": {"script": "lua:reward"},
    "done": {"script": "lua:done"},
    "scripts": ["rules.lua"],
}
LUA_RULES = """
local best = 0
local calls = 0
function reward()
  local s = data.score
  local gain = 0
  if s > best then gain = (s - best) * 0.1; best = s end
  if data.x < 100 then gain = gain - 0.5 end
  calls = calls + 1
  data.seen = calls
  return gain
end
function done()
  return data.lives < 3 or scenario.frame > 250
end
"""
# Reads after a write in the same evaluation see the write: data.json variables (memory) and a
# custom variable that hides one. A reward tree beside the script measures the written memory.
LUA_WRITES_SCENARIO = {
    "reward": {"variables": {"score": {"reward": 1.0}, "timer": {"measurement": "absolute", "reward": 0.01}}},
    "done": {"script": "lua:done"},
    "scripts": ["writes.lua"],
}
LUA_WRITES = """
function done()
  local timer = data.timer
  data.timer = (timer * 7 + scenario.frame) % 1000
  if data.timer ~= (timer * 7 + scenario.frame) % 1000 then return 1 end
  if scenario.frame % 50 == 7 then data.lives = 2.5 end
  if data.lives ~= math.floor(data.lives) then return 1 end
  if scenario.frame % 90 == 3 then data.score = data.score + 5 end
  return data.lives == 0 or data.score_bcd > 10000000
end
"""
TREE_SCENARIO = {
    "reward": {
        "variables": {
            "score": {"reward": 0.25},
            "x": {"op": "sign", "reward": 0.5, "penalty": 2.0},
            "lives": {"measurement": "absolute", "op": "less-than", "reference": 3, "penalty": 1.0, "reward": -3.0},
        },
        "time": {"reward": -0.01},
    },
    "done": {
        "condition": "any",
        "variables": {"game_over": {"op": "equal", "reference": 1}},
        "nodes": {
            "both": {"condition": "all", "variables": {"y": {"op": "greater-than", "reference": 150},
                                                        "x": {"op": "greater-than", "reference": 200}}},
        },
    },
    "crop": [8, 16, 200, 150],
}


def pair(game: str, **kwargs):
    retro.data.Integrations.add_custom_path(str(integrations_dir()))
    theirs = retro.make(game, inttype=retro.data.Integrations.ALL, render_mode=None, **kwargs)
    theirs_kwargs = dict(kwargs)
    for key in ("use_restricted_actions", "obs_type"):
        if key in theirs_kwargs:
            theirs_kwargs[key] = getattr(emucore, type(kwargs[key]).__name__)(kwargs[key].value)
    ours = emucore.make(game, inttype=emucore.data.Integrations.ALL, **theirs_kwargs)
    return theirs, ours


def compare(theirs, ours, steps: int, seed: int, resets: int = 1) -> None:
    rng = np.random.default_rng(seed)
    try:
        for _ in range(resets):
            a_obs, a_info = theirs.reset(seed=seed)
            b_obs, b_info = ours.reset(seed=seed)
            assert np.array_equal(a_obs, b_obs) and a_info == b_info == {}
            for step in range(steps):
                action = _sample(theirs.action_space, rng)
                a = theirs.step(action)
                b = ours.step(action)
                assert np.array_equal(a[0], b[0]), f"obs differ at step {step}"
                assert a[1] == b[1] and type(b[1]) is float, f"reward {a[1]} != {b[1]} at step {step}"
                assert (a[2], a[3]) == (b[2], b[3]), f"flags differ at step {step}"
                assert list(a[4].items()) == list(b[4].items()), f"info {a[4]} != {b[4]} at step {step}"
                assert np.array_equal(theirs.get_ram(), ours.get_ram()), f"RAM differs at step {step}"
    finally:
        theirs.close()
        ours.close()


def _sample(space, rng):
    import gymnasium as gym

    if isinstance(space, gym.spaces.Discrete):
        return int(rng.integers(space.n))
    if isinstance(space, gym.spaces.MultiDiscrete):
        return rng.integers(0, space.nvec)
    return rng.integers(0, 2, space.n)


@pytest.mark.parametrize("mode", ["FILTERED", "ALL", "DISCRETE", "MULTI_DISCRETE"])
def test_airstriker_every_action_type(mode):
    theirs, ours = pair("Airstriker-Genesis-v0", use_restricted_actions=getattr(retro.Actions, mode))
    compare(theirs, ours, steps=300, seed=len(mode))


@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_homebrew_with_their_scenarios(game):
    theirs, ours = pair(game, use_restricted_actions=retro.Actions.ALL)
    ram = slice(0, 2048) if game.endswith("Nes") else slice(None)
    rng = np.random.default_rng(3)
    try:
        for _ in range(2):
            assert np.array_equal(theirs.reset()[0], ours.reset()[0])
            for _ in range(1000):  # long enough to lose every life: done fires
                action = rng.integers(0, 2, theirs.action_space.n)
                a, b = theirs.step(action), ours.step(action)
                assert np.array_equal(a[0], b[0]) and a[1:] == b[1:] and list(a[4]) == list(b[4])
                assert np.array_equal(theirs.get_ram()[ram], ours.get_ram()[ram])
    finally:
        theirs.close()
        ours.close()


def test_ram_observations():
    theirs, ours = pair("Airstriker-Genesis-v0", obs_type=retro.Observations.RAM)
    assert theirs.observation_space == ours.observation_space
    compare(theirs, ours, steps=100, seed=5)


def test_tree_scenario_with_crop_time_and_penalties(tmp_path):
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(TREE_SCENARIO))
    theirs, ours = pair("StudioDemo-Genesis", scenario=str(path), use_restricted_actions=retro.Actions.ALL)
    assert theirs.observation_space.shape == ours.observation_space.shape == (150, 200, 3)
    compare(theirs, ours, steps=400, seed=11, resets=2)


@pytest.mark.parametrize("scenario, script, seed",
                         [(LUA_SCENARIO, LUA_RULES, 12), (LUA_WRITES_SCENARIO, LUA_WRITES, 14)],
                         ids=["reads", "writes-memory-and-custom-variables"])
def test_lua_scenario(tmp_path, scenario, script, seed):
    (tmp_path / "lua.json").write_text(json.dumps(scenario))
    (tmp_path / scenario["scripts"][0]).write_text(script)
    theirs, ours = pair("StudioDemo-Genesis", scenario=str(tmp_path / "lua.json"),
                        use_restricted_actions=retro.Actions.ALL)
    compare(theirs, ours, steps=300, seed=seed, resets=2)


@pytest.mark.parametrize("game", ["Pong", "SpaceInvaders", "DemonAttack", "Krull", "RoadRunner", "WizardOfWor"])
def test_info_keys_come_in_stable_retros_order(tmp_path, game):
    """stable-retro's info is a C++ hash table's iteration order, not sorted (emucore.scenario.info_order)."""
    theirs, ours = atari_pair(tmp_path, game)
    compare(theirs, ours, steps=200, seed=17)


def atari_pair(tmp_path, game: str, **kwargs):
    """stable-retro's and our env on a copy of ``<game>-Atari2600-v0`` with ale-py's ROM (skips without them)."""
    import shutil

    from bench.atari_games import ale_rom, stable_data

    name = f"{game}-Atari2600-v0"
    rom, data_root = ale_rom(game), stable_data()
    if rom is None or data_root is None or not (data_root / name).is_dir():
        pytest.skip(f"stable-retro's {name} or ale-py's ROM for it is not installed")
    shutil.copytree(data_root / name, tmp_path / name)
    shutil.copyfile(rom, tmp_path / name / "rom.a26")
    retro.data.Integrations.add_custom_path(str(tmp_path))
    try:
        theirs = retro.make(name, inttype=retro.data.Integrations.ALL, render_mode=None, **kwargs)
    finally:
        retro.data.Integrations.clear_custom_paths()
    return theirs, emucore.make(str(tmp_path / name), **kwargs)


def test_stella_draws_its_random_numbers_as_in_stable_retro(tmp_path):
    """ElevatorAction reads its cartridge RAM's write port at step 13,454 of this run, which stores a
    number from Stella's random generator: the same only if the state load resets Stella as
    stable-retro does (reload, then retro_reset). Before, the picture differed from there."""
    theirs, ours = atari_pair(tmp_path, "ElevatorAction")
    rng = np.random.default_rng(4)
    try:
        theirs.reset(seed=4)
        ours.reset(seed=4)
        for step in range(13460):
            action = rng.integers(0, 2, theirs.action_space.n)
            a, b = theirs.step(action), ours.step(action)
            if step >= 13450:
                assert np.array_equal(a[0], b[0]), f"obs differ at step {step}"
                assert theirs.em.get_state() == ours.em.get_state(), f"state differs at step {step}"
    finally:
        theirs.close()
        ours.close()


@pytest.mark.parametrize("game", ["ElevatorAction", "Breakout"])
def test_stellas_reset_with_the_core_loaded_ahead_is_stable_retros(tmp_path, game):
    """From the second reset on, Stella's fresh core was loaded ahead (emucore.host.spare_core): each reset and
    the play after it are still stable-retro's, state for state."""
    theirs, ours = atari_pair(tmp_path, game)
    rng = np.random.default_rng(8)
    try:
        for episode in range(4):
            a, b = theirs.reset(seed=episode), ours.reset(seed=episode)
            assert np.array_equal(a[0], b[0]) and theirs.em.get_state() == ours.em.get_state(), episode
            for _ in range(80):
                action = rng.integers(0, 2, theirs.action_space.n)
                a, b = theirs.step(action), ours.step(action)
                assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
            assert theirs.em.get_state() == ours.em.get_state(), episode
    finally:
        theirs.close()
        ours.close()


def test_two_players():
    theirs, ours = pair("StudioDemo-Genesis", players=2, use_restricted_actions=retro.Actions.ALL)
    assert theirs.action_space == ours.action_space
    compare(theirs, ours, steps=200, seed=13)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_])
def test_one_byte_multibinary_actions_take_the_c_path(dtype):
    """One-byte flags go to C through FILTERED's table: every button mask as the Python filter has it."""
    theirs, ours = pair("Airstriker-Genesis-v0", use_restricted_actions=retro.Actions.FILTERED)
    groups, emulator = ours.data.actions, ours.em
    for mask in range(1 << groups.num_buttons):
        flags = np.array([(mask >> i) & 1 for i in range(groups.num_buttons)], dtype=dtype)
        assert emulator.press(flags, groups.filter_pointer)
        assert emulator.get_button_mask() == groups.filter(mask) & groups.pad_mask, f"mask {mask:#x}"
    assert not emulator.press(np.full(groups.num_buttons, 2, dtype=np.uint8), groups.filter_pointer)
    rng = np.random.default_rng(4)
    try:
        theirs.reset(seed=0)
        ours.reset(seed=0)
        for step in range(300):
            action = rng.integers(0, 2, theirs.action_space.n).astype(dtype)
            a, b = theirs.step(action), ours.step(action)
            assert np.array_equal(a[0], b[0]) and a[1:] == b[1:], f"step {step} differs"
        with pytest.raises(ValueError, match="0 or 1"):
            ours.step(np.full(theirs.action_space.n, 2, dtype=np.uint8 if dtype is np.bool_ else dtype))
    finally:
        theirs.close()
        ours.close()
