"""Replaying a recorded movie through an integration exactly as training evaluates it.

Each movie is played by :class:`emucore.env.movie_player.MoviePlayer`: an env made by
``emucore.make`` from the integration (frame by frame, no frame skip), its start state the movie's
``Core.bin`` (or the state given for movies that carry none), reset, then one ``step`` per frame
line with that line's button masks. The reward and done of every step are what that env's
evaluator computed, and the values of the data.json variables are read after every frame.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from emucore.env.movie_player import MoviePlayer
from emucore.errors import MovieError
from emucore.movie import Movie
from emucore.scenario.explain import reasons_text

MovieLike = str | os.PathLike[str] | Movie


@dataclass
class Trace:
    """What one replay gave, frame by frame (frame k is the k-th step after the reset frame).

    Attributes:
        index: The movie's index (movies first, then episodes).
        path: The movie file.
        episode: Whether its last frame is a marked game over.
        players: Players in the movie.
        rewards: Player 1's reward of each step (``rewards[k - 1]`` is frame k's).
        done: Whether done was true after each step (``done[k - 1]`` is frame k's).
        values: Each data.json variable's value after every frame, frame 0 (the reset frame) first;
            a variable whose address is not mapped has none.
        done_reason: Why done first fired in the movie, or None.
        done_variables: The variables that reason rests on.
        late_done: For an episode whose done did not fire in it: the first frame after its end
            (every button released) where it did, or None.
        late_reason: Why done fired at ``late_done``.
        label: How messages name the movie (its file name when empty).
        shown: With a screen reader: the number read off each frame's picture (None where it is
            not readable), frame 0 (the reset frame) first; empty without one.
    """

    index: int
    path: Path
    episode: bool
    players: int
    rewards: np.ndarray
    done: np.ndarray
    values: dict[str, list[int]] = field(default_factory=dict)
    done_reason: str | None = None
    done_variables: tuple[str, ...] = ()
    late_done: int | None = None
    late_reason: str | None = None
    label: str = ""
    shown: list[int | None] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return len(self.rewards)

    @property
    def name(self) -> str:
        """How messages name the movie: its file name, with its index where two movies share one."""
        return self.label or self.path.name

    @property
    def last_frame(self) -> int:
        """The movie's last frame (for an episode, its marked game over)."""
        return self.steps

    @property
    def first_done(self) -> int | None:
        """The first frame where done was true, or None."""
        hits = np.flatnonzero(self.done)
        return int(hits[0]) + 1 if len(hits) else None

    def changes(self, name: str) -> int:
        """How many times a variable's value changed from one frame to the next."""
        values = self.values.get(name, [])
        return sum(1 for a, b in zip(values, values[1:]) if a != b)


def open_movie(movie: MovieLike, what: str) -> Movie:
    """A fresh read-mode :class:`Movie` of ``movie`` (a given Movie is reopened from its file, left as it was).

    Args:
        movie: A path or a Movie.
        what: How the caller names it in errors (``"movie 0"``).

    Raises:
        MovieError: The file is missing, unreadable or not a movie (naming it).
        ValueError: A Movie being recorded.
    """
    if isinstance(movie, Movie):
        if movie.record:
            raise ValueError(f"{what} ({movie.path}) is a movie being recorded, not one to replay")
        path = movie.path
    elif isinstance(movie, (str, os.PathLike)):
        path = Path(os.fspath(movie))
    else:
        raise TypeError(f"{what} must be a .bk2 path or an emucore.movie.Movie, not {type(movie).__name__}")
    if not path.is_file():
        raise MovieError(path, "no such file")
    opened = Movie(path)
    if opened.frame_count < 2:
        raise MovieError(path, "has no frame after its reset frame: nothing to replay")
    if opened.players > 2:
        raise MovieError(path, f"has {opened.players} players; an integration is played by 1 or 2")
    return opened


def check_same_game(movie: Movie, game: str, sha1s: set[str], sha1s_of: Any) -> None:
    """A movie whose ``GameName`` is another integration with another ROM is not this game's.

    Args:
        movie: The movie.
        game: The integration's game name.
        sha1s: The integration's ROM hashes (its rom.sha).
        sha1s_of: ``sha1s_of(name)``: the hashes of the integration named ``name`` (empty if unknown).

    Raises:
        MovieError: The movie names another game (naming the file and both games).
    """
    named = movie.get_game()
    if named in ("", "?", game):
        return
    theirs = set(sha1s_of(named))
    if theirs and sha1s and not theirs & sha1s:
        raise MovieError(movie.path, f"is a movie of {named}, whose ROM is not the ROM of {game}")


def replay(
    movie: Movie,
    game: str,
    index: int,
    *,
    episode: bool,
    names: tuple[str, ...],
    state: bytes | str | os.PathLike[str] | None = None,
    inttype: Any = None,
    make_kwargs: Mapping[str, Any] | None = None,
    late_frames: int = 300,
    screen: Any = None,
) -> Trace:
    """Plays ``movie`` through the integration ``game`` and records every step.

    Args:
        movie: A fresh read-mode movie (:func:`open_movie`).
        game: The integration: a game name or a game folder's path (as ``emucore.make`` takes).
        index: The movie's index in the report.
        episode: The movie ends at a game over: after it, up to ``late_frames`` frames with every
            button released are played to see whether done fires late.
        names: The data.json variables to read after every frame.
        state: The start state for a movie that carries none (a state name or path).
        inttype: The integration sets ``game`` is looked up in.
        make_kwargs: ``scenario``, ``info``, ``core`` for ``emucore.make``.
        late_frames: How far past an episode's end to look for a late done.
        screen: A :class:`~emucore.assist.ScreenNumber`: the number it reads off each frame goes
            into the trace's ``shown``.

    Raises:
        MovieError: The movie does not fit the game, or its start state is missing or does not load.
    """
    start = state if state is not None and not movie.get_state() else None
    with warnings.catch_warnings():  # the integration's load warnings are the report's to tell
        warnings.simplefilter("ignore")
        player = MoviePlayer(movie, state=start, game=game, ending=late_frames if episode else None,
                             inttype=inttype, observe=False, make_kwargs=make_kwargs)
    with player:
        data = player.env.evaluator
        wanted = [name for name in names if name in data.variables]
        first = data.lookup_all()
        values: dict[str, list[int]] = {name: [int(first[name])] for name in wanted if name in first}
        rewards: list[float] = []
        done: list[bool] = []
        trace = Trace(index, player.path, episode, movie.players, np.zeros(0), np.zeros(0, dtype=bool), values)
        emulator = player.env.em
        picture = emulator.get_screen() if screen is not None else None  # refilled in place each frame
        if screen is not None:
            trace.shown.append(screen.value(picture))
        for step in player:
            reward = step.reward
            value = float(reward[0] if isinstance(reward, (list, tuple, np.ndarray)) else reward)
            if step.extra:
                if step.terminated:
                    trace.late_done = step.index
                    trace.late_reason = reasons_text(data.explain_done())
                    break
                continue
            rewards.append(value)
            done.append(bool(step.terminated))
            if screen is not None:
                trace.shown.append(screen.value(emulator.get_screen(out=picture)))
            now = data.lookup_all()
            for name, column in values.items():
                column.append(int(now.get(name, column[-1])))
            if step.terminated and trace.done_reason is None:
                reasons = data.explain_done()
                trace.done_reason = reasons_text(reasons)
                trace.done_variables = tuple(r.name for r in reasons if r.name)
        trace.rewards = np.asarray(rewards, dtype=np.float64)
        trace.done = np.asarray(done, dtype=bool)
    return trace


__all__ = ["MovieLike", "Trace", "check_same_game", "open_movie", "replay"]
