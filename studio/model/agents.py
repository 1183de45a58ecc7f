"""Sanity runs of agents on an integration: a headless runner that reports likely scenario bugs.

>>> report = run_episodes("StudioDemo-Nes", agent=RandomAgent(0), episodes=3, max_steps=600)
>>> [(e.total, e.length, e.done_reason) for e in report.episodes], report.flags
>>> report.save_best("best.bk2")

The agents are :mod:`emucore.agents`' and the episodes :mod:`emucore.rollout`'s, played here or
on a Ray cluster (the same episodes either way). Agents see a :class:`~emucore.env.RetroEnv`
(FILTERED ``MultiBinary`` actions unless the agent asks otherwise through
:attr:`Agent.env_kwargs`). Every episode is recorded as a ``.bk2`` from the
episode's start state; only the best one (highest return) is kept, as bytes, in the report.

Flags (heuristics, see :func:`scenario_flags`):

* ``never done`` - no episode ended by the scenario's done condition (all hit ``max_steps``);
* ``done on first step`` - an episode was done after its first step (an ``all`` with no tests,
  a test that is true at the start state, ...);
* ``reward always zero`` - not one step of any episode was rewarded;
* ``reward farming`` - within some window of :data:`FARM_WINDOW` steps (or the whole episode
  when shorter, at least :data:`FARM_MIN_WINDOW`), at least :data:`FARM_REWARDED` of the steps
  were rewarded and the cumulative reward grew linearly (R^2 >= :data:`FARM_LINEAR`), while the
  game stalled: the window shows at most :data:`FARM_DISTINCT` distinct screens, or distinct
  RAM contents (both hashed per step). Reward that keeps coming while nothing on screen moves
  is what a reward on a timer or a frame counter looks like.

This module is Qt-free (import-linter checks it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import emucore
from emucore.agents import (
    Agent,
    BruteAgent,
    IdleAgent,
    MovieAgent,
    PolicyAgent,
    RandomAgent,
    RightBiasedAgent,
    algo_of,
    sb3_available,
)
from emucore.rollout import EpisodeResult, Rollout, StepEvent, run_local
from emucore.rollout.episode import STOPPED

__all__ = [
    "AGENTS", "Agent", "BruteAgent", "EpisodeResult", "Flag", "IdleAgent", "MovieAgent", "PolicyAgent",
    "RandomAgent", "RightBiasedAgent", "RunReport", "StepEvent", "algo_of", "make_agent", "run_episodes",
    "sb3_available", "scenario_flags",
]

# ---- the report ----


@dataclass
class Flag:
    name: str  # "never done", "done on first step", "reward always zero", "reward farming"
    detail: str


@dataclass
class RunReport:
    game: str
    state: str | None
    scenario: str | None
    agent: str
    buttons: list[str]
    episodes: list[EpisodeResult] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    best_index: int | None = None
    best_movie: bytes | None = None  # the best episode's .bk2
    stopped: bool = False

    @property
    def returns(self) -> list[float]:
        return [e.total for e in self.episodes]

    @property
    def lengths(self) -> list[int]:
        return [e.length for e in self.episodes]

    @property
    def flag_names(self) -> list[str]:
        return [f.name for f in self.flags]

    def save_best(self, path: str | Path) -> Path:
        """Writes the best episode's ``.bk2`` (replay it with ``emucore.movie.replay``)."""
        if self.best_movie is None:
            raise ValueError("no episode was recorded")
        path = Path(path)
        path.write_bytes(self.best_movie)
        return path


# ---- flags ----

FARM_WINDOW = 300
FARM_MIN_WINDOW = 30
FARM_REWARDED = 0.8
FARM_DISTINCT = 0.1
FARM_LINEAR = 0.95


def _linear_r2(values: np.ndarray) -> float:
    x = np.arange(len(values), dtype=np.float64)
    if np.ptp(values) == 0:
        return 0.0
    r = np.corrcoef(x, values)[0, 1]
    return float(r * r)


def farming_window(episode: EpisodeResult) -> tuple[int, int] | None:
    """The first ``(start, stop)`` window in which ``episode`` farms reward (see the module doc)."""
    n = episode.length
    window = min(FARM_WINDOW, n)
    if window < FARM_MIN_WINDOW:
        return None
    rewarded = episode.rewards > 0
    stride = max(1, window // 4)
    for start in range(0, n - window + 1, stride):
        stop = start + window
        if rewarded[start:stop].mean() < FARM_REWARDED:
            continue
        limit = max(2, int(FARM_DISTINCT * window))
        stalled = (
            len(np.unique(episode.screen_hashes[start:stop])) <= limit
            or len(np.unique(episode.ram_hashes[start:stop])) <= limit
        )
        if stalled and _linear_r2(np.cumsum(episode.rewards[start:stop])) >= FARM_LINEAR:
            return start, stop
    return None


def scenario_flags(episodes: list[EpisodeResult], max_steps: int) -> list[Flag]:
    """The likely scenario bugs these episodes show."""
    flags: list[Flag] = []
    if not episodes:
        return flags
    full = [e for e in episodes if e.done_reason == "max steps"]
    if full and not any(e.terminated for e in episodes):
        flags.append(Flag("never done", f"no episode was done within {max_steps} steps"))
    first = [e for e in episodes if e.terminated and e.length == 1]
    if first:
        flags.append(Flag("done on first step", f"episodes {[e.index for e in first]} were done after one step "
                          f"(episode {first[0].index}: {first[0].done_reason})"))
    if all(not np.any(e.rewards) for e in episodes):
        steps = sum(e.length for e in episodes)
        flags.append(Flag("reward always zero", f"no reward in {steps} steps"))
    for e in episodes:
        found = farming_window(e)
        if found is not None:
            start, stop = found
            flags.append(Flag(
                "reward farming",
                f"episode {e.index}: reward on {int((e.rewards[start:stop] > 0).sum())} of steps "
                f"{start + 1}-{stop} while the game stalled (screen or RAM repeating)",
            ))
            break
    return flags


# ---- the runner ----


def run_episodes(
    game: str | Path,
    *,
    state: str | None = None,
    scenario: str | None = None,
    agent: Agent,
    episodes: int = 1,
    max_steps: int = 4500,
    inttype: Any = None,
    on_step: Callable[[StepEvent], None] | None = None,
    on_episode: Callable[[EpisodeResult], None] | None = None,
    stop: threading.Event | None = None,
    ray_address: str | None = None,
) -> RunReport:
    """Plays ``episodes`` episodes of ``game`` headless with ``agent`` and reports on them.

    Args:
        game: The integration's folder (what the studio has open), or a name looked up in ``inttype``.
        state: A state name or path (None: the game's default state).
        scenario: A scenario name or ``.json`` path (None: ``scenario.json``).
        agent: The agent; its ``env_kwargs`` pick the action and observation types, and its seed
            seeds the run (episode ``i`` from ``(seed, i)``; see :mod:`emucore.agents`).
        episodes: Episodes to play.
        max_steps: Steps after which an episode is cut ("max steps").
        inttype: Integration sets searched (default: all).
        on_step: Called after every step (from the calling thread); not called on Ray.
        on_episode: Called after every episode, in episode order.
        stop: Set it to stop after the current step (the episode is kept as "stopped"); on Ray, the
            run stops after the episodes that have come back.
        ray_address: A Ray cluster's address ("auto", "host:port") to play the episodes on, spread
            over its nodes: the same episodes as here.

    Returns:
        The episodes, the flags and the best episode's movie.
    """
    inttype = emucore.data.Integrations.ALL if inttype is None else inttype
    make_kwargs: dict[str, Any] = {"inttype": inttype}
    if scenario is not None:
        make_kwargs["scenario"] = scenario
    rollout = Rollout(str(game), agent, episodes=episodes, seed=agent.seed, max_steps=max_steps,
                      state=emucore.State.DEFAULT if state is None else state, make_kwargs=make_kwargs,
                      record=True, hashes=True)
    if ray_address:
        from emucore.ray.rollouts import run_on_ray

        results = run_on_ray(rollout, ray_address, stop)
    else:
        results = run_local(rollout, on_step, stop)
    report = RunReport(emucore.data.game_name(str(game)), state, scenario, agent.name, [])
    best_movie: bytes | None = None
    for result in results:
        report.episodes.append(result)
        report.stopped = report.stopped or result.done_reason == STOPPED
        if report.best_index is None or result.total > report.episodes[report.best_index].total:
            report.best_index, best_movie = result.index, result.movie
        result.movie = None
        if on_episode is not None:
            on_episode(result)
    report.stopped = report.stopped or (stop is not None and stop.is_set())
    report.best_movie = best_movie
    report.buttons = _buttons_of(game, inttype)
    report.flags = scenario_flags(report.episodes, max_steps)
    return report


def _buttons_of(game: str | Path, inttype: Any) -> list[str]:
    """The names of the game's buttons (its system's), "" for unused ones."""
    from emucore.data import get_romfile_path
    from emucore.systems import system_for_path

    return [b or "" for b in system_for_path(get_romfile_path(str(game), inttype)).buttons]


AGENTS: dict[str, type[Agent]] = {
    "Random": RandomAgent,
    "Right-biased": RightBiasedAgent,
    "Brute": BruteAgent,
    "Idle": IdleAgent,
    "Movie (.bk2)": MovieAgent,
    "Policy (SB3 .zip)": PolicyAgent,
}
"""The agents the dialog offers, by title (Movie and Policy take a file path)."""


def make_agent(title: str, *, seed: int = 0, path: str | None = None) -> Agent:
    """An agent of :data:`AGENTS` by title; ``seed`` seeds the run (episode ``i`` from ``(seed, i)``)."""
    cls = AGENTS[title]
    if cls in (MovieAgent, PolicyAgent):
        if not path:
            raise ValueError(f"{title} needs a file")
        agent = cls(path)
        agent.seed = seed
        return agent
    return cls(seed)
