"""Play movies through an env, headless: ``emucore playback MOVIE... [--video OUT.mp4] [--info OUT.jsonl]``.

A movie is replayed exactly as stable-retro's ``playback_movie`` does (movie-format.md §7):
line 0 is consumed, ``make(game, state=State.NONE, use_restricted_actions=Actions.ALL,
players=movie.players)`` is built (here with ``inttype=Integrations.ALL`` and
``render_mode=None``: no window, ever), ``env.initial_state = movie.get_state()`` and
``env.reset()`` re-runs line 0 as the reset frame (with no input), then each further line is
one ``env.step(keys)``. Before that the movie is checked: the game must be an integration
(or the header's SHA-1 must name one), the header's platform must be the game's system, a
real ``SHA1`` must be one of the integration's ``rom.sha`` hashes (or its ROM's), and the
start state must load.

Exports, all encoded or written while the movie plays:

* ``--video OUT.mp4``: H.264 (libx264, yuv420p, CRF 17 like stable-retro; preset ``veryfast``
  rather than its ``slow``, for speed; ``--crf``/``--preset`` choose) at the core's frame rate,
  with the core's audio as AAC (resampled to 48 kHz when the core's rate is not an AAC rate)
  unless ``--no-audio``. As in stable-retro there is **one video frame per env step**: the
  reset frame (line 0) is not in the video, so a movie of N+1 lines gives N frames lasting
  N/fps, with the audio of those N frames. Each frame is the observation as the env returns it
  (cropped, rotated); an odd size is padded by one black row/column for yuv420p.
* ``--info OUT.jsonl``: one JSON object per step: ``{"step", "reward", "terminated", "info"}``
  (step k is frame line k).
* ``--csv OUT.csv``: a Monitor-style CSV (``#{"t_start": 0.0, "gym_version": "gym_retro",
  "env_id": <game>}``, then ``r`` (or ``r0,r1``), ``l``, ``t`` = l/60) with a row per episode
  end and one for the unfinished rest, as stable-retro writes it (the env is not reset).
* ``--ending N``: as stable-retro: N < 0 puts only the last |N| steps in the video; N >= 0
  plays N more steps with every button released after the movie ends.

Start states: the movie's ``Core.bin``, or ``--state NAME_OR_PATH`` (a state of the game or a
``.state`` file) for movies without a usable one (BizHawk movies, whose ``Core.bin`` is a
BizHawk core state; ``.fm2``; movies without ``Core.bin``); ``--power-on`` plays those from the
emulator as loaded instead. ``--game`` names the integration when the movie does not.

With several movies, ``--video``/``--info`` name folders (one ``<movie>.mp4``/``.jsonl`` each)
and the CSV gathers every movie's episodes. Each movie's totals (frames, steps, total reward,
final info) go to stdout, the progress bar (tqdm; default: when stderr is a terminal) and errors
to stderr. The command is :mod:`emucore.cli.playback`; its exit status: 0 when every movie
played, 1 when one does not match its integration (recorded on another system or ROM), 2 when one
could not be played (a missing or unreadable movie, an unknown game or state, a ROM not imported;
the others still are), 130 on Ctrl-C.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

import numpy as np
from tqdm import tqdm

from emucore.errors import EmucoreError, FileProblem, StateError
from emucore.fileio import read_regular
from emucore.integration import SHA_FILE, read_rom_sha
from emucore.movie.bk2 import MovieError, resolve_platform
from emucore.movie.movie import Movie

#: Sample rates FFmpeg's AAC encoder accepts; other core rates are resampled to 48 kHz.
AAC_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)


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


@dataclass
class ReplaySummary:
    """What :func:`replay` did."""

    movie: Path
    game: str
    players: int
    frames: int  # frame lines in the movie (line 0 included)
    steps: int  # env steps played (extra ``ending`` steps included)
    total_reward: float | list[float]
    episodes: list[tuple[Any, int]] = field(default_factory=list)  # (return, length) per episode end
    final_info: dict = field(default_factory=dict)
    elapsed: float = 0.0
    video: Path | None = None
    video_frames: int = 0
    video_seconds: float = 0.0
    info_file: Path | None = None

    @property
    def fps(self) -> float:
        return self.steps / self.elapsed if self.elapsed > 0 else 0.0


# ---------------------------------------------------------------------------------------------
# Opening a movie against its game


class MovieMismatchError(MovieError):
    """A movie recorded on another system or ROM than its integration's (``emucore playback`` exits 1)."""


def _is_integration(game: str, inttype: Any) -> bool:
    from emucore import data

    return bool(game) and game != "?" and data.get_file_path(game, SHA_FILE, inttype) is not None


def resolve_game(movie: Movie, game: str | None, inttype: Any) -> str:
    """The integration a movie plays: ``game`` if given, else its ``GameName``, else the game
    whose ``rom.sha`` lists the header's SHA-1.

    Raises:
        MovieError: none of them is an integration.
    """
    from emucore import data
    from emucore.data.lookup import unknown_game_hint

    named = game or movie.get_game()
    if _is_integration(named, inttype):
        return named
    sha1 = movie.data.sha1 if movie.data is not None else None
    if not game and sha1:
        known = data.get_known_hashes(inttype)
        if sha1 in known:
            return known[sha1][0]
    where = ", ".join(data.resolve(inttype).folders) or "no integration folders"
    if named in ("", "?"):
        problem = "names no game (GameName is missing or '?'); pass --game NAME"
    else:
        problem = f"is for the game {named!r}, which is not an integration (searched {where})"
        problem += unknown_game_hint(named, inttype)
    if sha1 and not game:
        problem += f"; no integration lists its ROM SHA-1 {sha1}"
    raise MovieError(movie.path, problem)


def check_movie(movie: Movie, game: str, inttype: Any) -> str:
    """Checks the movie against the integration; returns the integration's ROM path.

    Raises:
        MovieError: the ROM is missing.
        MovieMismatchError: the platform differs, or the header's SHA-1 is not the ROM's.
    """
    from emucore import data
    from emucore.integration import rom_sha1
    from emucore.systems import system_for_path

    try:
        rom = data.get_romfile_path(game, inttype)
    except FileNotFoundError:
        raise MovieError(movie.path, f"the ROM of {game!r} is not imported (run `emucore import`)") from None
    system = system_for_path(rom).name
    platform = movie.data.platform if movie.data is not None else ""
    if platform:
        recorded = resolve_platform(platform)
        if recorded is None:
            raise MovieError(movie.path, f"its platform {platform!r} is not one emucore knows")
        if recorded != system:
            raise MovieMismatchError(movie.path,
                                     f"was recorded on {recorded} ({platform}), but {game} is a {system} game")
    sha1 = movie.data.sha1 if movie.data is not None else None
    if sha1:
        sha_file = data.get_file_path(game, SHA_FILE, inttype)
        listed = set(read_rom_sha(sha_file)) if sha_file else set()
        if sha1 not in listed and sha1 != rom_sha1(rom):
            expected = ", ".join(sorted(listed)) or rom_sha1(rom)
            raise MovieMismatchError(movie.path,
                                     f"was recorded with the ROM SHA-1 {sha1}, but {game}'s ROM is {expected}")
    return rom


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
            values only affect video, see :func:`replay`).
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
        import emucore
        from emucore import data

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
        self.env = emucore.make(
            self.game,
            state=emucore.State.NONE,
            use_restricted_actions=emucore.Actions.ALL,
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


# ---------------------------------------------------------------------------------------------
# Exports


class VideoError(FileProblem):
    """A video that cannot be written (bad encoder settings, unwritable path, encoder failure)."""

    what = "video"


#: libx264's presets, fastest first.
X264_PRESETS = ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
                "placebo")


class VideoWriter:
    """Encodes frames (and audio) to a video file with PyAV as they come.

    Args:
        path: The output (``.mp4``; ``.mkv``/``.mov`` work too).
        fps: Frames per second (the core's rate, e.g. 59.92).
        width: The frame width (an odd width is padded by one column for yuv420p).
        height: The frame height (likewise).
        audio_rate: The core's sample rate; None or 0 for no audio track.
        crf: libx264's quality, 0 (lossless) to 51.
        preset: libx264's speed preset (:data:`X264_PRESETS`).

    Raises:
        VideoError: the settings are invalid or the file cannot be created.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        fps: float,
        width: int,
        height: int,
        audio_rate: float | None = None,
        *,
        crf: int = 17,
        preset: str = "veryfast",
    ):
        self.path = Path(path)
        if preset not in X264_PRESETS:
            raise VideoError(self.path, f"unknown x264 preset {preset!r} (one of {', '.join(X264_PRESETS)})")
        if not 0 <= crf <= 51:
            raise VideoError(self.path, f"crf {crf} is out of range (0..51)")
        try:
            import av
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise VideoError(self.path, "video export needs PyAV: pip install av") from exc
        self._av = av
        self.frames = 0
        self.samples = 0
        self._failed = False
        self._width, self._height = width + width % 2, height + height % 2
        self._pad = (height % 2, width % 2)
        self.fps = Fraction(fps).limit_denominator(100000) if fps > 0 else Fraction(60)
        self.audio = None
        self._resampler = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.container = av.open(str(self.path), "w")
        except (OSError, av.FFmpegError) as exc:
            raise VideoError(self.path, f"cannot be created: {getattr(exc, 'strerror', None) or exc}") from exc
        try:
            codec = "libx264" if "libx264" in av.codecs_available else "h264"
            self.video = self.container.add_stream(codec, rate=self.fps)
            self.video.width, self.video.height = self._width, self._height
            self.video.pix_fmt = "yuv420p"
            self.video.options = {"crf": str(crf), "preset": preset}
            if audio_rate and audio_rate > 0:
                self.in_rate = int(round(audio_rate))
                out_rate = self.in_rate if self.in_rate in AAC_RATES and audio_rate == self.in_rate else 48000
                self.audio = self.container.add_stream("aac", rate=out_rate, layout="stereo")
                self.audio.bit_rate = 128000
                if out_rate != self.in_rate:
                    self._resampler = av.AudioResampler(format="fltp", layout="stereo", rate=out_rate)
        except (OSError, ValueError, av.FFmpegError) as exc:
            self.container.close()
            raise VideoError(self.path, f"cannot set up the encoders: {exc}") from exc

    def add(self, frame: np.ndarray, audio: np.ndarray | None = None) -> None:
        """Adds one video frame ((H, W, 3) uint8 RGB) and the audio samples ((N, 2) int16) of that frame.

        Raises:
            VideoError: the encoder or the file failed.
        """
        av = self._av
        if self._pad != (0, 0):
            frame = np.pad(frame, ((0, self._pad[0]), (0, self._pad[1]), (0, 0)))
        try:
            picture = av.VideoFrame.from_ndarray(np.ascontiguousarray(frame), format="rgb24")
            picture.pts = self.frames
            for packet in self.video.encode(picture):
                self.container.mux(packet)
            self.frames += 1
            if self.audio is not None and audio is not None and len(audio):
                samples = av.AudioFrame.from_ndarray(
                    np.ascontiguousarray(audio, dtype=np.int16).reshape(1, -1), format="s16", layout="stereo"
                )
                samples.sample_rate = self.in_rate
                samples.pts = self.samples
                self.samples += len(audio)
                frames = self._resampler.resample(samples) if self._resampler is not None else [samples]
                for item in frames:
                    for packet in self.audio.encode(item):
                        self.container.mux(packet)
        except (OSError, ValueError, av.FFmpegError) as exc:
            self._failed = True
            raise VideoError(self.path, f"encoding failed at frame {self.frames}: {exc}") from exc

    def close(self) -> None:
        """Flushes the encoders and finishes the file. Safe to call twice.

        Raises:
            VideoError: the encoder or the file failed.
        """
        if self.container is None:
            return
        container, self.container = self.container, None
        av = self._av
        try:
            if not self._failed:
                for packet in self.video.encode():
                    container.mux(packet)
                if self.audio is not None:
                    pending = self._resampler.resample(None) if self._resampler is not None else []
                    for item in [*pending, None]:
                        for packet in self.audio.encode(item):
                            container.mux(packet)
        except (OSError, ValueError, av.FFmpegError) as exc:
            raise VideoError(self.path, f"cannot be finished: {exc}") from exc
        finally:
            try:
                container.close()
            except (OSError, av.FFmpegError):
                pass


class MonitorCSV:
    """A Monitor-style CSV of episode returns and lengths (stable-retro's ``--csv-out``).

    Args:
        stream: An open text file.
        game: The env id written in the ``#{...}`` first line.
        players: 1 gives an ``r`` column, 2 gives ``r0,r1``.
    """

    def __init__(self, stream: IO[str], game: str, players: int = 1):
        self.stream = stream
        self.fields = ["r"] if players == 1 else [f"r{i}" for i in range(players)]
        stream.write('#{"t_start": 0.0, "gym_version": "gym_retro", "env_id": "' + game + '"}\n')
        self.writer = csv.DictWriter(stream, fieldnames=[*self.fields, "l", "t"])
        self.writer.writeheader()

    def row(self, score: Sequence[float], length: int) -> None:
        self.writer.writerow({**dict(zip(self.fields, score)), "l": length, "t": length / 60.0})
        self.stream.flush()


def json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def replay(
    movie_path: str | os.PathLike[str] | Movie,
    *,
    state: bytes | str | os.PathLike[str] | None = None,
    power_on: bool = False,
    game: str | None = None,
    ending: int | None = None,
    video: str | os.PathLike[str] | None = None,
    audio: bool = True,
    info: str | os.PathLike[str] | None = None,
    monitor: MonitorCSV | None = None,
    progress: bool | None = False,
    inttype: Any = None,
    crf: int = 17,
    preset: str = "veryfast",
) -> ReplaySummary:
    """Plays a movie to the end (see :class:`MoviePlayer`), writing the exports asked for.

    Args:
        movie_path: The movie.
        state, power_on, game, inttype: As for :class:`MoviePlayer`.
        ending: stable-retro's ``--ending``: N < 0 puts only the last |N| steps in the video,
            N >= 0 plays N more steps with every button released.
        video: Write an H.264 video here (one frame per env step; the reset frame is not in it).
        audio: Include the core's audio in the video.
        info: Write one JSON object per step here (JSON Lines).
        monitor: Add this movie's episodes to a Monitor-style CSV.
        progress: Draw a progress bar (tqdm) on stderr; None: when stderr is a terminal.
        crf, preset: libx264 settings for ``video``.

    Returns:
        What was played: frames, steps, rewards, episodes, final info, outputs.

    Raises:
        MovieError: see :class:`MoviePlayer`.
    """
    start = time.perf_counter()
    observe = video is not None or info is not None
    with MoviePlayer(
        movie_path, state=state, power_on=power_on, game=game, ending=ending, inttype=inttype, observe=observe
    ) as player:
        env = player.env
        players = player.movie.players
        delay = 0
        if ending is not None:
            delay = player.duration + ending if ending < 0 else -(player.duration + ending)
        writer = None
        info_file: IO[str] | None = None
        summary = ReplaySummary(
            movie=player.path,
            game=player.game,
            players=players,
            frames=player.movie.frame_count,
            steps=0,
            total_reward=0.0 if players == 1 else [0.0] * players,
        )
        bar = tqdm(total=player.total_steps, desc=player.path.name, unit="step", file=sys.stderr,
                   disable=None if progress is None else not progress, dynamic_ncols=True)
        try:
            if video is not None:
                height, width = player.observation.shape[:2]
                rate = env.em.get_audio_rate() if audio else None
                writer = VideoWriter(video, env.em.get_screen_rate(), width, height, rate, crf=crf, preset=preset)
                summary.video = writer.path
            if info is not None:
                Path(info).parent.mkdir(parents=True, exist_ok=True)
                info_file = open(info, "w", encoding="utf-8")  # noqa: SIM115 - closed in finally
                summary.info_file = Path(info)
            score = [0.0] * players
            total = [0.0] * players
            length = 0
            was_done = False
            last_info: dict = {}
            for step in player:
                reward = step.reward
                rewards = list(reward) if isinstance(reward, (list, tuple, np.ndarray)) else [reward]
                for p in range(min(players, len(rewards))):
                    score[p] += float(rewards[p])
                    total[p] += float(rewards[p])
                length += 1
                last_info = step.info
                if writer is not None and step.index > delay:
                    writer.add(step.observation, env.em.get_audio() if writer.audio is not None else None)
                if info_file is not None:
                    record = {"step": step.index, "reward": reward, "terminated": bool(step.terminated),
                              "info": step.info}
                    info_file.write(json.dumps(record, default=json_default) + "\n")
                done = step.terminated or step.truncated
                if done and not was_done:
                    summary.episodes.append((score[0] if players == 1 else list(score), length))
                    if monitor is not None:
                        monitor.row(score, length)
                    score = [0.0] * players
                    length = 0
                was_done = done
                bar.update(step.index - bar.n)
            if monitor is not None and length:
                monitor.row(score, length)
            summary.steps = player.steps
            summary.total_reward = total[0] if players == 1 else total
            summary.final_info = dict(last_info) if observe else env.data.lookup_all()
        finally:
            bar.close()
            if writer is not None:
                summary.video_frames = writer.frames
                summary.video_seconds = writer.frames / float(writer.fps)
                writer.close()
            if info_file is not None:
                info_file.close()
    summary.elapsed = time.perf_counter() - start
    return summary
