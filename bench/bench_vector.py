"""RetroVectorEnv's scaling: steps/s for N envs against one env's limit and stable-retro's AsyncVectorEnv, and
the GIL-held time per env step, with the batch step in C and with the envs stepped in Python (``native=False``).

Airstriker-Genesis-v0 from Level1 (``--game``/``--state`` pick another game; ``--atari Breakout`` a stable-retro
Atari 2600 integration with ale-py's ROM, both from their wheels), frame skip 4, gray 84x84, random
FILTERED MultiBinary actions, for N = 1, 2, 4, 8, 16 envs (``--envs``), threads = min(N, CPUs):
- the issue's limit: one bare emulator stepping 4 frames per action (``Emulator.step()``, nothing else), times the
  threads;
- the twins: N bare emulators replaying the C vector env's play (each env's buttons as the env decodes them, for 4
  frames a step in one call into the core, and its reset where the vector env reset it), each of the threads
  stepping its share through a whole round with no observation, no scenario and no synchronisation: what the cores
  and caches allow for the same game content (one bare emulator alone stays in cache, and its game, never reset,
  is not the envs');
- RetroVectorEnv (the batch step in C), and RetroVectorEnv(native=False) (each env stepped in Python on a thread);
- Gymnasium's AsyncVectorEnv of N stable-retro processes under SB3's MaxAndSkipEnv(4) + WarpFrame(84, 84).
They take turns in rounds, the order reversed every round; medians are printed.

The GIL-held time: with one stepping thread (num_threads=1), a step's wall time less the time inside the calls
into C that release the GIL, per env step. On many cores that share bounds the scaling: N threads can run at
most 1 / share as fast as one.

    python bench/bench_vector.py [--envs 1 2 4 8 16] [--rounds 3] [--steps 40] [--no-stable-retro] [--atari GAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_env import BareCore, BareTwins, timed, vector_stepping  # this folder's scripts run with it on sys.path

GAME = {"game": "Airstriker-Genesis-v0", "state": "Level1"}
SKIP = 4
ATARI: dict[str, str] = {}  # --atari: the scratch folder holding the stable-retro integration with ale-py's ROM
BUTTONS = [12]  # the action width (the game's MultiBinary space)


def retro_vector(num_envs: int, threads: int, native: bool):
    import emucore
    from emucore.env import RetroVectorEnv

    return RetroVectorEnv(GAME["game"], num_envs, num_threads=threads, native=native, state=GAME["state"],
                          frame_skip=SKIP, grayscale=True, obs_size=(84, 84), inttype=emucore.data.Integrations.ALL)


def stable_retro_wrapped():
    import stable_retro
    from stable_baselines3.common.atari_wrappers import MaxAndSkipEnv, WarpFrame

    if ATARI:
        stable_retro.data.Integrations.add_custom_path(ATARI["scratch"])
    env = stable_retro.make(ATARI.get("name", GAME["game"]), state=GAME["state"], render_mode=None,
                            inttype=stable_retro.data.Integrations.ALL)
    return WarpFrame(MaxAndSkipEnv(env, skip=SKIP), 84, 84)


def bare_env():
    import emucore

    return emucore.make(GAME["game"], state=GAME["state"], inttype=emucore.data.Integrations.ALL)


def bare_core() -> BareCore:
    """One bare emulator, SKIP frames an action: the limit of one env."""
    return BareCore(bare_env(), SKIP)


def scaling(envs: list[int], rounds: int, steps: int, with_stable_retro: bool) -> None:
    import gymnasium

    cpus = os.cpu_count() or 1
    print(f"| envs | threads | limit (threads x one env) | twins | RetroVectorEnv (C) | RetroVectorEnv (Python) "
          f"| {'AsyncVectorEnv stable-retro+SB3 | ' if with_stable_retro else ''}C / limit | C / twins | "
          f"C / one env C | C / Python {'| C / stable-retro ' if with_stable_retro else ''}|")
    print("|---" * (12 if with_stable_retro else 10) + "|")
    one_env = None
    for num_envs in envs:
        threads = min(num_envs, cpus)
        made = {"C": retro_vector(num_envs, threads, True), "Python": retro_vector(num_envs, threads, False)}
        if with_stable_retro:
            made["stable-retro"] = gymnasium.vector.AsyncVectorEnv([stable_retro_wrapped] * num_envs)
        twins = BareTwins(bare_env, num_envs, SKIP, threads)
        runs = {name: vector_stepping(env, twins if name == "C" else None) for name, env in made.items()}
        bare = bare_core()
        runs["limit"] = lambda actions, bare=bare: timed(bare, actions[:, 0])  # one env's, in the same rounds
        runs["twins"] = twins.run
        rates: dict[str, list[float]] = {name: [] for name in runs}
        rng = np.random.default_rng(num_envs)
        order = list(runs.items())
        try:
            # the twins replay a round behind
            runs["C"](rng.integers(0, 2, (steps, num_envs, BUTTONS[0]), dtype=np.int8))
            for round_index in range(rounds):
                actions = rng.integers(0, 2, (steps, num_envs, BUTTONS[0]), dtype=np.int8)
                for name, run in order if round_index % 2 == 0 else order[::-1]:
                    rates[name].append(run(actions))
        finally:
            for env in made.values():
                env.close()
            bare.close()
            twins.close()
        limit, twin_rate = statistics.median(rates["limit"]), statistics.median(rates["twins"])
        c, python = statistics.median(rates["C"]), statistics.median(rates["Python"])
        one_env = one_env or (c if num_envs == 1 else None)
        ceiling = threads * limit
        row = f"| {num_envs} | {threads} | {ceiling:.0f} | {twin_rate:.0f} | {c:.0f} | {python:.0f} | "
        theirs = statistics.median(rates["stable-retro"]) if with_stable_retro else None
        if theirs is not None:
            row += f"{theirs:.0f} | "
        row += f"{c / ceiling:.3f} | {c / twin_rate:.3f} | "
        row += f"{c / one_env:.2f}x | {c / python:.2f}x |" if one_env else f"- | {c / python:.2f}x |"
        if theirs is not None:
            row += f" {c / theirs:.2f}x |"
        print(row, flush=True)


def gil_held(num_envs: int, steps: int, rounds: int = 5) -> None:
    """The time a step holds the GIL, per env step: one stepping thread (num_threads=1), its wall time less the
    time inside the calls into C that release the GIL (the batch step's send and recv; each call into a core,
    whose few Python lines around the C call count as released: the Python path's figure is a floor)."""
    from emucore.libretro.core_session import CoreSession
    from emucore.libretro.native_batch import NativeBatch

    released = [0.0]

    def timing(method):
        def timed_call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                released[0] += time.perf_counter() - start
        return timed_call

    originals = {(CoreSession, "_call"): CoreSession._call, (NativeBatch, "send"): NativeBatch.send,
                 (NativeBatch, "recv"): NativeBatch.recv}
    print(f"\nGIL held by one stepping thread ({num_envs} envs, num_threads=1), median of {rounds} rounds:")
    print("| step | env steps/s | GIL-held share of the step | GIL-held time per env step |")
    print("|---|---|---|---|")
    rng = np.random.default_rng(7)
    for name, native in (("C (batch step)", True), ("Python (native=False)", False)):
        env = retro_vector(num_envs, 1, native)
        env.reset(seed=0)
        shares, per_step, rates = [], [], []
        for (owner, attribute), method in originals.items():
            setattr(owner, attribute, timing(method))
        try:
            for _ in range(rounds):
                actions = rng.integers(0, 2, (steps, num_envs, BUTTONS[0]), dtype=np.int8)
                released[0] = 0.0
                start = time.perf_counter()
                for action in actions:
                    env.step(action)
                wall = time.perf_counter() - start
                held = max(0.0, wall - released[0])
                shares.append(held / wall)
                per_step.append(held / (steps * num_envs))
                rates.append(steps * num_envs / wall)
        finally:
            for (owner, attribute), method in originals.items():
                setattr(owner, attribute, method)
            env.close()
        print(f"| {name} | {statistics.median(rates):.0f} | {statistics.median(shares):.1%} "
              f"| {statistics.median(per_step) * 1e6:.1f} us |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--game", default=GAME["game"])
    parser.add_argument("--state", default=GAME["state"])
    parser.add_argument("--no-stable-retro", action="store_true")
    parser.add_argument("--gil-envs", type=int, default=8)
    parser.add_argument("--atari", metavar="GAME", help="a stable-retro Atari game with ale-py's ROM, e.g. Breakout")
    args = parser.parse_args()
    GAME.update(game=args.game, state=args.state)
    with tempfile.TemporaryDirectory(prefix="emucore-bench-") as scratch:
        if args.atari:
            from atari_games import game_folder

            folder = game_folder(args.atari, Path(scratch))
            if folder is None:
                raise SystemExit(f"stable-retro's {args.atari}-Atari2600-v0 or ale-py's ROM for it is not installed")
            ATARI.update(scratch=scratch, name=folder.name)
            GAME.update(game=str(folder), state="Start")
        run(args)


def run(args: argparse.Namespace) -> None:
    probe = bare_core()
    BUTTONS[0] = probe.env.action_space.shape[0]
    probe.close()
    print(f"{GAME['game']} {GAME['state']}, frame skip {SKIP}, gray 84x84, {os.cpu_count()} CPUs; medians of "
          f"{args.rounds} rounds of {args.steps} steps; the limit is one bare emulator's rate in the same rounds\n")
    scaling(args.envs, args.rounds, args.steps, not args.no_stable_retro)
    gil_held(args.gil_envs, 20)


if __name__ == "__main__":
    main()
