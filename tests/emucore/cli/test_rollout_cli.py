"""``emucore rollout`` here: its JSON lines, its seeds, and what it says about bad arguments."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

import emucore
from emucore.cli import main
from emucore.rollout import Rollout, run_local
from emucore.rollout.agents import BruteAgent, RandomAgent, episode_seed
from tests.conftest import ROOT

ALL = {"inttype": emucore.data.Integrations.ALL}


def lines(capsys, *args: str) -> list[dict]:
    assert main(["rollout", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_one_json_line_per_episode_in_order(capsys):
    got = lines(capsys, "StudioDemo-Nes", "--episodes", "3", "--seed", "4", "--max-steps", "1200")
    assert [line["episode"] for line in got] == [0, 1, 2]
    assert all(set(line) == {"episode", "return", "length", "done", "node"} for line in got)
    assert all(line["done"] == "lives == 0 (is 0)" and line["length"] < 1200 for line in got)
    cut = lines(capsys, "StudioDemo-Nes", "--episodes", "1", "--seed", "4", "--max-steps", "50")
    assert cut[0]["done"] is None and cut[0]["length"] == 50


def test_episodes_depend_on_the_seed_and_their_index_only(capsys):
    first = lines(capsys, "StudioDemo-Genesis", "--episodes", "4", "--seed", "2", "--max-steps", "200")
    tail = list(run_local(Rollout("StudioDemo-Genesis", RandomAgent(), episodes=4, seed=2, max_steps=200,
                                  make_kwargs=ALL)))
    assert [line["return"] for line in first] == [r.total for r in tail]
    other = lines(capsys, "StudioDemo-Genesis", "--episodes", "4", "--seed", "3", "--max-steps", "200")
    assert [line["return"] for line in other] != [line["return"] for line in first]
    assert episode_seed(2, 0) != episode_seed(2, 1) != episode_seed(3, 1)


def test_brute_learns_between_rounds_only():
    agent = BruteAgent(explore=0.0, round_size=2)
    results = list(run_local(Rollout("StudioDemo-Nes", agent, episodes=4, seed=1, max_steps=200, make_kwargs=ALL)))
    best_of_first_round = max(results[0].total, results[1].total)
    assert results[2].total == results[3].total == best_of_first_round  # replayed exactly, no exploration
    assert agent.best_total == best_of_first_round


@pytest.mark.parametrize(("args", "message"), [
    (["StudioDemo-Nes", "--agent", "greedy"], "--agent 'greedy': expected random, brute or the path"),
    (["StudioDemo-Nes", "--agent", "nowhere.zip"], "--agent nowhere.zip: no such file"),
    (["Missing-Nes"], "No romfiles found for game: Missing-Nes"),
    (["StudioDemo-Nes", "--state", "Nope"], "Nope"),
    (["StudioDemo-Nes", "--ray", "127.0.0.1:1"],
     "no Ray cluster at 127.0.0.1:1" if importlib.util.find_spec("ray") else "emucore.ray needs Ray: pip install"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, message):
    done = subprocess.run([sys.executable, "-m", "emucore.cli", "rollout", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_counts_are_checked_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["rollout", "StudioDemo-Nes", "--episodes", "-1"])
    assert exit_.value.code == 2 and "must be 0 or more, not -1" in capsys.readouterr().err
