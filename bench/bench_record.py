"""The per-step cost of recording a movie: env.step() with ``record=`` against without.

Random FILTERED MultiBinary actions on one of our homebrew games, the two envs stepped in turns
(chunks, the order reversed every round) in one process. Long runs include the periodic
checkpoints of the movie being recorded; the checkpoints made and their mean cost are printed.

    python bench/bench_record.py [--game StudioDemo-Nes] [--rounds 10] [--chunk 2000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="StudioDemo-Nes")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--chunk", type=int, default=2000)
    args = parser.parse_args()

    import emucore as retro

    with tempfile.TemporaryDirectory() as folder:
        envs = {
            "bare": retro.make(args.game, inttype=retro.data.Integrations.ALL),
            "record": retro.make(args.game, inttype=retro.data.Integrations.ALL, record=folder),
        }
        rng = np.random.default_rng(0)
        actions = rng.integers(0, 2, (args.chunk, envs["bare"].action_space.n), dtype=np.int8)
        times: dict[str, list[float]] = {name: [] for name in envs}
        for env in envs.values():
            env.reset()
        for round_ in range(args.rounds):
            order = list(envs) if round_ % 2 == 0 else list(reversed(envs))
            for name in order:
                env = envs[name]
                start = time.perf_counter()
                for action in actions:
                    env.step(action)
                times[name].append((time.perf_counter() - start) / args.chunk * 1e6)
        movie = envs["record"].movie
        stats = getattr(movie, "checkpoint_stats", None)
        for env in envs.values():
            env.close()
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:7s} step: median {median:7.2f} us  (min {min(values):.2f}, max {max(values):.2f})")
    cost = statistics.median(times["record"]) - statistics.median(times["bare"])
    print(f"recording costs {cost:.2f} us per step; {args.rounds * args.chunk} steps recorded")
    if stats is not None:
        print(f"checkpoints: {stats}")


if __name__ == "__main__":
    main()
