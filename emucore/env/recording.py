"""stable-retro's movie recording of an env's episodes (``record=``, ``record_movie``, ``auto_record``)."""

from __future__ import annotations

import os

from emucore.env.episode_state import EpisodeState

#: How often the movie of the episode in progress is saved while recording, in seconds (a
#: killed process loses at most about this much); it is also written at close, at the next
#: episode, when the env is garbage collected and at interpreter exit.
CHECKPOINT_SECONDS = 1.0


class MovieRecorder:
    """One env's recording: the movie in progress is its :class:`EpisodeState`'s ``movie``; with ``movie_path``
    set (``auto_record``), each episode is recorded to a movie of its own there, numbered by ``movie_id``."""

    def __init__(self, state: EpisodeState, gamename: str):
        self.state = state
        self.gamename = gamename
        self.movie_path: str | None = None
        self.movie_id = 0

    def record_movie(self, path: str) -> None:
        """Records from now on to the movie at ``path`` (one that was recording is closed first)."""
        from emucore.movie import Movie

        state = self.state
        if state.movie is not None:
            state.movie.close()  # what dropping it would do (stable-retro), but now, and errors raise here
        movie = state.movie = Movie(path, True, state.players)
        movie.enable_checkpoints(CHECKPOINT_SECONDS)
        movie.configure(self.gamename, state.em)
        if state.initial_state:
            movie.set_state(state.initial_state)

    def auto_record(self, path: str | None = None) -> None:
        """Records each episode from the next reset on, into the folder ``path`` (default: the current one)."""
        self.movie_path = path or os.getcwd()

    def stop_record(self) -> None:
        """Stops recording and closes the movie in progress."""
        self.movie_path = None
        self.movie_id = 0
        if self.state.movie is not None:
            self.state.movie.close()
            self.state.movie = None

    def start_episode_movie(self) -> None:
        """The next episode's movie, named ``<game>-<state>-<movie_id>.bk2`` in ``movie_path``."""
        state = os.path.splitext(os.path.basename(self.state.statename or "power-on"))[0]
        assert self.movie_path is not None
        self.record_movie(os.path.join(self.movie_path, f"{self.gamename}-{state}-{self.movie_id:06d}.bk2"))
        self.movie_id += 1
