"""``check_integration``: replay recorded play through an integration and report what looks wrong.

Gym Retro's users meet integrations whose reward is always 0 or absurd and whose done fires early
or never (openai/retro #72, #126, #151, #162); each shows only in training. This check replays
ordinary movies and episodes that end at a game over through the integration exactly as training
evaluates it (:mod:`emucore.assist.replay`) and reports:

* rewards: each movie's total; a reward that is 0 on every step although the game moved; a step
  worth more than 100x the median non-zero reward; a non-zero reward at the first step or right
  after a reset of the game;
* the shown score (checkpoints typed from the screen) against the reward between them;
* with a :class:`~emucore.assist.ScreenNumber`: the reward against the number on screen at every
  change of it in every movie (:mod:`emucore.assist.screen_check`);
* done: where it first fires in each episode against the marked game over (early, late, never);
  where it fires in ordinary movies (info);
* variables: addresses the game's memory does not hold, values that never changed.

For example (not run: it needs a game's states or movies)::

    report = check_integration("integrations/StudioDemo-Nes", episodes=["ep1.bk2"])
    report.ok, [f.message for f in report.findings if f.severity == "problem"]
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from emucore.assist.checkpoints import Checkpoints, checkpoint_findings, validate
from emucore.assist.findings import done_findings, mapping_findings, never_changed, reward_findings
from emucore.assist.replay import MovieLike, Trace, check_same_game, open_movie, replay
from emucore.assist.report import Finding, IntegrationReport, MovieCheck
from emucore.assist.screen_check import screen_findings
from emucore.assist.screen_file import SCREEN_FILE, load_screen
from emucore.assist.screen_number import ScreenNumber
from emucore.errors import EmucoreError, GameNotFoundError, MovieError
from emucore.integration import SHA_FILE, read_rom_sha
from emucore.movie import Movie
from emucore.scenario.load_checks import UnmappedVariableError

#: An episode whose done has not fired by its end is played this many frames more, buttons released.
LATE_FRAMES = 300


@dataclass
class Target:
    """The integration to check, as ``emucore.make`` opens it.

    Attributes:
        game: A game name, or a game folder's absolute path.
        inttype: The integration sets it is looked up in.
        make_kwargs: ``scenario``, ``info`` and ``core`` as the caller's env was made with.
    """

    game: str
    inttype: Any
    make_kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        from emucore import data

        return data.game_name(self.game)


def resolve_target(integration: Any) -> Target:
    """A folder path, a game name, or an env made by ``emucore.make`` (its integration is used).

    Raises:
        GameNotFoundError: No such folder, game or ROM (naming it).
    """
    from emucore import data

    env = getattr(integration, "unwrapped", integration)
    if hasattr(env, "state_files") and hasattr(env, "inttype"):
        args = list(getattr(env, "_ezpickle_args", ()))
        kwargs = {}
        for position, key in ((2, "scenario"), (3, "info"), (10, "core")):
            if len(args) > position and args[position] is not None:
                kwargs[key] = args[position]
        return Target(env.state_files.game_lookup, env.inttype, kwargs)
    if not isinstance(integration, (str, os.PathLike)):
        raise TypeError(f"integration must be a folder, a game name or an env, not {type(integration).__name__}")
    text = os.fspath(integration)
    inttype = data.Integrations.ALL
    if os.path.isdir(text):
        folder = os.path.abspath(text)
        if not os.path.isfile(os.path.join(folder, SHA_FILE)):
            raise GameNotFoundError(f"{text}: not an integration folder (it has no {SHA_FILE})")
        text = folder
    elif data.is_game_folder_path(text) or not data.get_file_path(text, SHA_FILE, inttype):
        raise GameNotFoundError(f"{text}: no such integration folder or game")
    try:
        data.get_romfile_path(text, inttype)
    except FileNotFoundError:
        raise GameNotFoundError(f"{text}: the game's ROM is not imported (run `emucore import`)") from None
    return Target(text, inttype)


def _hashes(game: str, inttype: Any) -> set[str]:
    from emucore import data

    path = data.get_file_path(game, SHA_FILE, inttype)
    return set(read_rom_sha(path)) if path else set()


def _probe(target: Target) -> tuple[Any, list[Finding]]:
    """The integration loaded once (variables, scenario, memory map), or the findings of why it does not load."""
    import emucore

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = emucore.make(target.game, state=emucore.State.NONE, inttype=target.inttype,
                               use_restricted_actions=emucore.Actions.ALL, render_mode=None,
                               obs_type=emucore.Observations.RAM, **target.make_kwargs)
    except UnmappedVariableError as exc:
        return None, [Finding("problem", "unmapped", f"the integration does not load: {exc}", None, None,
                              _key_variable(exc.key))]
    except EmucoreError as exc:  # a file of the integration, a script: IntegrationError and the like
        if isinstance(exc, GameNotFoundError):
            raise
        return None, [Finding("problem", "load", f"the integration does not load: {exc}")]
    return env, []


def _key_variable(key: str | None) -> str | None:
    parts = (key or "").split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "info" else None


def check_integration(
    integration: Any,
    movies: Sequence[MovieLike] = (),
    episodes: Sequence[MovieLike] = (),
    checkpoints: Checkpoints | None = None,
    state: str | os.PathLike[str] | None = None,
    *,
    late_frames: int = LATE_FRAMES,
    screen: Any = None,
) -> IntegrationReport:
    """Replays recorded play through an integration exactly as training evaluates it, and reports.

    Args:
        integration: An integration folder (as ``emucore.make(path)`` opens it), a game name, or an
            env made by ``emucore.make`` (its integration, scenario and data are used; the env itself
            is not touched).
        movies: ``.bk2`` movies (paths or :class:`~emucore.movie.Movie`) of ordinary play.
        episodes: ``.bk2`` movies that each end at a game over: their last frame is the marked game over.
        checkpoints: The score the screen showed: ``{index: [(frame, shown), ...]}``, ``index``
            counting movies first, then episodes; ``frame`` the movie frame after which the screen
            showed ``shown``.
        state: A state name or path for movies that carry no start state.
        late_frames: How many frames past an episode's end (buttons released) to look for a late done.
        screen: A :class:`~emucore.assist.ScreenNumber` (or ``True``: the one saved in the
            integration folder as ``screen.json``): the number it reads off every frame is
            compared with the reward at each of its changes.

    Returns:
        The report: ``ok`` when no finding is a problem.

    Raises:
        GameNotFoundError: No such integration folder or game, or its ROM is missing.
        MovieError: A movie is missing, unreadable, of another game or system, or its start state is
            missing or does not load (the message names the file).
        CheckpointError: Checkpoints that do not fit the movies.
    """
    target = resolve_target(integration)
    screen = _screen_of(screen, target)
    opened = [open_movie(m, f"movie {i}") for i, m in enumerate(movies)]
    opened += [open_movie(m, f"episode {i}") for i, m in enumerate(episodes)]
    points = validate(checkpoints, [m.frame_count - 1 for m in opened])
    report = IntegrationReport(game=target.name, integration=target.game)
    env, report.findings = _probe(target)
    if env is None:
        _check_games(opened, target)
        return report
    try:
        variables = dict(env.evaluator.variables)
        scenario = env.evaluator.scenario
        report.findings += mapping_findings(variables, env.em.memory)
    finally:
        env.close()
    _check_games(opened, target)
    names = tuple(variables)
    traces: list[Trace] = []
    for index, movie in enumerate(opened):
        episode = index >= len(movies)
        try:
            traces.append(replay(movie, target.game, index, episode=episode, names=names, state=state,
                                 inttype=target.inttype, make_kwargs=target.make_kwargs, late_frames=late_frames,
                                 screen=screen))
        except MovieError:
            raise
        except EmucoreError as exc:  # the evaluation failed (a script's error): the integration's fault
            report.findings.append(Finding("problem", "evaluation", f"{movie.path.name}: the replay failed: {exc}",
                                           index))
    _label(traces)
    report.movies = [_movie_check(trace) for trace in traces]
    report.frames = sum(trace.steps + 1 for trace in traces)
    report.changes = {name: sum(t.changes(name) for t in traces) for name in names
                      if any(name in t.values for t in traces)}
    report.findings += reward_findings(traces, scenario)
    report.findings += checkpoint_findings(traces, scenario, points)
    report.findings += screen_findings(traces, scenario)
    report.findings += done_findings(traces, scenario, late_frames)
    report.findings += never_changed(traces, variables)
    report.sort()
    return report


def _screen_of(screen: Any, target: Target) -> ScreenNumber | None:
    if screen is None or screen is False:
        return None
    if isinstance(screen, ScreenNumber):
        return screen
    if screen is not True:
        raise TypeError(f"screen must be a ScreenNumber or True (the folder's {SCREEN_FILE}), "
                        f"not {type(screen).__name__}")
    return load_screen(target.game, target.inttype)


def _check_games(opened: Sequence[Movie], target: Target) -> None:
    mine = _hashes(target.game, target.inttype)
    for movie in opened:
        check_same_game(movie, target.name, mine, lambda name: _hashes(name, target.inttype))


def _label(traces: Sequence[Trace]) -> None:
    """Movies that share a file name are named with their index too: ``take.bk2 (#2)``."""
    names = [trace.path.name for trace in traces]
    for trace, name in zip(traces, names):
        if names.count(name) > 1:
            trace.label = f"{name} (#{trace.index})"


def _movie_check(trace: Trace) -> MovieCheck:
    return MovieCheck(
        path=str(trace.path),
        kind="episode" if trace.episode else "movie",
        index=trace.index,
        players=trace.players,
        steps=trace.steps,
        reward_total=float(trace.rewards.sum()),
        rewards_nonzero=int((trace.rewards != 0).sum()),
        first_done=trace.first_done,
        game_over=trace.last_frame if trace.episode else None,
        done_reason=trace.done_reason,
        late_done=trace.late_done,
    )


__all__ = ["LATE_FRAMES", "Target", "check_integration", "resolve_target"]
