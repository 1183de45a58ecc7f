"""A session's movies: recording (from the current state or power-on), playing back read-only, and recording
episodes, one movie each, ended by the scenario's done, a reset or a game-over mark. No Qt.

:class:`SessionMovies` is ``session.movies``: it holds the movie being recorded or played and the episode
recording, and the :class:`~studio.model.play.session.Session` it belongs to, whose emulator runs them, whose
frame loop asks it for the buttons of a movie being played and hands it each frame to record.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from emucore.host.emulator import PLAYERS
from emucore.scenario.loader import GameDataSources, load_game_data
from studio.model.play.episodes import EpisodeRecording, record_ending

if TYPE_CHECKING:  # starting a movie imports emucore.movie; importing this module does not
    from emucore.movie import Movie, MovieRecorder
    from studio.model.play.session import Session


class SessionMovies:
    """The movies of one session (see the module).

    Attributes:
        recorder: The movie being recorded, or None.
        player: The movie being played back (read-only: input is ignored until it ends), or None.
        episodes: The episode recording in progress (one movie per episode), or None.
    """

    def __init__(self, session: Session):
        self.session = session
        self.recorder: MovieRecorder | None = None
        self.player: Movie | None = None
        self.episodes: EpisodeRecording | None = None

    @property
    def active(self) -> bool:
        """A movie is being recorded or played (then the game cannot go backwards)."""
        return self.recorder is not None or self.player is not None

    @property
    def status(self) -> str:
        """What the status line says: ``recording 120``, ``playing 30/600``, or ""."""
        if self.recorder is not None:
            return f"recording {self.recorder.frame_count}"
        if self.player is not None:
            return f"playing {self.player.position}/{self.player.frame_count}"
        return ""

    # ---- recording ----

    def start_recording(self, path: str | os.PathLike[str], *, power_on: bool = False, players: int = 1) -> None:
        from emucore.movie import MovieRecorder

        if self.player is not None:
            raise RuntimeError("stop the movie being played first")
        session = self.session
        if power_on:
            session.emulator.reset()
        self.recorder = MovieRecorder(path, session.emulator, session.name, players=players)
        # Line 0 is the reset frame, which players replay with every button released (as
        # stable-retro's env.reset() runs it): record one such frame before the player's input.
        self.recorder.record_frame([0] * players)
        session.idle_frame()
        session.frame += 1
        session.rewind.clear()
        session.events.frame.emit()
        session.events.movie.emit()

    def stop_recording(self) -> Path | None:
        """Stops recording (an episode recording too); the movie saved, or None."""
        stopped_episode, self.episodes = self.episodes is not None, None
        recorder, self.recorder = self.recorder, None
        path = recorder.close() if recorder is not None else None
        if stopped_episode and path is not None:
            record_ending(path, "stopped")
        self.session.events.movie.emit()
        return path

    # ---- episode recording: one movie per episode, from the loaded state ----

    def start_episode_recording(self, folder: str | os.PathLike[str], players: int = 1) -> None:
        """Records one .bk2 per episode (named as stable-retro names them); an episode ends when
        the scenario's done fires or on reset, and the next starts from the loaded state."""
        session = self.session
        Path(folder).mkdir(parents=True, exist_ok=True)  # the proposed folder need not exist yet
        sources = GameDataSources.of_folder(session.folder)
        # without a scenario nothing can end an episode: no evaluation in the frame loop
        data = None
        if sources.scenario_path is not None:
            data = load_game_data(sources, session.emulator.system, lambda: session.emulator.memory).data
        self.episodes = EpisodeRecording(Path(folder), players, data)
        session.go_to_start()
        self._start_episode()

    def _start_episode(self) -> None:
        episodes = self.episodes
        assert episodes is not None
        self.start_recording(episodes.next_movie(self.session.name, self.session.state_name),
                             players=episodes.players)
        episodes.start_scenario()

    def end_episode_at_game_over(self) -> bool:
        """While recording episodes: this one ends here, at a game over; the next one starts."""
        if self.episodes is None:
            return False
        self.next_episode("game over")
        return True

    def next_episode(self, ending: str) -> None:
        """The episode being recorded ends (``ending`` says why); the next starts from the loaded state."""
        episodes, self.episodes = self.episodes, None
        path = self.stop_recording()
        if path is not None:
            record_ending(path, ending)
        self.session.go_to_start()
        self.episodes = episodes
        self._start_episode()

    # ---- playing back ----

    def play(self, path: str | os.PathLike[str]) -> None:
        """Plays a movie read-only from its start state; input is ignored until it ends."""
        from emucore.movie import Movie

        session = self.session
        movie = Movie(path)
        state = movie.get_state()
        if state:
            session.emulator.set_state(state)
        else:
            session.emulator.reset()  # recorded from power-on
        movie.step()  # line 0 is the reset frame: replay it with the buttons released
        session.idle_frame()
        self.player = movie
        session.rewind.clear()
        session.frame = 0
        session.events.frame.emit()
        session.events.movie.emit()

    def stop_playing(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None
            self.session.events.movie.emit()

    # ---- the session's frame loop ----

    def next_masks(self, held: list[int]) -> list[int] | None:
        """The buttons of the next frame: the movie's being played, else ``held``; None: the movie ended."""
        player = self.player
        if player is None:
            return list(held)
        if not player.step():
            return None
        return [sum(1 << i for i in range(16) if player.get_key(i, p))
                for p in range(player.players)] + [0] * (PLAYERS - player.players)

    def record(self, masks: list[int]) -> None:
        """The buttons of the frame about to run, into the movie being recorded."""
        if self.recorder is not None:
            self.recorder.record_frame(masks[: self.recorder.players])

    def frame_ran(self) -> None:
        """After each frame: the episode being recorded ends where the scenario's done fires."""
        if self.episodes is not None and self.episodes.done():
            self.next_episode("done")

    def close(self) -> None:
        if self.recorder is not None:
            self.stop_recording()
        self.stop_playing()
