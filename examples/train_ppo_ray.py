"""Train PPO with RLlib on an emucore integration, across a Ray cluster.

The integration (ROM, states, data) goes with the job: the worker nodes need emucore and Ray,
not the game. On the head node:

    ray start --head --port 6379
    # on each other machine:  ray start --address HEAD_IP:6379
    python examples/train_ppo_ray.py --address auto --game Airstriker-Genesis-v0 --obs image --iterations 20

Observations are the RAM by default, which suits the NES's 2 KiB (``--obs image`` gives 84x84
grayscale frames, better for the Genesis's 64 KiB of RAM); actions are the integration's discrete
combinations (``Actions.DISCRETE``).
"""

from __future__ import annotations

import argparse
import json
import time

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

import emucore
from emucore.ray import env_config, env_creator


def ppo_config(game: str, state: str | None, obs: str, env_runners: int, batch: int) -> PPOConfig:
    make_kwargs = {"use_restricted_actions": emucore.Actions.DISCRETE, "inttype": emucore.data.Integrations.ALL}
    if state:
        make_kwargs["state"] = state
    if obs == "ram":
        make_kwargs["obs_type"] = emucore.Observations.RAM
    else:
        make_kwargs.update(obs_size=(84, 84), grayscale=True)
    register_env("emucore", env_creator)
    return (
        PPOConfig()
        .environment("emucore", env_config=env_config(game, **make_kwargs))
        .env_runners(num_env_runners=env_runners, num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .training(train_batch_size=batch, minibatch_size=min(128, batch), num_epochs=2, lr=3e-4)
        .resources(num_cpus_for_main_process=0)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--address", default=None, help="the cluster (host:port or auto); none starts Ray here")
    parser.add_argument("--game", default="StudioDemo-Nes", help="a game name or the path of a game folder")
    parser.add_argument("--state", default=None)
    parser.add_argument("--obs", choices=["ram", "image"], default="ram")
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--batch", type=int, default=2000, help="train batch size (steps per iteration)")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--checkpoint", default=None, help="a folder to save the trained algorithm in")
    args = parser.parse_args()

    ray.init(address=args.address)
    algo = ppo_config(args.game, args.state, args.obs, args.env_runners, args.batch).build_algo()
    for iteration in range(1, args.iterations + 1):
        started = time.perf_counter()
        result = algo.train()
        runners = result.get("env_runners", {})
        print(json.dumps({
            "iteration": iteration,
            "seconds": round(time.perf_counter() - started, 2),
            "episode_return_mean": runners.get("episode_return_mean"),
            "env_steps": result.get("num_env_steps_sampled_lifetime"),
        }), flush=True)
    if args.checkpoint:
        print(algo.save(args.checkpoint))
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
