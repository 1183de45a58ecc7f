"""A movie played through its game's env: :class:`MoviePlayer`, one :class:`PlaybackStep` per frame line.

A movie is replayed exactly as stable-retro's ``playback_movie`` does (movie-format.md §7):
line 0 is consumed, ``make(game, state=State.NONE, use_restricted_actions=Actions.ALL,
players=movie.players)`` is built (here with ``inttype=Integrations.ALL`` and
``render_mode=None``: no window, ever), ``env.initial_state = movie.get_state()`` and
``env.reset()`` re-runs line 0 as the reset frame (with no input), then each further line is
one ``env.step(keys)``. Before that the movie is checked: the game must be an integration
(or the header's SHA-1 must name one), the header's platform must be the game's system, a
real ``SHA1`` must be one of the integration's ``rom.sha`` hashes (or its ROM's), and the
start state must load (the checks are :mod:`emucore.movie.game`'s).

Start states: the movie's ``Core.bin``, or a state given (raw bytes, a ``.state`` file or a state
of the game) for movies without a usable one (BizHawk movies, whose ``Core.bin`` is a BizHawk core
state; ``.fm2``; movies without ``Core.bin``); ``power_on`` plays those from the emulator as loaded
instead.

Playing a movie to the end with exports (video, info, monitor CSV): :mod:`emucore.rollout.movie_replay`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore import data
from emucore.enums import Actions, State
from emucore.env.make import make
from emucore.errors import EmucoreError, MovieError, StateError
from emucore.fileio import read_regular
from emucore.movie.game import check_movie, resolve_game
from emucore.movie.movie import Movie


@dataclass
class PlaybackStep:
    """One ``env.step`` of a replay."""

    index: int  # 1-based: step k plays frame line k (line 0 is the reset frame)
    keys: np.ndarray  # the bool action passed to env.step (players * num_buttons)
    observation: np.ndarray | None  # None when the player was made with observe=False
    reward: Any
    terminated: bool
    truncated: bool
    info: dict
    extra: bool = False  # a released-buttons step added by ``ending`` after the movie's end


def _load_state_arg(env: Any, state: bytes | str | os.PathLike[str], movie: Movie) -> bytes:
    if isinstance(state, (bytes, bytearray, memoryview)):
        return bytes(state)
    text = os.fspath(state)
    if os.path.isfile(text):
        try:
            return _read_start_state(text)
        except (OSError, EmucoreError) as exc:
            raise MovieError(movie.path, f"the start state {text} is unusable: {exc}") from exc
    try:
        env.load_state(text)
    except (FileNotFoundError, EmucoreError) as exc:
        raise MovieError(movie.path, f"no state {text!r} for {env.gamename}: {exc}") from exc
    assert env.initial_state is not None
    return env.initial_state


def _read_start_state(path: str) -> bytes:
    """A start state given as a file: a gzip ``.state`` or the core's raw bytes."""
    from emucore.integration.statefile import GZIP_MAGIC, MAX_STATE_BYTES, gunzip_state

    raw = read_regular(path, MAX_STATE_BYTES)
    if raw[:2] == GZIP_MAGIC:
        return gunzip_state(raw, path)
    if not raw:
        raise StateError(path, "empty")
    return raw


class MoviePlayer:
    """A movie opened against its game's env, reset and ready to step (iterate it).

    >>> import os, tempfile
    >>> from emucore import Emulator
    >>> from emucore.movie import Movie
    >>> from emucore.paths import integrations_dir
    >>> emulator = Emulator(integrations_dir() / "StudioDemo-Genesis" / "rom.md")
    >>> path = os.path.join(tempfile.mkdtemp(), "run.bk2")
    >>> movie = Movie(path, True, players=1)
    >>> movie.configure("StudioDemo-Genesis", emulator)
    >>> movie.set_state(emulator.get_state())
    >>> for frame in range(3):
    ...     recorded = movie.step()
    >>> movie.close()
    >>> with MoviePlayer(path) as player:
    ...     for step in player:
    ...         ram = player.env.get_ram()
    >>> step.index, ram.shape
    (2, (65536,))

    Args:
        movie: The movie file (or an open read-mode :class:`Movie`).
        state: The start state: raw bytes, a ``.state`` file (gzip or raw) or a state name of
            the game. Default: the movie's ``Core.bin``.
        power_on: Start without any state (from the emulator as loaded) when the movie has
            no usable one and ``state`` is None (``.fm2`` and power-on BizHawk movies).
        game: Play this integration instead of the one the movie names.
        ending: Extra steps with every button released after the movie (N >= 0; negative
            values only affect video, see :func:`emucore.rollout.movie_replay.replay`).
        inttype: The integration sets searched (default: all).
        check_hash: Check a real header ``SHA1`` against the integration.
        observe: Build each step's observation and info (False: rewards and done only).
        make_kwargs: More arguments for ``emucore.make`` (``scenario``, ``info``, ``core``), to
            play the movie through an integration as an env made with them evaluates it.

    With 2 players the env's ``multi_rewards`` is set: rewards are ``[r0, r1]`` lists.

    Raises:
        MovieError: the movie cannot be read, names no integration, is for another system or
            ROM, has no usable start state, or its start state does not load.
    """

    def __init__(
        self,
        movie: str | os.PathLike[str] | Movie,
        *,
        state: bytes | str | os.PathLike[str] | None = None,
        power_on: bool = False,
        game: str | None = None,
        ending: int | None = None,
        inttype: Any = None,
        check_hash: bool = True,
        observe: bool = True,
        make_kwargs: Mapping[str, Any] | None = None,
    ):
        inttype = data.Integrations.ALL if inttype is None else inttype
        self.movie = movie if isinstance(movie, Movie) else Movie(movie)
        if self.movie.record:
            raise ValueError("MoviePlayer needs a movie opened for reading")
        self.path = self.movie.path
        if self.movie.frame_count == 0:
            raise MovieError(self.path, "has no frames (no line starting with '|')")
        if self.movie.players > 2:
            raise MovieError(self.path, f"has {self.movie.players} players; emucore plays at most 2")
        self.game = resolve_game(self.movie, game, inttype)
        if check_hash:
            check_movie(self.movie, self.game, inttype)
        self.duration = self.movie.frame_count - 1
        self.extra = max(int(ending), 0) if ending is not None else 0
        self.env = make(
            self.game,
            state=State.NONE,
            use_restricted_actions=Actions.ALL,
            players=self.movie.players,
            inttype=inttype,
            render_mode=None,
            **dict(make_kwargs or {}),
        )
        if self.movie.players > 1:
            self.env.multi_rewards = True  # one reward per player (what playback_movie sums, as r0, r1)
        try:
            self._start(state, power_on)
        except BaseException:
            self.env.close()
            raise
        self._masks = self.movie.get_masks()
        self._shifts = np.arange(self.env.num_buttons, dtype=np.uint16)
        self._chunk_start = -1
        self._chunk = np.zeros((0, 0), dtype=bool)
        self.steps = 0
        self.observe = observe

    def _start(self, state: bytes | str | os.PathLike[str] | None, power_on: bool) -> None:
        self.movie.step()  # line 0: the reset frame
        if state is not None:
            start: bytes | None = _load_state_arg(self.env, state, self.movie)
        else:
            start = self.movie.get_state() or None
        if start is None and not power_on:
            if self.movie.is_bizhawk and self.movie.raw_state:
                why = "its Core.bin is a BizHawk core state, which libretro cores cannot load"
            elif self.movie.data is not None and self.movie.data.kind == "fm2":
                why = "an .fm2 movie has no start state"
            else:
                why = "it has no Core.bin"
            raise MovieError(self.path, f"no usable start state ({why}); pass --state NAME (or --power-on)")
        self.env.initial_state = start
        try:
            self.observation, _ = self.env.reset()
        except StateError as exc:
            raise MovieError(self.path, f"its start state does not load in {self.game}: {exc.problem}") from exc

    @property
    def total_steps(self) -> int:
        """Steps this player will make: the movie's lines after line 0, plus ``ending`` extras."""
        return self.duration + self.extra

    def keys_for(self, line: int) -> np.ndarray:
        """The bool action for frame line ``line`` (``players * num_buttons``, player 1 first)."""
        offset = line - self._chunk_start
        if not 0 <= offset < len(self._chunk):  # unpack the bits of the next 4096 lines at once
            self._chunk_start, offset = line, 0
            rows = self._masks[line : line + 4096]
            self._chunk = ((rows[:, :, None] >> self._shifts) & 1).astype(bool).reshape(len(rows), -1)
        return self._chunk[offset]

    def __iter__(self) -> Iterator[PlaybackStep]:
        env = self.env
        released = np.zeros(env.num_buttons * self.movie.players, dtype=bool)
        pad = (1 << env.num_buttons) - 1
        no_buttons = [0] * self.movie.players
        for index in range(self.steps + 1, self.total_steps + 1):
            extra = index > self.duration
            if self.observe:
                keys = released if extra else self.keys_for(index)
                obs, reward, terminated, truncated, info = env.step(keys)
            else:  # rewards and done only: no frame conversion, no info dict
                masks = no_buttons if extra else (self._masks[index] & pad).tolist()
                reward, terminated = env.step_masks(masks)
                keys = released if extra else self.keys_for(index)
                obs, truncated, info = None, False, {}
            self.steps = index
            yield PlaybackStep(index, keys, obs, reward, terminated, truncated, info, extra)

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> MoviePlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
