"""Play movies through an env, headless: ``emucore playback MOVIE... [--video OUT.mp4] [--info OUT.jsonl]``.

:func:`replay` plays a movie to the end with a :class:`~emucore.env.movie_player.MoviePlayer`
(see there how a movie is replayed, and checked against its integration).

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from tqdm import tqdm

from emucore.env.movie_player import MoviePlayer
from emucore.movie.movie import Movie
from emucore.movie.video import VideoWriter


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
    """``json.dumps``'s ``default`` for info values: NumPy scalars and arrays as numbers and lists, else ``str``."""
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
                    assert step.observation is not None  # a video plays with observations on
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
            summary.final_info = dict(last_info) if observe else env.evaluator.lookup_all()
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
