"""stable-retro's ``retro.examples.brute``: the Brute of Machado et al., "Revisiting the Arcade Learning
Environment: Evaluation Protocols and Open Problems for General Agents" (https://arxiv.org/abs/1709.06009).

It keeps a tree of the action sequences it has played, each node holding the best episode return seen
through it. Each episode follows the best child from the root, except that at each node it picks a random
action with probability ``EXPLORATION_PARAM / log(visits + 2)``; off the tree, every action is random.
Nothing but the actions is stored: it relies on the same actions giving the same episode, as emucore's env
does from its state.

    env = TimeLimit(Frameskip(emucore.make(game, use_restricted_actions=Actions.DISCRETE)), 4500)
    brute = Brute(env, max_episode_steps=4500)
    actions, total = brute.run()           # one episode; run again to improve
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
from gymnasium.wrappers import TimeLimit

import emucore
from emucore.enums import Actions, State

EXPLORATION_PARAM = 0.005


class Frameskip(gym.Wrapper):
    """Each action is stepped ``skip`` times (fewer if the episode ends), its rewards summed."""

    def __init__(self, env: gym.Env, skip: int = 4):
        super().__init__(env)
        if skip < 1:
            raise ValueError(f"skip must be at least 1, not {skip}")
        self._skip = skip

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        total = 0.0
        for _ in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            total += float(reward)
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info


class Node:
    """A node of the tree: the best return of the episodes through it, how many there were, and its
    children by action."""

    def __init__(self, value: float = -math.inf, children: dict[int, Node] | None = None):
        self.value = value
        self.visits = 0
        self.children: dict[int, Node] = {} if children is None else children

    def __repr__(self) -> str:
        return f"<Node value={self.value} visits={self.visits} children={len(self.children)}>"


def _best_action(node: Node, count: int) -> int:
    """One of the actions whose child holds the best value (an action with no child counts as -inf)."""
    values = [node.children[a].value if a in node.children else -math.inf for a in range(count)]
    best = max(values)
    return random.choice([action for action, value in enumerate(values) if value == best])


def select_actions(root: Node, action_space: gym.spaces.Discrete, max_episode_steps: int) -> list[int]:
    """``max_episode_steps`` actions down the tree from ``root``: the best child at each node, or a random
    action with the exploring probability; random ones once off the tree. The episode uses as many as it
    lasts."""
    count = int(action_space.n)
    actions: list[int] = []
    node: Node | None = root
    for _ in range(max_episode_steps):
        if node is None:
            actions.append(int(action_space.sample()))
            continue
        if random.random() < EXPLORATION_PARAM / math.log(node.visits + 2):
            action = int(action_space.sample())
        else:
            action = _best_action(node, count)
        actions.append(action)
        node = node.children.get(action)
    return actions


def rollout(env: gym.Env, acts: Sequence[Any]) -> tuple[int, float]:
    """Resets ``env`` and plays ``acts`` until they run out or the episode ends: (steps played, return)."""
    env.reset()
    steps, total = 0, 0.0
    for action in acts:
        _, reward, terminated, truncated, _ = env.step(action)
        steps += 1
        total += float(reward)
        if terminated or truncated:
            break
    return steps, total


def update_tree(root: Node, executed_acts: Sequence[int], total_rew: float) -> int:
    """Records an episode: every node on the path of ``executed_acts`` (made where missing) is visited once
    more and keeps the better of its value and ``total_rew``. Returns how many nodes were made."""
    made = 0
    node = root
    path = [root]
    for action in executed_acts:
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = Node()
            made += 1
        path.append(child)
        node = child
    for visited in path:
        visited.value = max(visited.value, total_rew)
        visited.visits += 1
    return made


class Brute:
    """The tree and its env (a Discrete action space; wrap it in a time limit of ``max_episode_steps``)."""

    def __init__(self, env: gym.Env, max_episode_steps: int):
        self._env = env
        self._max_episode_steps = max_episode_steps
        self._root = Node()
        self.node_count = 1

    def run(self) -> tuple[list[int], float]:
        """Plays one episode chosen from the tree and records it: (the actions played, the return)."""
        actions = select_actions(self._root, self._env.action_space, self._max_episode_steps)  # type: ignore[arg-type]
        steps, total = rollout(self._env, actions)
        played = actions[:steps]
        self.node_count += update_tree(self._root, played, total)
        return played, total


def brute_retro(
    game: str,
    max_episode_steps: int = 4500,
    timestep_limit: float = 1e8,
    state: Any = State.DEFAULT,
    scenario: str | None = None,
) -> None:
    """Runs the Brute on ``game`` until ``timestep_limit`` steps, writing each better episode to ``best.bk2``."""
    env: gym.Env = emucore.make(game, state, use_restricted_actions=Actions.DISCRETE, scenario=scenario)
    env = TimeLimit(Frameskip(env), max_episode_steps=max_episode_steps)
    brute = Brute(env, max_episode_steps=max_episode_steps)
    steps, best = 0, -math.inf
    try:
        while steps <= timestep_limit:
            actions, total = brute.run()
            steps += len(actions)
            if total > best:
                print(f"new best reward {best} => {total}")
                best = total
                env.unwrapped.record_movie("best.bk2")  # type: ignore[attr-defined]
                rollout(env, actions)
                env.unwrapped.stop_record()  # type: ignore[attr-defined]
        print("timestep limit exceeded")
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the Brute on a game; each better episode goes to best.bk2.")
    parser.add_argument("--game", default="Airstriker-Genesis-v0")
    parser.add_argument("--state", default=State.DEFAULT)
    parser.add_argument("--scenario", default=None)
    args = parser.parse_args(argv)
    brute_retro(game=args.game, state=args.state, scenario=args.scenario)


if __name__ == "__main__":
    main()
