"""How well the assisted-integration solvers find what integrators chose, on real games.

Atari 2600 games (ale-py's ROMs) with stable-retro's shipped integrations as ground truth:

* ``solve_value``: random play from the start state; four checkpoints where the shipped score
  variable reads four different values; the shown value given as an int and as the digits
  drawn (as wide as the shipped type holds), each without and with the play as ``history``
  (the memory after every frame). Per game: the rank of the shipped (address, type), the rank
  of the first reading equivalent to it (the same value at every frame of the play: the same
  bytes read another way, or a copy), whether an ambiguity names the shipped variable, and
  whether the first candidate is volatile in play.
* ``suggest_done``: every frame of random episodes that end where the shipped rule fires
  (``episodes=``: three training episodes, and one alone); then, on three held-out episodes,
  the first frame the suggested rule fires vs the shipped rule's.

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
from emucore.assist import solve_value, suggest_done  # noqa: E402
from emucore.search import Snapshot  # noqa: E402

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


def score_checkpoints(env, name: str, seeds: range, want: int = 4,
                      play: list[Snapshot] | None = None) -> list[tuple[bytes, int]]:
    """States where ``name`` reads ``want`` different nonzero values, spread over random play
    (which goes on until twice as many values were seen, one of them 10 or more). ``play``, if
    given, receives the memory after every frame played (the first 30,000)."""
    found: dict[int, bytes] = {}
    for seed in seeds:
        env.reset(seed=seed)
        env.action_space.seed(seed)
        for _ in range(20000):
            _, _, terminated, truncated, info = env.step(env.action_space.sample())
            if play is not None and len(play) < 30000:
                play.append(Snapshot.capture(env.unwrapped.em.memory))
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


def equivalent_rank(found, truth: tuple[int, str], play: list[Snapshot]) -> int | None:
    """1-based rank of the first candidate that reads the shipped value at every frame of play."""
    wanted = [snap.read(*truth) for snap in play]
    for rank, c in enumerate(found, 1):
        if all(snap.read(c.address, c.type) * c.scale + c.bias == w for snap, w in zip(play, wanted)):
            return rank
    return None


def evaluate_solve(games: list[str]) -> list[tuple]:
    rows, times = [], []
    forms = [(form, played) for form in ("int", "digits") for played in (False, True)]
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
        play: list[Snapshot] = []
        checkpoints = score_checkpoints(env, name, range(6), play=play)
        if not checkpoints:
            print(f"{game}: random play did not reach 4 scores", flush=True)
            env.close()
            continue
        results = []
        for form, played in forms:
            width = drawn_digits(truth[1])
            pairs = [(s, v if form == "int" else f"{v:0{width}d}") for s, v in checkpoints]
            start = time.perf_counter()
            found = solve_value(env.unwrapped.em, pairs, play if played else None)
            times.append((played, time.perf_counter() - start))
            keys = [(c.address, c.type) for c in found]
            named = any(truth in ((a.first.address, a.first.type), (a.second.address, a.second.type))
                        for a in found.ambiguities)
            results.append((keys.index(truth) + 1 if truth in keys else None, equivalent_rank(found, truth, play),
                            named, bool(found) and found[0].steady is False))
        rows.append((game, truth, results))
        cells = "  ".join(f"{form}{'+play' if played else ''} {r[0]}/{r[1]}{' amb' if r[2] else ''}"
                          f"{' VOLATILE-FIRST' if r[3] else ''}" for (form, played), r in zip(forms, results))
        print(f"{game:14s} {truth[1]:>4s}@{truth[0]:<5d} scores {sorted(v for _, v in checkpoints)}  "
              f"rank/equivalent: {cells}", flush=True)
        env.close()
    for i, (form, played) in enumerate(forms):
        top1 = sum(r[2][i][0] == 1 for r in rows)
        top3 = sum((r[2][i][1] or 99) <= 3 or r[2][i][2] for r in rows)
        volatile = sum(r[2][i][3] for r in rows)
        print(f"shown as {form}{' with play' if played else ''}: shipped first {top1}/{len(rows)}, shipped or an "
              f"equivalent in the first 3 or named in an ambiguity {top3}/{len(rows)}, volatile first {volatile}")
    for played in (False, True):
        spent = [t for p, t in times if p == played]
        if spent:
            print(f"solve_value{' with play' if played else ''}: median {1000 * statistics.median(spent):.1f} ms, "
                  f"worst {1000 * max(spent):.1f} ms")
    return rows


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
    same = total = early = 0
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
        print(f"{game:14s} shipped {json.dumps(shipped, separators=(',', ':'))}", flush=True)
        for used in (train, 1):
            start = time.perf_counter()
            try:
                suggestion = suggest_done(env.unwrapped.em, episodes=[snaps for snaps, _ in episodes[:used]],
                                          data=data if use_data else None)
            except ValueError as exc:
                print(f"{'':14s} from {used} episode(s): {exc}", flush=True)
                continue
            elapsed = time.perf_counter() - start
            variables, done = suggestion
            rule_folder = with_rule(folder, variables, done, scratch / f"rule{used}" / folder.name)
            results = [(len(snaps), first_done(emucore.make(str(rule_folder)), actions))
                       for snaps, actions in episodes[train:]]
            hits = sum(a == b for a, b in results)
            same += hits
            total += len(results)
            early += sum(b is not None and b < a for a, b in results)
            print(f"{'':14s} from {used} episode(s): {json.dumps(done, separators=(',', ':'))} "
                  f"{json.dumps(variables, separators=(',', ':'))} ({elapsed:.2f} s)\n{'':14s}   held-out first "
                  f"frame shipped/suggested: {results}; warnings: {suggestion.warnings}", flush=True)
        env.close()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"suggested done fires at the shipped frame in {same}/{total} held-out episodes, before it in {early}")


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
