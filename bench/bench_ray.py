"""Ray scale-out: rollout throughput here, on one node and on two; one PPO iteration here and on two nodes.

Every figure comes from one run on this machine, side by side: the same rollout (``--game``, random
agent, ``--episodes`` x ``--max-steps``) played by ``run_local`` in this process, then by
``run_on_ray`` on a real cluster of one node (1 CPU) and of two nodes (1 CPU each), started here with
``ray start`` the way the tests start it. The PPO iteration (``--ppo-game``, RAM observations, 2 env runners,
``--batch`` steps) runs on a Ray started in this process with 2 CPUs ("here") and on the two-node
cluster; each is the median of ``--iterations`` after one warm-up iteration.

    python bench/bench_ray.py [--game StudioDemo-Genesis] [--episodes 24] [--max-steps 1000]
                              [--ppo-game StudioDemo-Nes] [--batch 2000] [--no-ppo]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import emucore  # noqa: E402
from emucore.ray import env_config, env_creator, run_on_ray  # noqa: E402
from emucore.rollout import Rollout, run_local  # noqa: E402
from emucore.rollout.agents import RandomAgent  # noqa: E402
from tests.emucore.ray.local_cluster import LocalCluster  # noqa: E402


def rollout(args) -> Rollout:
    return Rollout(args.game, RandomAgent(), episodes=args.episodes, seed=1, max_steps=args.max_steps,
                   make_kwargs={"inttype": emucore.data.Integrations.ALL})


def steps_per_second(results_of, args) -> tuple[float, list]:
    started = time.perf_counter()
    results = list(results_of(rollout(args)))
    return sum(r.length for r in results) / (time.perf_counter() - started), results


def ppo_iteration_seconds(args) -> float:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    register_env("emucore-bench", env_creator)
    config = (
        PPOConfig()
        .environment("emucore-bench", env_config=env_config(
            args.ppo_game, inttype=emucore.data.Integrations.ALL, use_restricted_actions=emucore.Actions.DISCRETE,
            obs_type=emucore.Observations.RAM))
        .env_runners(num_env_runners=2, num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .training(train_batch_size=args.batch, minibatch_size=128, num_epochs=2)
        .resources(num_cpus_for_main_process=0)
    )
    algo = config.build_algo()
    try:
        algo.train()  # warm-up: the runners' first env, torch's first graph
        times = []
        for _ in range(args.iterations):
            started = time.perf_counter()
            algo.train()
            times.append(time.perf_counter() - started)
    finally:
        algo.stop()
    return statistics.median(times)


def on_cluster(workers: int, work):
    import ray

    cluster = LocalCluster(workers=workers).start()
    try:
        ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
        return work()
    finally:
        ray.shutdown()
        cluster.stop()


def main() -> None:
    os.environ.update(LocalCluster.ENV)  # before Ray is imported: every Ray of this run is set up alike
    import ray

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="StudioDemo-Genesis")
    parser.add_argument("--episodes", type=int, default=24)
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--ppo-game", default="StudioDemo-Nes", help="PPO's game (2 KiB of RAM: a small network)")
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--no-ppo", action="store_true")
    args = parser.parse_args()

    local, expected = steps_per_second(run_local, args)
    one, got_one = on_cluster(0, lambda: steps_per_second(lambda r: run_on_ray(r, None), args))
    two, got_two = on_cluster(1, lambda: steps_per_second(lambda r: run_on_ray(r, None), args))
    same = [r.total for r in expected] == [r.total for r in got_one] == [r.total for r in got_two]
    print(f"rollout {args.game}, {args.episodes} x {args.max_steps} steps, random agent (same episodes: {same})")
    print(f"  here (one process)  {local:8.0f} steps/s")
    print(f"  Ray, 1 node         {one:8.0f} steps/s  {one / local:.2f}x here")
    print(f"  Ray, 2 nodes        {two:8.0f} steps/s  {two / local:.2f}x here, {two / one:.2f}x one node")
    if args.no_ppo:
        return
    ray.init(num_cpus=2, logging_level=logging.WARNING, log_to_driver=False, include_dashboard=False)
    try:
        here = ppo_iteration_seconds(args)
    finally:
        ray.shutdown()
    cluster = on_cluster(1, lambda: ppo_iteration_seconds(args))
    print(f"PPO iteration, {args.ppo_game}, {args.batch} steps, 2 env runners, RAM observations "
          f"(median of {args.iterations})")
    print(f"  here (Ray in this process, 2 CPUs)  {here:6.2f} s")
    print(f"  two-node cluster (1 CPU each)       {cluster:6.2f} s  {cluster / here:.2f}x here")


if __name__ == "__main__":
    main()
