"""``emucore rollout``: play episodes of a game with an agent, here or on a Ray cluster, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from emucore.cli.format import DefaultsHelpFormatter
from emucore.enums import State
from emucore.errors import EmucoreError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emucore rollout",
        description="Play episodes of GAME with an agent and print one JSON line per episode, in episode order: "
        '{"episode", "return", "length", "done", "node"}. With the same --seed the episodes are the same '
        "with and without --ray.",
        epilog="Exit status: 0 when every episode was played; 2 on bad arguments (an unknown game, state, scenario "
        "or agent, a missing agent file, no Ray cluster at ADDRESS), said in one line on stderr.",
        formatter_class=DefaultsHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="a game name, or the path of a game folder")
    parser.add_argument("--state", help="a state name or path (default: the game's default state)")
    parser.add_argument("--scenario", help="a scenario name or .json path (default: scenario.json)")
    parser.add_argument("--agent", default="random", help="random, brute or the path of a Stable-Baselines3 .zip")
    parser.add_argument("--episodes", type=_count(0), default=1, metavar="N", help="how many episodes to play")
    parser.add_argument("--seed", type=int, default=0, metavar="K", help="the run's seed; episode i is seeded (K, i)")
    parser.add_argument("--max-steps", type=_count(1), default=4500, metavar="M", help="cut an episode after M steps")
    parser.add_argument("--brute-round", type=_count(1), default=8, metavar="R",
                        help="brute: episodes per round, each exploring from the best of the rounds before")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play on the Ray cluster at ADDRESS (host:port, or 'auto' for the one started here)")
    return parser


def _count(least: int):
    def parse(text: str) -> int:
        value = int(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, not {value}")
        return value

    parse.__name__ = "int"
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore rollout``: 0 when every episode was played, 2 on bad arguments (one line on stderr)."""
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except (EmucoreError, FileNotFoundError, ValueError, ConnectionError, ImportError) as exc:
        print(f"emucore rollout: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from emucore import data as retro_data
    from emucore.rollout.agents import cli_agent
    from emucore.rollout.local import run_local
    from emucore.rollout.plan import Rollout

    agent = cli_agent(args.agent, args.seed, args.brute_round)
    make_kwargs = {"inttype": retro_data.Integrations.ALL}
    if args.scenario:
        make_kwargs["scenario"] = args.scenario
    rollout = Rollout(args.game, agent, episodes=args.episodes, seed=args.seed, max_steps=args.max_steps,
                      state=args.state or State.DEFAULT, make_kwargs=make_kwargs)
    if args.ray:
        from emucore.ray.rollouts import run_on_ray

        episodes = run_on_ray(rollout, args.ray)
    else:
        episodes = run_local(rollout)
    with tqdm(total=args.episodes, unit="episode", file=sys.stderr, disable=None) as progress:
        for result in episodes:
            print(json.dumps(result.summary()), flush=True)
            progress.update(1)
    return 0
