"""env.step() against the bare core and stable-retro's, and a threaded vector env against AsyncVectorEnv.

Airstriker-Genesis-v0 from Level1 with FILTERED MultiBinary random actions by default; ``--game``,
``--state`` and ``--scenario`` pick another (our integrations, such as StudioDemo-Genesis, are found
by both; bench/scenarios/airstriker-lua.json is Airstriker's scenario in Lua). The single-env runs
(our bare ``Emulator.step()``, stable-retro's env.step(), ours) take turns in chunks within one
run, the order reversed every round. The vector run compares 8 emucore envs on a thread
pool (RetroVectorEnv) with 8 stable-retro envs in Gymnasium's AsyncVectorEnv (one process each).

    python bench/bench_env.py [--rounds 20] [--chunk 300] [--vector-steps 300] [--no-vector]
                              [--game StudioDemo-Genesis --state Start] [--scenario bench/scenarios/airstriker-lua.json]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

INTEGRATIONS = Path(__file__).resolve().parent.parent / "emucore" / "resources" / "integrations"
GAME = {"game": "Airstriker-Genesis-v0", "state": "Level1", "scenario": None}


def stable_retro_env():
    import stable_retro

    stable_retro.data.Integrations.add_custom_path(str(INTEGRATIONS))
    state = stable_retro.State.NONE if GAME["state"] == "NONE" else GAME["state"]
    return stable_retro.make(GAME["game"], state=state, scenario=GAME["scenario"], render_mode=None,
                             inttype=stable_retro.data.Integrations.ALL)


def emucore_env():
    import emucore

    state = emucore.State.NONE if GAME["state"] == "NONE" else GAME["state"]
    return emucore.make(GAME["game"], state=state, scenario=GAME["scenario"], inttype=emucore.data.Integrations.ALL)


class BareCore:
    """Our Emulator under an env, its buttons pressed once and ``frames`` frames run per action, nothing
    else: the limit of env.step() (bench_frame_skip uses it with the frames an action is held)."""

    def __init__(self, env, frames: int = 1):
        self.env, self.em, self.frames = env, env.em, frames

    def step(self, action):
        self.em.set_button_mask(action)
        for _ in range(self.frames):
            self.em.step()
        return None, 0.0, False, False, {}

    def reset(self, seed=None):
        return None, {}

    def close(self):
        self.env.close()


class BareTwins:
    """Bare emulators that replay an env's play (a vector env's: one emulator per env) one recorded round behind
    it: each env's buttons as the env decodes them, ``frames`` frames a step in one call into the core, and a reset
    (the start state, one frame with no buttons) where the env reset; no observation, no scenario and no barrier
    between steps, each of ``threads`` threads stepping its share through a whole round. The limit for the same
    game content: one bare emulator whose game is never reset plays other content (a game-over screen costs
    another time than play), and alone it stays in cache. ``reset_takes_step``: the env's reset comes instead of
    the step after an episode's end (a vector env's autoreset), not besides it (a single env reset by the loop).
    """

    def __init__(self, make_env: Callable[[], Any], num_envs: int, frames: int, threads: int = 1,
                 reset_takes_step: bool = True):
        self.envs = [make_env() for _ in range(num_envs)]
        for env in self.envs:
            env.reset(seed=0)
        self.start = self.envs[0].initial_state
        self.frames, self.reset_takes_step = frames, reset_takes_step
        self.ended = [False] * num_envs  # the env's last step ended its episode
        self.rounds: collections.deque = collections.deque()
        self.shares = [range(first, num_envs, threads) for first in range(threads)]

    def record(self, actions: np.ndarray, ends: np.ndarray) -> None:
        """A round of the env's play: ``actions`` (steps, num_envs, width) and which steps ended an episode."""
        decode = self.envs[0].evaluator.actions.decode
        restricted = self.envs[0].use_restricted_actions
        masks = [[decode(action, restricted, 1)[0] for action in step] for step in actions]
        self.rounds.append((masks, ends.tolist()))

    def _play(self, share: range, masks: list[list[int]], ends: list[list[bool]]) -> None:
        for step_masks, step_ends in zip(masks, ends):
            for index in share:
                em = self.envs[index].em
                if self.ended[index]:
                    em.set_state(self.start)
                    em.set_button_mask(0)
                    em.run_frames(1)
                if not (self.ended[index] and self.reset_takes_step):
                    em.set_button_mask(step_masks[index])
                    em.run_frames(self.frames)
                self.ended[index] = step_ends[index]

    def run(self, _actions: np.ndarray | None = None) -> float:
        """Replays the oldest round recorded; env steps per second."""
        masks, ends = self.rounds.popleft()
        threads = [threading.Thread(target=self._play, args=(share, masks, ends)) for share in self.shares[1:]]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        self._play(self.shares[0], masks, ends)
        for thread in threads:
            thread.join()
        return len(self.envs) * len(masks) / (time.perf_counter() - start)

    def close(self) -> None:
        for env in self.envs:
            env.close()


def vector_stepping(env, twins: BareTwins | None = None) -> Callable[[np.ndarray], float]:
    """A vector env, reset, as a run: steps it through ``actions`` (steps, envs, width) and returns env steps per
    second; with ``twins``, its play is recorded for them."""
    env.reset(seed=0)

    def run(actions: np.ndarray) -> float:
        ends = np.zeros(actions.shape[:2], dtype=np.bool_)
        start = time.perf_counter()
        for step, action in enumerate(actions):
            _, _, terminated, truncated, _ = env.step(action)
            ends[step] = terminated | truncated
        elapsed = time.perf_counter() - start
        if twins is not None:
            twins.record(actions, ends)
        return actions.shape[0] * actions.shape[1] / elapsed
    return run


def timed(env, actions: np.ndarray) -> float:
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    return len(actions) / (time.perf_counter() - start)


def single(rounds: int, chunk: int) -> None:
    envs = {"stable-retro": stable_retro_env(), "emucore": emucore_env(), "bare": emucore_env()}
    envs["bare"] = BareCore(envs["bare"])
    for env in envs.values():
        env.reset(seed=0)
    rng = np.random.default_rng(0)
    rates: dict[str, list[float]] = {name: [] for name in envs}
    order = list(envs.items())
    buttons = envs["emucore"].action_space.n
    for round_index in range(rounds):
        actions = rng.integers(0, 2, (chunk, buttons), dtype=np.int8)
        for name, env in order if round_index % 2 == 0 else order[::-1]:
            rates[name].append(timed(env, actions))
    sr, us, bare = (statistics.median(rates[name]) for name in ("stable-retro", "emucore", "bare"))
    print(f"{GAME['game']} ({GAME['scenario'] or 'its scenario'}): env.step() steps/s, median of {rounds} x {chunk}: "
          f"stable-retro {sr:.0f}, emucore {us:.0f}, "
          f"bare Emulator.step() {bare:.0f}; emucore/stable-retro {us / sr:.3f}, emucore/bare {us / bare:.3f}")
    for env in envs.values():
        env.close()


def vector(num_envs: int, steps: int) -> None:
    import gymnasium

    import emucore
    from emucore.env import RetroVectorEnv

    results = {}
    async_env = gymnasium.vector.AsyncVectorEnv([stable_retro_env] * num_envs)
    ours = RetroVectorEnv("Airstriker-Genesis-v0", num_envs, state="Level1", inttype=emucore.data.Integrations.ALL)
    try:
        for name, env in (("stable-retro AsyncVectorEnv", async_env), ("emucore RetroVectorEnv", ours)):
            env.reset(seed=0)
            rng = np.random.default_rng(1)
            start = time.perf_counter()
            for _ in range(steps):
                env.step(rng.integers(0, 2, (num_envs, 12), dtype=np.int8))
            results[name] = num_envs * steps / (time.perf_counter() - start)
            print(f"{name}: {results[name]:.0f} steps/s aggregate ({num_envs} envs)")
    finally:
        async_env.close()
        ours.close()
    values = list(results.values())
    print(f"vector ratio {values[1] / values[0]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--chunk", type=int, default=300)
    parser.add_argument("--vector-envs", type=int, default=8)
    parser.add_argument("--vector-steps", type=int, default=300)
    parser.add_argument("--no-vector", action="store_true", help="only the single-env runs")
    parser.add_argument("--game", default=GAME["game"])
    parser.add_argument("--state", default=GAME["state"], help="a state name, or NONE (power on)")
    parser.add_argument("--scenario", default=None, help="a scenario .json path")
    args = parser.parse_args()
    GAME.update(game=args.game, state=args.state,
                scenario=str(Path(args.scenario).resolve()) if args.scenario else None)
    single(args.rounds, args.chunk)
    if not args.no_vector:
        vector(args.vector_envs, args.vector_steps)


if __name__ == "__main__":
    main()
