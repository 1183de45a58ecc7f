"""Sanity runs of agents on an integration: a headless runner that reports likely scenario bugs.

>>> report = run_episodes("StudioDemo-Nes", agent=RandomAgent(0), episodes=3, max_steps=600)
>>> [(e.length, e.done_reason) for e in report.episodes]
[(600, 'max steps'), (600, 'max steps'), (600, 'max steps')]
>>> [flag.name for flag in report.flags]     # done never fired: a wrong done rule, or a game longer than that
['all at max steps']
>>> report.save_best("best.bk2")             # the best episode's movie
PosixPath('best.bk2')

The agents are :mod:`emucore.rollout.agents`' and the episodes :mod:`emucore.rollout`'s, played here or
on a Ray cluster (the same episodes either way). Agents see a :class:`~emucore.env.RetroEnv`
(FILTERED ``MultiBinary`` actions unless the agent asks otherwise through
:attr:`Agent.env_kwargs`). Every episode is recorded as a ``.bk2`` from the
episode's start state; only the best one (highest return) is kept, as bytes, in the report.

Flags (heuristics) are :mod:`studio.model.agents.agent_flags`': the step budget, done on the first step
or early, reward always zero, spikes, returns beyond what the score typed in Find from screen makes
plausible (:mod:`studio.model.search.plausibility`, read from the studio's workspace for the game) and
reward farming. The report also lists the checks that passed and sums the run up in one line
(:func:`~studio.model.agents.sanity_agent.run_summary`). The "Sanity" agent
(:class:`~studio.model.agents.sanity_agent.SanityAgent`), the dialog's default, plays random buttons but
START and SELECT, each choice held for several steps; when no episode of its run ended within the
step budget, the run is played again once with twice the steps, and the report says so.

This module is Qt-free (import-linter checks it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import emucore
from emucore.rollout import EpisodeResult, Rollout, StepEvent, run_local
from emucore.rollout.agents import (
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
from emucore.rollout.episode import STOPPED
from studio.model.agents.agent_flags import (
    DEFAULT_FPS,
    Flag,
    checks_passed,
    checks_skipped,
    farming_window,
    scenario_flags,
)
from studio.model.agents.run_log import RunLog
from studio.model.agents.sanity_agent import SanityAgent, run_summary
from studio.model.search.plausibility import Plausibility, find_plausibility

__all__ = [
    "AGENTS", "Agent", "BruteAgent", "EpisodeResult", "Flag", "IdleAgent", "MovieAgent", "Plausibility",
    "PolicyAgent", "RandomAgent", "RightBiasedAgent", "RunChoices", "RunReport", "SANITY", "SanityAgent", "StepEvent",
    "algo_of", "checks_passed", "checks_skipped", "extension_said", "farming_window", "find_plausibility",
    "make_agent", "run_episodes",
    "run_summary", "sb3_available", "scenario_flags",
]

# ---- the report ----


@dataclass
class RunReport:
    game: str
    state: str | None
    scenario: str | None
    agent: str
    buttons: list[str]
    episodes: list[EpisodeResult] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # the checks that raised no flag, in words
    unchecked: list[str] = field(default_factory=list)  # the checks that could not be made, with why
    summary: str = ""  # the run in one line (run_summary), the budget's extension first when there was one
    max_steps: int = 0  # the step budget the episodes were played with
    extended_from: int | None = None  # the budget asked for, when no episode ended within it and it was doubled
    plausibility: Plausibility | None = None  # what the returns were held against
    best_index: int | None = None
    best_movie: bytes | None = None  # the best episode's .bk2
    stopped: bool = False
    log_dir: Path | None = None  # where the run's TensorBoard log is, if one was written

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
        """Writes the best episode's ``.bk2`` (replay it with ``emucore.env.replay``)."""
        if self.best_movie is None:
            raise ValueError("no episode was recorded")
        path = Path(path)
        path.write_bytes(self.best_movie)
        return path


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
    plausibility: Plausibility | None = None,
    fps: float = DEFAULT_FPS,
    log_dir: str | Path | None = None,
    extend: bool | None = None,
    on_extend: Callable[[int], None] | None = None,
) -> RunReport:
    """Plays ``episodes`` episodes of ``game`` headless with ``agent`` and reports on them.

    Args:
        game: The integration's folder (what the studio has open), or a name looked up in ``inttype``.
        state: A state name or path (None: the game's default state).
        scenario: A scenario name or ``.json`` path (None: ``scenario.json``).
        agent: The agent; its ``env_kwargs`` pick the action and observation types, and its seed
            seeds the run (episode ``i`` from ``(seed, i)``; see :mod:`emucore.rollout.agents`).
        episodes: Episodes to play.
        max_steps: Steps after which an episode is cut ("max steps").
        inttype: Integration sets searched (default: all).
        on_step: Called after every step (from the calling thread); not called on Ray.
        on_episode: Called after every episode, in episode order.
        stop: Set it to stop after the current step (the episode is kept as "stopped"); on Ray, the
            run stops after the episodes that have come back.
        ray_address: A Ray cluster's address ("auto", "host:port") to play the episodes on, spread
            over its nodes: the same episodes as here.
        plausibility: What the returns are held against (None: :func:`find_plausibility` reads the
            score checkpoints of the studio's workspace for the game and the scenario's reward terms).
        fps: The game's frames a second (for the early end check and the summary).
        log_dir: A folder to write the run's TensorBoard log in (:mod:`studio.model.agents.run_log`; needs torch
            and tensorboard), or None for none.
        extend: When no episode ended (done) within ``max_steps`` and the run was not stopped, play
            the run again, once, with twice the steps (the same episodes, longer), and say so in
            the report (``extended_from`` and the summary). None: the agent's ``extends_budget``
            (the sanity preset's).
        on_extend: Called with the new budget when that happens, before the episodes are played
            again (from the calling thread).

    Returns:
        The episodes, the flags and the best episode's movie.
    """
    inttype = emucore.data.Integrations.ALL if inttype is None else inttype
    make_kwargs: dict[str, Any] = {"inttype": inttype}
    if scenario is not None:
        make_kwargs["scenario"] = scenario

    def play(budget: int) -> list[EpisodeResult]:
        rollout = Rollout(str(game), agent, episodes=episodes, seed=agent.seed, max_steps=budget,
                          state=emucore.State.DEFAULT if state is None else state, make_kwargs=make_kwargs,
                          record=True, hashes=True)
        if ray_address:
            from emucore.ray.rollouts import run_on_ray

            played = run_on_ray(rollout, ray_address, stop)
        else:
            played = run_local(rollout, on_step, stop)
        results = []
        for result in played:
            results.append(result)
            if on_episode is not None:
                on_episode(result)
        return results

    budget = max_steps
    results = play(budget)
    stopped = (stop is not None and stop.is_set()) or any(r.done_reason == STOPPED for r in results)
    extend = bool(getattr(agent, "extends_budget", False)) if extend is None else extend
    if extend and results and not stopped and not any(r.terminated for r in results):
        budget = max_steps * 2
        if on_extend is not None:
            on_extend(budget)
        results = play(budget)
    report = RunReport(emucore.data.game_name(str(game)), state, scenario, agent.name, [], max_steps=budget,
                       extended_from=max_steps if budget != max_steps else None)
    log = None if log_dir is None else RunLog(log_dir, {
        "game": report.game, "state": state or "default", "scenario": scenario or "scenario.json",
        "agent": agent.name, "seed": agent.seed, "episodes": episodes, "max steps": budget,
        "played on": ray_address or "this machine"})
    report.log_dir = None if log is None else log.folder
    best_movie: bytes | None = None
    for result in results:
        report.episodes.append(result)
        report.stopped = report.stopped or result.done_reason == STOPPED
        if report.best_index is None or result.total > report.episodes[report.best_index].total:
            report.best_index, best_movie = result.index, result.movie
        result.movie = None
        if log is not None:
            log.episode(result)
    report.stopped = report.stopped or (stop is not None and stop.is_set())
    report.best_movie = best_movie
    report.buttons = _buttons_of(game, inttype)
    report.plausibility = find_plausibility(game, scenario, inttype) if plausibility is None else plausibility
    frames_per_step = int(agent.env_kwargs.get("frame_skip", 1))
    report.flags = scenario_flags(report.episodes, budget, report.plausibility, fps=fps,
                                  frames_per_step=frames_per_step)
    if report.episodes:
        report.checks = checks_passed(report.flags, report.plausibility)
        report.unchecked = checks_skipped(report.flags, report.plausibility)
    report.summary = extension_said(max_steps, budget) + run_summary(report.episodes, budget, fps=fps,
                                                                      frames_per_step=frames_per_step)
    if log is not None:
        log.finish(report.summary, [f"{flag.name}: {flag.detail}" for flag in report.flags])
    return report


def extension_said(asked: int, played: int) -> str:
    """The budget's extension in words ("" when the run played the budget asked for)."""
    if asked == played:
        return ""
    return f"No episode ended within {asked:,} steps: the budget was extended once, to {played:,} steps. "


def _buttons_of(game: str | Path, inttype: Any) -> list[str]:
    """The names of the game's buttons (its system's), "" for unused ones."""
    from emucore.data import get_romfile_path
    from emucore.systems import system_for_path

    return [b or "" for b in system_for_path(get_romfile_path(str(game), inttype)).buttons]


SANITY = "Sanity (no START/SELECT)"
"""The sanity preset's title: one episode of :class:`SanityAgent` until the first done or the step
budget (doubled once when no episode ended within it)."""

AGENTS: dict[str, type[Agent]] = {
    SANITY: SanityAgent,  # first: the dialog's default, the preset that shows rewards and episode ends
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


MAX_EPISODES, MAX_STEPS, MAX_SEED = 10_000, 10_000_000, 2**31 - 1  # what the dialog offers


@dataclass
class RunChoices:
    """The Run agent dialog's choices, kept in the studio's settings between runs (``agent_run``)."""

    agent: str = SANITY
    episodes: int = 1
    max_steps: int = 4500
    seed: int = 0
    file: str = ""  # the movie or model of the agents that play one
    ray_address: str = ""
    tensorboard: bool = True

    def to_dict(self) -> dict[str, str | int | bool]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Mapping[str, object]) -> RunChoices:
        """The choices ``raw`` holds; a value that is missing, of another type or out of range
        (the settings file is the user's to edit) is the default."""
        defaults = cls()
        kept: dict[str, Any] = {}
        for one in fields(cls):
            value = raw.get(one.name)
            if type(value) is type(getattr(defaults, one.name)):  # exact: a bool is no step count
                kept[one.name] = value
        choices = cls(**kept)
        if choices.agent not in AGENTS:
            choices.agent = defaults.agent
        for name, high in (("episodes", MAX_EPISODES), ("max_steps", MAX_STEPS), ("seed", MAX_SEED)):
            if not (0 if name == "seed" else 1) <= getattr(choices, name) <= high:
                setattr(choices, name, getattr(defaults, name))
        return choices
