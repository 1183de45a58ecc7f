"""How well the assisted-integration solvers find what integrators chose, on real games.

Atari 2600 games (ale-py's ROMs) with stable-retro's shipped integrations as ground truth:

* ``solve_value``: random play from the start state; four checkpoints where the shipped score
  variable reads four different values; the shown value given as an int and as the digits
  drawn (as wide as the shipped type holds). Counts how often the shipped (address, type) is
  the first candidate and among the first three.
* ``suggest_done``: alive/over examples from random episodes that end where the shipped rule
  fires (three training episodes); then, on three held-out episodes, the first frame the
  suggested rule fires vs the shipped rule's.

    python bench/eval_assisted.py [--games Breakout,Hero] [--part solve|done|both]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import emucore  # noqa: E402
from bench.atari_games import open_game  # noqa: E402
from emucore.search import Snapshot, solve_value, suggest_done  # noqa: E402

SCORE_GAMES = ("Airstriker-Genesis-v0", "AirRaid", "Amidar", "Assault", "Asterix", "BankHeist", "BeamRider",
               "Berzerk", "Centipede",
               "CrazyClimber", "DemonAttack", "Frostbite", "Gopher", "Hero", "Kaboom", "KungFuMaster",
               "MsPacman", "NameThisGame", "Phoenix", "Pooyan", "Qbert", "Riverraid", "SpaceInvaders",
               "TimePilot", "Zaxxon")


def open_any(game: str):
    """An Atari game by its short name, or any game emucore finds (``Airstriker-Genesis-v0``)."""
    if "-" not in game:
        return open_game(game)
    try:
        return emucore.make(game)
    except (FileNotFoundError, ValueError):
        return None


def open_copy(game: str, scratch: Path):
    """Like :func:`open_any`, on a copy of the integration in ``scratch``."""
    if "-" not in game:
        return open_game(game, scratch)
    try:
        source = Path(emucore.data.get_romfile_path(game)).parent
    except FileNotFoundError:
        return None
    shutil.copytree(source, scratch / game)
    return emucore.make(str(scratch / game))


def drawn_digits(type_text: str) -> int:
    width = int(type_text[-1])
    kind = type_text[-2]
    return 2 * width if kind == "d" else width if kind == "n" else len(str(256**width - 1))


def score_checkpoints(env, name: str, seeds: range, want: int = 4) -> list[tuple[bytes, int]]:
    """States where ``name`` reads ``want`` different nonzero values, spread over random play
    (which goes on until twice as many values were seen, one of them 10 or more)."""
    found: dict[int, bytes] = {}
    for seed in seeds:
        env.reset(seed=seed)
        env.action_space.seed(seed)
        for _ in range(20000):
            _, _, terminated, truncated, info = env.step(env.action_space.sample())
            value = info[name]
            if value and value not in found:
                found[value] = env.unwrapped.em.get_state()
            if terminated or truncated or len(found) >= 2 * want and max(found) >= 10:
                break
        if len(found) >= 2 * want:
            break
    values = sorted(found)
    if len(values) < want:
        return []
    picks = [values[round(i * (len(values) - 1) / (want - 1))] for i in range(want)]
    rng = np.random.default_rng(0)
    rng.shuffle(picks)
    return [(found[v], v) for v in picks]


def evaluate_solve(games: list[str]) -> None:
    rows, times = [], []
    for game in games:
        env = open_any(game)
        if env is None:
            print(f"{game}: not available", flush=True)
            continue
        data = env.unwrapped.data.variables
        name = "score" if "score" in data else None
        if name is None:
            env.close()
            continue
        truth = (data[name].address, data[name].type)
        checkpoints = score_checkpoints(env, name, range(6))
        if not checkpoints:
            print(f"{game}: random play did not reach 4 scores", flush=True)
            env.close()
            continue
        ranks = []
        for form in ("int", "digits"):
            width = drawn_digits(truth[1])
            pairs = [(s, v if form == "int" else f"{v:0{width}d}") for s, v in checkpoints]
            start = time.perf_counter()
            found = solve_value(env.unwrapped.em, pairs)
            times.append(time.perf_counter() - start)
            keys = [(c.address, c.type) for c in found]
            ranks.append(keys.index(truth) + 1 if truth in keys else None)
        rows.append((game, truth, ranks))
        print(f"{game:14s} {truth[1]:>4s}@{truth[0]:<4d} scores {sorted(v for _, v in checkpoints)}  "
              f"rank int {ranks[0]}  rank digits {ranks[1]}", flush=True)
        env.close()
    for i, form in enumerate(("int", "digits")):
        top1 = sum(r[2][i] == 1 for r in rows)
        top3 = sum((r[2][i] or 99) <= 3 for r in rows)
        print(f"shown as {form}: top 1 {top1}/{len(rows)}, top 3 {top3}/{len(rows)}")
    if times:
        print(f"solve_value: median {1000 * statistics.median(times):.1f} ms, worst {1000 * max(times):.1f} ms")


DONE_GAMES = ("Airstriker-Genesis-v0", "AirRaid", "Assault", "Asterix", "BankHeist", "Berzerk", "Breakout",
              "Frostbite", "Hero", "Kangaroo", "MsPacman", "NameThisGame", "Pooyan", "Qbert", "SpaceInvaders",
              "Riverraid", "Seaquest")


def episode(env, seed: int, limit: int = 30000) -> tuple[list[Snapshot], list]:
    """A random episode that ends where the shipped done fired: memory after each step, actions."""
    env.reset(seed=seed)
    env.action_space.seed(seed)
    snaps, actions = [], []
    for _ in range(limit):
        action = env.action_space.sample()
        _, _, terminated, truncated, _ = env.step(action)
        snaps.append(Snapshot.capture(env.unwrapped.em.memory))
        actions.append(action)
        if terminated:
            return snaps, actions
    return [], []


def first_done(env, actions: list) -> int | None:
    """The step at which ``env``'s scenario ends an episode played with ``actions`` (1-based,
    None if it does not); the env (emucore's or stable-retro's) is closed afterwards."""
    try:
        env.reset(seed=0)
        for step, action in enumerate(actions, 1):
            if env.step(action)[2]:
                return step
        return None
    finally:
        env.close()


def with_rule(folder: Path, variables: dict, done: dict, target: Path) -> Path:
    """A copy of the integration ``folder`` at ``target`` with the new variables and done rule."""
    shutil.copytree(folder, target, dirs_exist_ok=True)
    data = json.loads((target / "data.json").read_text())
    data["info"].update(variables)
    (target / "data.json").write_text(json.dumps(data, indent=2))
    scenario = json.loads((target / "scenario.json").read_text())
    scenario["done"] = done
    (target / "scenario.json").write_text(json.dumps(scenario, indent=2))
    return target


def evaluate_done(games: list[str], train: int = 3, held_out: int = 3, use_data: bool = True) -> None:
    same = total = 0
    for game in games:
        scratch = Path(tempfile.mkdtemp(prefix="emucore-eval-"))
        env = open_copy(game, scratch)
        if env is None:
            print(f"{game}: not available", flush=True)
            continue
        episodes: list[tuple[list[Snapshot], list]] = []
        seed = 0
        while len(episodes) < train + held_out and seed < 3 * (train + held_out):
            snaps, actions = episode(env, seed)
            seed += 1
            if snaps:
                episodes.append((snaps, actions))
        folder = scratch / env.unwrapped.gamename
        data = json.loads((folder / "data.json").read_text())
        shipped = json.loads((folder / "scenario.json").read_text())["done"]
        if len(episodes) < train + held_out:
            print(f"{game}: random play ended only {len(episodes)} episodes", flush=True)
            env.close()
            continue
        alive = [s for snaps, _ in episodes[:train] for s in snaps[:-1]]
        over = [snaps[-1] for snaps, _ in episodes[:train]]
        start = time.perf_counter()
        try:
            variables, done = suggest_done(env.unwrapped.em, alive, over, data=data if use_data else None)
        except ValueError as exc:
            print(f"{game}: {exc}", flush=True)
            env.close()
            continue
        elapsed = time.perf_counter() - start
        env.close()
        rule_folder = with_rule(folder, variables, done, scratch / "rule" / folder.name)
        results = []
        for snaps, actions in episodes[train:]:
            results.append((len(snaps), first_done(emucore.make(str(rule_folder)), actions)))
        hits = sum(a == b for a, b in results)
        same += hits
        total += len(results)
        print(f"{game:14s} shipped {json.dumps(shipped, separators=(',', ':'))}\n{'':14s} suggested "
              f"{json.dumps(done, separators=(',', ':'))} {json.dumps(variables, separators=(',', ':'))} "
              f"({elapsed:.2f} s, {len(alive)} alive)\n{'':14s} held-out first frame shipped/suggested: "
              f"{results}", flush=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"suggested done fires at the shipped frame in {same}/{total} held-out episodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(SCORE_GAMES))
    parser.add_argument("--part", choices=("solve", "done", "both"), default="both")
    parser.add_argument("--no-data", action="store_true", help="suggest_done without the shipped data.json")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    if args.part in ("solve", "both"):
        evaluate_solve(games)
    if args.part in ("done", "both"):
        evaluate_done([g for g in args.games.split(",") if g] if args.games != ",".join(SCORE_GAMES)
                      else list(DONE_GAMES), use_data=not args.no_data)


if __name__ == "__main__":
    main()
