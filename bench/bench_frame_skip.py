"""Frame skipping with gray 84x84 observations: env.step() against its limit and against stable-retro.

Airstriker-Genesis-v0 from Level1, random FILTERED MultiBinary actions, frame skip 4:
- the limit: our bare ``Emulator.step()`` called k times per action (the same core frames, nothing else);
- ours: ``emucore.make(..., frame_skip=4, grayscale=True, obs_size=(84, 84))``;
- stable-retro under Stable-Baselines3's ``MaxAndSkipEnv(skip=4)`` and ``WarpFrame(84, 84)``.
They take turns in chunks within one run, the order reversed every round; medians are printed.
``--vector`` also runs 8 envs: our RetroVectorEnv on 1 and 2 threads, against the limit (threads x the
single-env rate of k bare frames), against 8 bare emulators stepping k frames an action on 2 threads
(what 8 cores' caches and the two CPUs allow), and against Gymnasium's AsyncVectorEnv of 8 wrapped
stable-retro envs.

    python bench/bench_frame_skip.py [--rounds 10] [--chunk 100] [--skip 4] [--vector]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

import numpy as np
from bench_env import BareCore, timed  # this folder's scripts run with it on sys.path

GAME, STATE = "Airstriker-Genesis-v0", "Level1"


def theirs(skip: int):
    import stable_retro
    from stable_baselines3.common.atari_wrappers import MaxAndSkipEnv, WarpFrame

    env = stable_retro.make(GAME, state=STATE, render_mode=None)
    return WarpFrame(MaxAndSkipEnv(env, skip=skip), 84, 84)


def ours(skip: int, **kwargs):
    import emucore

    return emucore.make(GAME, state=STATE, inttype=emucore.data.Integrations.ALL, frame_skip=skip,
                        grayscale=True, obs_size=(84, 84), **kwargs)


def single(rounds: int, chunk: int, skip: int) -> float:
    envs = {"limit": BareCore(ours(1), skip), "emucore": ours(skip), "stable-retro+SB3": theirs(skip)}
    for env in envs.values():
        env.reset(seed=0)
    rng = np.random.default_rng(0)
    rates: dict[str, list[float]] = {name: [] for name in envs}
    order = list(envs.items())
    for round_index in range(rounds):
        actions = rng.integers(0, 2, (chunk, 12), dtype=np.int8)
        for name, env in order if round_index % 2 == 0 else order[::-1]:
            rates[name].append(timed(env, actions))
    limit, us, sr = (statistics.median(rates[name]) for name in envs)
    print(f"frame skip {skip}, gray 84x84, steps/s, median of {rounds} x {chunk}: limit ({skip} bare frames) "
          f"{limit:.0f}, emucore {us:.0f}, stable-retro+SB3 {sr:.0f}; emucore/limit {us / limit:.3f}, "
          f"emucore/stable-retro {us / sr:.3f}, limit/stable-retro {limit / sr:.3f}")
    for env in envs.values():
        env.close()
    return limit


def bare_threads(num_envs: int, steps: int, skip: int, threads: int) -> float:
    """Steps/s of ``num_envs`` bare emulators, k frames an action, split over ``threads`` threads."""
    bares = [BareCore(ours(1), skip) for _ in range(num_envs)]
    actions = np.random.default_rng(2).integers(0, 2, (steps, 12), dtype=np.int8)

    def work(group: list[BareCore]) -> None:
        for action in actions:
            for bare in group:
                bare.step(action)

    workers = [threading.Thread(target=work, args=(bares[i::threads],)) for i in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    rate = num_envs * steps / (time.perf_counter() - start)
    for bare in bares:
        bare.close()
    return rate


def vector(num_envs: int, steps: int, skip: int, limit: float) -> None:
    import gymnasium

    import emucore
    from emucore.env import RetroVectorEnv

    rates = {}
    async_env = gymnasium.vector.AsyncVectorEnv([lambda: theirs(skip)] * num_envs)
    try:
        runs = [("AsyncVectorEnv stable-retro+SB3", lambda: async_env)]
        for threads in (1, 2):
            runs.append((f"RetroVectorEnv {threads} thread(s)", lambda t=threads: RetroVectorEnv(
                GAME, num_envs, num_threads=t, state=STATE, frame_skip=skip, grayscale=True, obs_size=(84, 84),
                inttype=emucore.data.Integrations.ALL)))
        for name, make in runs:
            env = make()
            env.reset(seed=0)
            rng = np.random.default_rng(1)
            start = time.perf_counter()
            for _ in range(steps):
                env.step(rng.integers(0, 2, (num_envs, 12), dtype=np.int8))
            rates[name] = num_envs * steps / (time.perf_counter() - start)
            if env is not async_env:
                env.close()
            print(f"{name}: {rates[name]:.0f} steps/s aggregate ({num_envs} envs)")
    finally:
        async_env.close()
    bare = bare_threads(num_envs, steps, skip, 2)
    print(f"{num_envs} bare emulators, {skip} frames an action, on 2 threads: {bare:.0f} steps/s aggregate")
    one, two = rates["RetroVectorEnv 1 thread(s)"], rates["RetroVectorEnv 2 thread(s)"]
    print(f"2 threads / limit (2 x {limit:.0f}) {two / (2 * limit):.3f}; 2 threads / {num_envs} bare emulators on "
          f"2 threads {two / bare:.3f}; 1 -> 2 threads {two / one:.3f}x; "
          f"2 threads / AsyncVectorEnv {two / rates['AsyncVectorEnv stable-retro+SB3']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--skip", type=int, default=4)
    parser.add_argument("--vector", action="store_true")
    parser.add_argument("--vector-envs", type=int, default=8)
    parser.add_argument("--vector-steps", type=int, default=100)
    args = parser.parse_args()
    limit = single(args.rounds, args.chunk, args.skip)
    if args.vector:
        vector(args.vector_envs, args.vector_steps, args.skip, limit)


if __name__ == "__main__":
    main()
