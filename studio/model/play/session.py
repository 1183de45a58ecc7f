"""The game being played in the studio: emulator, input, speed, rewind, states and movies. No Qt.

The Qt window calls :meth:`Session.tick` from its timer; a pure clock says how many frames are
due. Everything the views show is read from here, and they are told about changes through the
signals of ``events`` (:class:`SessionEvents`), so they never poke each other. Files that cannot
be read on open (a state, metadata.json, the workspace) are in ``problems``; the game opens anyway.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from emucore import Emulator
from emucore.errors import EmucoreError
from emucore.host.emulator import PLAYERS
from emucore.integration import find_rom, read_state_file
from emucore.paths import studio_data_dir
from emucore.systems import System
from studio.model.events import Connections
from studio.model.opening import integration_folder_for, metadata_problems
from studio.model.play.clock import FrameClock
from studio.model.play.rewind import RewindBuffer
from studio.model.play.session_events import SessionEvents
from studio.model.play.session_movies import SessionMovies
from studio.model.play.states import StateLibrary
from studio.model.set_aside import OpenProblem, problem_of

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 0.0)  # 0: as fast as the machine goes
REWIND_EVERY = 2  # frames between rewind states: half the serialization cost, 2-frame granularity
AUDIO_QUEUE_FRAMES = 30


class Session:
    """One game in the studio (its movies and episode recording: ``movies``, a :class:`SessionMovies`)."""

    def __init__(self, rom_path: str | os.PathLike[str], state_path: str | os.PathLike[str] | None = None,
                 core: str | None = None, *, rewind_seconds: int = 20):
        rom = Path(rom_path)
        self.folder, self.created = integration_folder_for(rom)
        self.emulator = Emulator(find_rom(self.folder) or rom, core=core)
        self.name = self.folder.name
        self.events = SessionEvents()
        self.notice = ""
        self.problems: list[OpenProblem] = metadata_problems(self.folder, state_given=state_path is not None)
        self.states = StateLibrary(self.folder, studio_data_dir() / "workspaces" / self.name, report=self.report)
        self.state_name: str | None = None
        if state_path is not None:
            try:
                self.emulator.load_state_file(state_path)
                self.state_name = Path(state_path).stem
            except EmucoreError as exc:  # the integration's file: reported, left in place
                self.problems.append(problem_of(exc, state_path, "the game starts at power-on"))
                self.emulator.reset()
        self.start_state = self.emulator.get_state()  # what Ctrl+R goes back to: the state last loaded or made default
        self._default_name = self.states.default_state
        self._connections = Connections()
        self._connections.connect(self.states.events.changed, self._default_changed)
        self.clock = FrameClock(fps := self.emulator.get_screen_rate())
        self.rewind = RewindBuffer(max_states=int(rewind_seconds * fps / REWIND_EVERY))
        self.paused = False
        self.rewinding = False
        self.frame = 0
        self.held = [0] * PLAYERS
        self.audio: deque[np.ndarray] = deque(maxlen=AUDIO_QUEUE_FRAMES)
        self.movies = SessionMovies(self)
        self._picture: np.ndarray | None = None  # the frame drawn for a state just set, until the next frame runs
        self._draw_current_state()

    def report(self, problem: OpenProblem) -> None:
        """A file that could not be read: kept in ``problems`` and told through ``events.problem`` (once)."""
        if problem not in self.problems:
            self.problems.append(problem)
            self.events.problem.emit(problem)

    def _say(self, notice: str) -> None:
        self.notice = notice
        self.events.notice.emit(notice)

    def _draw_current_state(self, state: bytes | None = None) -> None:
        """The core draws only when it runs: one idle frame paints the state now set (``state``, when the
        caller has it at hand), which is then put back. The picture is kept (see :meth:`scratch`)."""
        if state is None:
            state = self.emulator.get_state()
        self.idle_frame()
        self._picture = self.emulator.get_frame()
        self.emulator.set_state(state)

    @contextmanager
    def scratch(self) -> Iterator[Emulator]:
        """For work that loads other states into the emulator and puts this one back (the solvers,
        the poke test): the picture stays the one shown, although some cores (Genesis Plus GX)
        clear their frame buffer when a state is loaded."""
        picture = self.screen().copy()
        try:
            yield self.emulator
        finally:
            self._picture = picture

    def idle_frame(self) -> None:
        """One frame with every button released (a movie's line 0, or the frame that paints a state)."""
        for player in range(PLAYERS):
            self.emulator.set_button_mask(0, player)
        self.emulator.step()
        self._picture = None

    @property
    def system(self) -> System:
        return self.emulator.system

    @property
    def speed(self) -> float:
        return self.clock.speed

    def set_speed(self, speed: float) -> None:
        """A multiple of the core's frame rate; 0 runs unbounded."""
        self.clock.speed = speed if speed > 0 else 1000.0
        self.clock.max_burst = 4 if speed <= 1 else 64 if speed > 0 else 512
        self.clock.restart()
        self.events.speed_changed.emit()

    # ---- input ----

    def set_buttons(self, player: int, mask: int) -> None:
        self.held[player] = mask & 0xFFFF

    # ---- running ----

    def tick(self) -> int:
        """Runs (or rewinds) the frames the clock says are due; returns how many."""
        if self.paused:
            return 0
        due = self.clock.due()
        if due and self.rewinding:
            done = self.rewind_frames(due)
            if not done:
                self.set_paused(True)
            return done
        if due:
            self.advance(due)
        return due

    def advance(self, frames: int = 1) -> None:
        """Runs ``frames`` frames with the held buttons (or the movie's), whether paused or not."""
        emulator, movies = self.emulator, self.movies
        for _ in range(frames):
            masks = movies.next_masks(self.held)
            if masks is None:  # the movie being played ended
                movies.stop_playing()
                self.set_paused(True)
                break
            for player, mask in enumerate(masks):
                emulator.set_button_mask(mask, player)
            movies.record(masks)
            emulator.step()
            self._picture = None
            self.frame += 1
            self.events.after_frame.emit()
            self.audio.append(emulator.get_audio())
            movies.frame_ran()
            if self.frame % REWIND_EVERY == 0:
                self.rewind.push(self.frame, emulator.get_state())
        self.events.frame.emit()

    def rewind_frames(self, frames: int) -> int:
        """Goes back about ``frames`` frames; returns how many it went back (0: no history left)."""
        went = 0
        while went < frames:
            popped = self.rewind.pop()
            if popped is None:
                break
            frame, state = popped
            if frame >= self.frame:
                continue  # the frame on screen: nothing to go back to
            went += self.frame - frame
            self.emulator.set_state(state)
            self.frame = frame
        if went:
            self._draw_current_state(state)
            self.events.frame.emit()
        return went

    def set_rewinding(self, on: bool) -> None:
        self.rewinding = on and not self.movies.active  # a movie cannot go backwards
        self.clock.restart()

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if not paused:
            self.clock.restart()
        self.events.pause_toggled.emit()

    def reset_to_start(self) -> None:
        """Back to the state the game was opened with (a new episode when recording episodes)."""
        if self.movies.episodes is not None:
            self.movies.next_episode("restarted")
            return
        self.go_to_start()

    def go_to_start(self) -> None:
        """Back to the state the game was opened with, at frame 0 (the episode being recorded goes on)."""
        self.emulator.set_state(self.start_state)
        self.frame = 0
        self.rewind.clear()
        self._draw_current_state(self.start_state)
        self.events.frame.emit()

    def hard_reset(self) -> None:  # the console's reset button
        self.emulator.reset()
        self.rewind.clear()
        self._draw_current_state()
        self.events.frame.emit()
        self._say("console reset")

    # ---- states ----

    def save_state(self, name: str) -> None:
        self.states.save(name, self.emulator.get_state(), self.frame, self.screen())
        self._say(f"saved state {name}")

    def load_state(self, name: str) -> None:
        self._load(self.states.load(name), f"state {name}")
        self.state_name = name

    def _default_changed(self) -> None:
        """A state just made the default is what Ctrl+R goes back to from now on."""
        name = self.states.default_state
        if name is not None and name != self._default_name:
            self._default_name = name
            try:
                self.start_state, self.state_name = self.states.load(name), name
                self._say(f"Ctrl+R now goes back to {name}")
            except (EmucoreError, OSError) as exc:
                self._say(f"the default state {name} cannot be read: {exc}")

    def save_slot(self, slot: int) -> None:
        self.states.save_slot(slot, self.emulator.get_state(), self.frame, self.screen())
        self._say(f"saved slot {slot}")

    def load_slot(self, slot: int) -> bool:
        state = self.states.load_slot(slot)  # one that cannot be read is set aside, and reported
        try:
            if state is not None:
                self._load(state, f"slot {slot}")
                return True
        except EmucoreError as exc:  # the core refused it
            self.states.reject_slot(slot, exc)
        self._say(f"slot {slot} is empty")
        return False

    def load_state_file(self, path: str | os.PathLike[str]) -> None:
        self._load(read_state_file(Path(path)), str(path))

    def _load(self, state: bytes, what: str) -> None:
        """Loads ``state``, which also becomes the reset target, and repaints at once (paused or not)."""
        self.emulator.set_state(state)
        self.start_state = state
        self.rewind.clear()
        self._draw_current_state(state)
        self.events.frame.emit()
        self._say(f"loaded {what}")

    def screen(self) -> np.ndarray:
        """The picture to show: the last frame run, or the one drawn for a state just loaded."""
        return self.emulator.get_frame() if self._picture is None else self._picture

    def close(self) -> None:
        self._connections.disconnect_all()
        self.movies.close()
        self.emulator.close()
