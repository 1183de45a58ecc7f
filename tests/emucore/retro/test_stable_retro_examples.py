"""stable-retro's ``retro.examples`` parts that user code imports, on a real env: the Discretizer's button
arrays reach the emulator, the Brute's tree learns from replayed episodes, and the PPO example's
sticky frame skip and time limit behave as stable-retro's."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

import emucore
from emucore.examples import brute
from emucore.examples.brute import Brute, Frameskip, Node, rollout, select_actions, update_tree
from emucore.examples.discretizer import SONIC_COMBOS, Discretizer, SonicDiscretizer
from emucore.examples.ppo import StochasticFrameSkip, make_retro, wrap_deepmind_retro
from tests.conftest import require_core

GAME = "StudioDemo-Genesis"  # Genesis buttons: B A MODE START UP DOWN LEFT RIGHT C Y X Z


@pytest.fixture
def genesis():
    require_core("genesis_plus_gx")
    envs: list[gym.Env] = []

    def make(**kwargs) -> gym.Env:
        envs.append(emucore.make(GAME, **kwargs))
        return envs[-1]

    yield make
    for env in envs:
        env.close()


class ActionLog(gym.Wrapper):
    """Keeps every action the env below is stepped with."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.actions: list = []

    def step(self, action):
        self.actions.append(action)
        return self.env.step(action)


def test_discretizer_presses_the_combos_buttons_on_the_emulator(genesis):
    env = Discretizer(genesis(), [[], ["LEFT"], ["RIGHT", "B"]])
    assert env.action_space == gym.spaces.Discrete(3)
    assert env.action(2).tolist() == [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert env.action(0).tolist() == [0] * 12
    env.reset()
    emulator = env.unwrapped.em
    for action, mask in [(2, 1 << 7 | 1 << 0), (1, 1 << 6), (0, 0)]:
        env.step(action)
        assert emulator.get_button_mask() == mask
    env.action(1)[6] = 0  # a copy each time: the table is not changed through it
    assert env.action(1)[6] == 1
    with pytest.raises(ValueError, match="outside Discrete"):
        env.action(3)


def test_sonic_discretizer_and_bad_combos(genesis):
    env = SonicDiscretizer(genesis())
    assert env.action_space.n == len(SONIC_COMBOS) == 7
    assert [env.unwrapped.buttons[i] for i in np.flatnonzero(env.action(5))] == ["B", "DOWN"]
    with pytest.raises(ValueError, match="no button 'JUMP'"):
        Discretizer(genesis(), [["JUMP"]])
    with pytest.raises(TypeError, match="MultiBinary"):
        Discretizer(genesis(use_restricted_actions=emucore.Actions.DISCRETE), [["B"]])


def test_update_tree_keeps_the_best_return_and_the_visits():
    root = Node()
    assert update_tree(root, [1, 2], 5.0) == 2
    assert update_tree(root, [1, 3], 2.0) == 1
    assert (root.value, root.visits) == (5.0, 2)
    one = root.children[1]
    assert (one.value, one.visits, sorted(one.children)) == (5.0, 2, [2, 3])
    assert (one.children[3].value, one.children[3].visits) == (2.0, 1)


def test_select_actions_follows_the_best_branch_then_plays_at_random(monkeypatch):
    monkeypatch.setattr(brute, "EXPLORATION_PARAM", 0.0)
    random.seed(1)
    root = Node()
    update_tree(root, [1, 0], 3.0)
    update_tree(root, [2], 7.0)
    space = gym.spaces.Discrete(4, seed=1)
    actions = select_actions(root, space, 6)
    assert len(actions) == 6 and actions[0] == 2  # the branch with the best return
    assert all(0 <= a < 4 for a in actions)


def test_the_brute_improves_on_replayed_episodes(genesis):
    env = gym.wrappers.TimeLimit(Frameskip(genesis(use_restricted_actions=emucore.Actions.DISCRETE), skip=2), 12)
    random.seed(0)
    env.action_space.seed(0)
    agent = Brute(env, max_episode_steps=12)
    best = -np.inf
    for _ in range(3):
        actions, total = agent.run()
        assert len(actions) == 12
        assert rollout(env, actions) == (12, total)  # the same actions replay the same episode
        best = max(best, total)
    assert agent.node_count > 12 and agent._root.visits == 3 and agent._root.value == best


def test_stochastic_frame_skip_holds_the_previous_action_on_sticky_steps(genesis):
    log = ActionLog(genesis())
    for stickprob, expected in [(1.0, ["a"] * 4 + ["a", "b", "b", "b"]), (0.0, ["a"] * 4 + ["b"] * 4)]:
        env = StochasticFrameSkip(log, n=4, stickprob=stickprob)
        env.reset(seed=3)
        log.actions.clear()
        a, b = np.zeros(12, dtype=np.int8), np.ones(12, dtype=np.int8)
        env.step(a)
        env.step(b)
        assert [("a" if x is a else "b") for x in log.actions] == expected


def test_make_retro_and_the_deepmind_wrappers(genesis):
    require_core("genesis_plus_gx")
    env = make_retro(game=GAME, max_episode_steps=3)
    try:
        env.reset()
        results = [env.step(env.action_space.sample()) for _ in range(3)]
        assert [r[3] for r in results] == [False, False, True]  # truncated by the time limit
        assert env.unwrapped.em.frame_count >= 12
    finally:
        env.close()
    pytest.importorskip("stable_baselines3")
    wrapped = wrap_deepmind_retro(genesis())
    obs, _ = wrapped.reset()
    assert obs.shape == (84, 84, 1)
    assert wrapped.step(wrapped.action_space.sample())[1] in (-1.0, 0.0, 1.0)
