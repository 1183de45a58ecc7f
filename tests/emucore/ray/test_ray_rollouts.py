"""Rollouts on a real two-node Ray cluster are the episodes a local run plays; the integration travels."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from emucore import data as retro_data
from emucore.paths import integrations_dir
from emucore.ray import run_on_ray
from emucore.rollout import Rollout, run_local
from emucore.rollout.agents import BruteAgent, RandomAgent
from tests.conftest import ROOT

pytestmark = pytest.mark.ray
ALL = retro_data.Integrations.ALL


def rollout(game="StudioDemo-Nes", agent=None, **kwargs) -> Rollout:
    kwargs.setdefault("make_kwargs", {"inttype": ALL})
    return Rollout(game, agent or RandomAgent(), **{"episodes": 6, "seed": 11, "max_steps": 240, **kwargs})


def same_episodes(here, there) -> None:
    assert [r.index for r in there] == list(range(len(here)))
    for a, b in zip(here, there):
        assert (a.total, a.length, a.done_reason, a.terminated) == (b.total, b.length, b.done_reason, b.terminated)
        assert np.array_equal(a.rewards, b.rewards) and np.array_equal(a.masks, b.masks)


@pytest.mark.parametrize("game", ["StudioDemo-Nes", "StudioDemo-Genesis"])
def test_rollout_on_ray_equals_the_local_one(ray_driver, game):
    here = list(run_local(rollout(game)))
    there = list(run_on_ray(rollout(game), None))
    same_episodes(here, there)
    assert len({r.total for r in here}) > 1  # seeded per episode: the episodes differ from each other
    assert len({r.node for r in there}) == 2  # both nodes played


def test_brute_rounds_on_ray_equal_the_local_ones(ray_driver):
    here_agent, there_agent = BruteAgent(round_size=3), BruteAgent(round_size=3)
    here = list(run_local(rollout(agent=here_agent, episodes=7)))
    there = list(run_on_ray(rollout(agent=there_agent, episodes=7), None))
    same_episodes(here, there)
    assert here_agent.best_total == there_agent.best_total == max(r.total for r in here)
    assert np.array_equal(here_agent.best, there_agent.best)


def test_the_cli_prints_the_same_lines_with_and_without_ray(ray_cluster):
    args = [sys.executable, "-m", "emucore.cli", "rollout", "StudioDemo-Genesis", "--episodes", "4",
            "--seed", "5", "--max-steps", "200"]
    lines = []
    for extra in ([], ["--ray", ray_cluster.address]):
        done = subprocess.run(args + extra, capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        lines.append([json.loads(line) for line in done.stdout.splitlines()])
    here, there = lines
    assert [line["episode"] for line in there] == [0, 1, 2, 3]
    assert set(here[0]) == {"episode", "return", "length", "done", "node"}
    strip = [[{k: v for k, v in line.items() if k != "node"} for line in run] for run in lines]
    assert strip[0] == strip[1]
    assert len({line["node"] for line in there}) == 2


def test_a_game_no_worker_has_travels_with_the_rollout(ray_driver, ray_cluster, tmp_path):
    """The game exists only in a folder of this process, given by path, and its state by path too:
    the nodes unpack the package into their own caches and play it."""
    folder = tmp_path / "Travelling-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    state = tmp_path / "elsewhere.state"
    shutil.move(folder / "Start.state", state)
    here = list(run_local(rollout(str(folder), state=str(state), make_kwargs={})))
    there = list(run_on_ray(rollout(str(folder), state=str(state), make_kwargs={}), None))
    same_episodes(here, there)
    for cache in ray_cluster.caches:
        (unpacked,) = cache.glob("*/Travelling-Nes")
        assert (unpacked / "rom.nes").read_bytes() == (folder / "rom.nes").read_bytes()
