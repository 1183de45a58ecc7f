"""A session's movies: recording (from the current state or power-on), playing back read-only, and recording
episodes, one movie each, ended by the scenario's done, a reset or a game-over mark. No Qt.

A mixin of :class:`~studio.model.play.session.Session`, which owns the emulator, the frame count and the
rewind buffer these methods change.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from emucore import Emulator
from emucore.scenario.loader import GameDataSources, load_game_data
from studio.model.play.episodes import EpisodeRecording, record_ending
from studio.model.play.rewind import RewindBuffer
from studio.model.play.session_events import SessionEvents

if TYPE_CHECKING:  # starting a movie imports emucore.movie; importing this module does not
    from emucore.movie import Movie, MovieRecorder


class SessionMovies:
    """Movies of a session (see the module)."""

    emulator: Emulator
    name: str
    folder: Path
    frame: int
    state_name: str | None
    rewind: RewindBuffer
    events: SessionEvents
    recorder: MovieRecorder | None
    player: Movie | None
    episodes: EpisodeRecording | None

    if TYPE_CHECKING:  # the session's own
        def _idle_frame(self) -> None: ...

        def _reset_to_start(self) -> None: ...

    def start_recording(self, path: str | os.PathLike[str], *, power_on: bool = False, players: int = 1) -> None:
        from emucore.movie import MovieRecorder

        if self.player is not None:
            raise RuntimeError("stop the movie being played first")
        if power_on:
            self.emulator.reset()
        self.recorder = MovieRecorder(path, self.emulator, self.name, players=players)
        # Line 0 is the reset frame, which players replay with every button released (as
        # stable-retro's env.reset() runs it): record one such frame before the player's input.
        self.recorder.record_frame([0] * players)
        self._idle_frame()
        self.frame += 1
        self.rewind.clear()
        self.events.frame.emit()
        self.events.movie.emit()

    # ---- episode recording: one movie per episode, from the loaded state ----

    def start_episode_recording(self, folder: str | os.PathLike[str], players: int = 1) -> None:
        """Records one .bk2 per episode (named as stable-retro names them); an episode ends when
        the scenario's done fires or on reset, and the next starts from the loaded state."""
        Path(folder).mkdir(parents=True, exist_ok=True)  # the proposed folder need not exist yet
        sources = GameDataSources.of_folder(self.folder)
        # without a scenario nothing can end an episode: no evaluation in the frame loop
        data = None
        if sources.scenario_path is not None:
            data = load_game_data(sources, self.emulator.system, lambda: self.emulator.memory).data
        self.episodes = EpisodeRecording(Path(folder), players, data)
        self._reset_to_start()
        self._start_episode()

    def _start_episode(self) -> None:
        episodes = self.episodes
        assert episodes is not None
        self.start_recording(episodes.next_movie(self.name, self.state_name), players=episodes.players)
        episodes.start_scenario()

    def end_episode_at_game_over(self) -> bool:
        """While recording episodes: this one ends here, at a game over; the next one starts."""
        if self.episodes is None:
            return False
        self._next_episode("game over")
        return True

    def _next_episode(self, ending: str) -> None:
        episodes, self.episodes = self.episodes, None
        path = self.stop_recording()
        if path is not None:
            record_ending(path, ending)
        self._reset_to_start()
        self.episodes = episodes
        self._start_episode()

    def stop_recording(self) -> Path | None:
        stopped_episode, self.episodes = self.episodes is not None, None
        recorder, self.recorder = self.recorder, None
        path = recorder.close() if recorder is not None else None
        if stopped_episode and path is not None:
            record_ending(path, "stopped")
        self.events.movie.emit()
        return path

    def play_movie(self, path: str | os.PathLike[str]) -> None:
        """Plays a movie read-only from its start state; input is ignored until it ends."""
        from emucore.movie import Movie

        movie = Movie(path)
        state = movie.get_state()
        if state:
            self.emulator.set_state(state)
        else:
            self.emulator.reset()  # recorded from power-on
        movie.step()  # line 0 is the reset frame: replay it with the buttons released
        self._idle_frame()
        self.player = movie
        self.rewind.clear()
        self.frame = 0
        self.events.frame.emit()
        self.events.movie.emit()

    def stop_movie(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None
            self.events.movie.emit()

    @property
    def movie_state(self) -> str:
        if self.recorder is not None:
            return f"recording {self.recorder.frame_count}"
        if self.player is not None:
            return f"playing {self.player.position}/{self.player.frame_count}"
        return ""
