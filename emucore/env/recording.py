"""stable-retro's movie recording of an env's episodes (``record=``, ``record_movie``, ``auto_record``)."""

from __future__ import annotations

import os
from typing import Any

#: How often the movie of the episode in progress is saved while recording, in seconds (a
#: killed process loses at most about this much); it is also written at close, at the next
#: episode, when the env is garbage collected and at interpreter exit.
CHECKPOINT_SECONDS = 1.0


class MovieRecording:
    """RetroEnv's recording methods; the env has ``movie``, ``movie_path``, ``movie_id``, ``em``,
    ``gamename``, ``statename``, ``initial_state`` and ``players``."""

    movie: Any
    movie_path: str | None
    movie_id: int
    em: Any
    gamename: str
    statename: str | None
    initial_state: bytes | None
    players: int

    def record_movie(self, path: str) -> None:
        from emucore.movie import Movie

        if self.movie is not None:
            self.movie.close()  # what dropping it would do (stable-retro), but now, and errors raise here
        self.movie = Movie(path, True, self.players)
        self.movie.enable_checkpoints(CHECKPOINT_SECONDS)
        self.movie.configure(self.gamename, self.em)
        if self.initial_state:
            self.movie.set_state(self.initial_state)

    def auto_record(self, path: str | None = None) -> None:
        self.movie_path = path or os.getcwd()

    def stop_record(self) -> None:
        self.movie_path = None
        self.movie_id = 0
        if self.movie is not None:
            self.movie.close()
            self.movie = None

    def _start_episode_movie(self) -> None:
        state = os.path.splitext(os.path.basename(self.statename or "power-on"))[0]
        assert self.movie_path is not None
        self.record_movie(os.path.join(self.movie_path, f"{self.gamename}-{state}-{self.movie_id:06d}.bk2"))
        self.movie_id += 1

