"""Frame skipping with gray 84x84 observations: env.step() against its limit and against stable-retro.

Airstriker-Genesis-v0 from Level1, random FILTERED MultiBinary actions, frame skip 4:
- the limit: the env's twin, a bare emulator replaying its play (its buttons for k frames a step in one call
  into the core, its resets; bench_env.BareTwins), one recorded chunk behind it: nothing but the same core frames;
- ours: ``emucore.make(..., frame_skip=4, grayscale=True, obs_size=(84, 84))``;
- stable-retro under Stable-Baselines3's ``MaxAndSkipEnv(skip=4)`` and ``WarpFrame(84, 84)``.
They take turns in chunks within one run, the order reversed every round; medians are printed.
``--vector`` also runs 8 envs: our RetroVectorEnv on 1 and 2 threads, against the limit (threads x the
single env's limit), against the 2-thread vector env's 8 bare twins on 2 threads (what 8 cores' caches and the
two CPUs allow), and against Gymnasium's AsyncVectorEnv of 8 wrapped stable-retro envs; and RetroVectorEnv's
asynchronous form, 2 threads receiving 4 envs at a time and sending them their next actions (EnvPool's loop: a
step's worth is 2 recv/send rounds).

All of them take turns in rounds too.

    python bench/bench_frame_skip.py [--rounds 10] [--chunk 100] [--skip 4] [--vector [--vector-rounds 8]
                                     [--vector-steps 40]] [--atari Breakout]

``--atari GAME`` runs a stable-retro Atari 2600 integration with ale-py's ROM (both from their wheels) instead.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bench_env import BareTwins, timed, vector_stepping  # this folder's scripts run with it on sys.path

GAME, STATE = "Airstriker-Genesis-v0", "Level1"
ATARI: dict[str, str] = {}  # --atari: the scratch folder holding the stable-retro integration with ale-py's ROM


def theirs(skip: int):
    import stable_retro
    from stable_baselines3.common.atari_wrappers import MaxAndSkipEnv, WarpFrame

    if ATARI:
        stable_retro.data.Integrations.add_custom_path(ATARI["scratch"])
    env = stable_retro.make(GAME, state=STATE, render_mode=None, inttype=stable_retro.data.Integrations.ALL)
    return WarpFrame(MaxAndSkipEnv(env, skip=skip), 84, 84)


def ours(skip: int, **kwargs):
    import emucore

    game = ATARI.get("folder", GAME)
    return emucore.make(game, state=STATE, inttype=emucore.data.Integrations.ALL, frame_skip=skip,
                        grayscale=True, obs_size=(84, 84), **kwargs)


def single(rounds: int, chunk: int, skip: int) -> float:
    """Our env against its twin (a bare emulator replaying its play: the limit) and against stable-retro; the
    limit's rate, for the vector run."""
    envs = {"emucore": ours(skip), "stable-retro+SB3": theirs(skip)}
    for env in envs.values():
        env.reset(seed=0)
    twin = BareTwins(lambda: ours(1), 1, skip, reset_takes_step=False)
    rng = np.random.default_rng(0)
    runs = {"limit": twin.run, "emucore": recording(envs["emucore"], twin),
            "stable-retro+SB3": lambda actions: timed(envs["stable-retro+SB3"], actions)}
    rates: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs.items())
    width = envs["emucore"].action_space.n
    runs["emucore"](rng.integers(0, 2, (chunk, width), dtype=np.int8))  # the twin replays a round behind
    for round_index in range(rounds):
        actions = rng.integers(0, 2, (chunk, width), dtype=np.int8)
        for name, run in order if round_index % 2 == 0 else order[::-1]:
            rates[name].append(run(actions))
    limit, us, sr = (statistics.median(rates[name]) for name in runs)
    print(f"frame skip {skip}, gray 84x84, steps/s, median of {rounds} x {chunk}: limit ({skip} bare frames, the "
          f"env's play) {limit:.0f}, emucore {us:.0f}, stable-retro+SB3 {sr:.0f}; emucore/limit {us / limit:.3f}, "
          f"emucore/stable-retro {us / sr:.3f}, limit/stable-retro {limit / sr:.3f}")
    for env in envs.values():
        env.close()
    twin.close()
    return limit


def recording(env, twin: BareTwins):
    """``timed``'s loop over a single env (reset at an episode's end), its play recorded for its twin."""
    def run(actions: np.ndarray) -> float:
        ends = np.zeros((len(actions), 1), dtype=np.bool_)
        start = time.perf_counter()
        for step, action in enumerate(actions):
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                ends[step] = True
                env.reset()
        elapsed = time.perf_counter() - start
        twin.record(actions[:, None], ends)
        return len(actions) / elapsed
    return run


def vector(num_envs: int, rounds: int, steps: int, skip: int, limit: float) -> None:
    import gymnasium

    import emucore
    from emucore.env import RetroVectorEnv

    def retro_vector(threads: int, batch_size: int | None = None):
        return RetroVectorEnv(ATARI.get("folder", GAME), num_envs, num_threads=threads, state=STATE, frame_skip=skip,
                              grayscale=True, obs_size=(84, 84), inttype=emucore.data.Integrations.ALL,
                              batch_size=batch_size)

    def receiving(env):
        """EnvPool's loop: recv the first batch_size envs to finish, send their next actions. A run starts
        and ends with no env stepping, so that none steps during the other runs."""
        env.async_reset(seed=0)
        for _ in range(num_envs // env.batch_size):
            env.recv()

        def run(actions: np.ndarray) -> None:
            flat = actions.reshape(-1, actions.shape[-1])
            env.send(flat[:num_envs], env_id=np.arange(num_envs))
            for start in range(num_envs, len(flat), env.batch_size):
                env.recv()
                env.send(flat[start:start + env.batch_size])
            for _ in range(num_envs // env.batch_size):
                env.recv()
        return run

    async_name = f"RetroVectorEnv 2 threads, send/recv {num_envs // 2} at a time"
    envs = {"AsyncVectorEnv stable-retro+SB3": gymnasium.vector.AsyncVectorEnv([lambda: theirs(skip)] * num_envs),
            "RetroVectorEnv 1 thread": retro_vector(1), "RetroVectorEnv 2 threads": retro_vector(2),
            async_name: retro_vector(2, num_envs // 2)}
    bare = BareTwins(lambda: ours(1), num_envs, skip, 2)
    recorded = "RetroVectorEnv 2 threads"
    runs = {name: vector_stepping(env, bare if name == recorded else None) for name, env in envs.items()
            if name != async_name}
    runs[async_name] = receiving(envs[async_name])
    runs[f"{num_envs} bare twins on 2 threads"] = bare.run
    rates: dict[str, list[float]] = {name: [] for name in runs}
    rng = np.random.default_rng(1)
    order = list(runs.items())
    width = envs[recorded].single_action_space.n
    try:
        runs[recorded](rng.integers(0, 2, (steps, num_envs, width), dtype=np.int8))  # the twins replay a round behind
        for round_index in range(rounds):
            actions = rng.integers(0, 2, (steps, num_envs, width), dtype=np.int8)
            for name, run in order if round_index % 2 == 0 else order[::-1]:
                start = time.perf_counter()
                run(actions)
                rates[name].append(num_envs * steps / (time.perf_counter() - start))
    finally:
        for env in envs.values():
            env.close()
        bare.close()
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name, rate in medians.items():
        print(f"{name}: {rate:.0f} steps/s aggregate ({num_envs} envs), median of {rounds} x {steps} steps")
    one, two = medians["RetroVectorEnv 1 thread"], medians["RetroVectorEnv 2 threads"]
    print(f"2 threads / limit (2 x {limit:.0f}) {two / (2 * limit):.3f}; 2 threads / {num_envs} bare twins on "
          f"2 threads {two / medians[f'{num_envs} bare twins on 2 threads']:.3f}; 1 -> 2 threads {two / one:.3f}x; "
          f"2 threads / AsyncVectorEnv {two / medians['AsyncVectorEnv stable-retro+SB3']:.3f}")
    sent = medians[async_name]
    print(f"send/recv / limit {sent / (2 * limit):.3f}; send/recv / step {sent / two:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--skip", type=int, default=4)
    parser.add_argument("--vector", action="store_true")
    parser.add_argument("--vector-envs", type=int, default=8)
    parser.add_argument("--vector-rounds", type=int, default=8)
    parser.add_argument("--vector-steps", type=int, default=40)
    parser.add_argument("--atari", metavar="GAME", help="a stable-retro Atari game with ale-py's ROM, e.g. Breakout")
    args = parser.parse_args()
    if args.atari:
        import tempfile
        from pathlib import Path

        from atari_games import game_folder

        global GAME, STATE
        scratch = Path(tempfile.mkdtemp(prefix="emucore-bench-"))
        folder = game_folder(args.atari, scratch)
        if folder is None:
            raise SystemExit(f"stable-retro's {args.atari}-Atari2600-v0 or ale-py's ROM for it is not installed")
        ATARI.update(scratch=str(scratch), folder=str(folder))
        GAME, STATE = folder.name, "Start"
    limit = single(args.rounds, args.chunk, args.skip)
    if args.vector:
        vector(args.vector_envs, args.vector_rounds, args.vector_steps, args.skip, limit)


if __name__ == "__main__":
    main()
