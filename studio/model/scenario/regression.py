"""Scenario regression: movies attached to an integration with the total reward and done frame
they are expected to give; every scenario edit re-checks them.

The list lives in the integration folder as ``regression.json`` (stable-retro ignores it); each
movie is replayed headlessly from its start state by the same evaluator the env uses.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

from emucore import Emulator
from emucore.fileio import atomic_write_text, read_json
from emucore.integration import IntegrationError, find_rom
from emucore.movie import Movie
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.explain import DoneReason
from emucore.scenario.loader import GameDataSources, load_game_data
from studio.model.set_aside import describe

FILE = "regression.json"
STOP_EVERY = 256
"""Lines replayed between two looks at a replay's stop event."""


class ReplayStopped(Exception):
    """A replay's stop event was set (the studio closed, another game was opened): no outcome."""


@dataclass
class Expectation:
    movie: str  # path, relative to the integration folder when inside it
    total_reward: float
    done_frame: int | None  # the first movie line at which done was true, None if never


@dataclass
class Outcome:
    expectation: Expectation
    total_reward: float
    done_frame: int | None
    error: str | None = None
    done_reasons: list[DoneReason] = field(default_factory=list)  # why done fired at done_frame

    @property
    def changed(self) -> bool:
        return self.error is not None or (
            self.total_reward != self.expectation.total_reward or self.done_frame != self.expectation.done_frame
        )


def replay_lines(folder: Path, movie_path: Path, sources: GameDataSources) -> Iterator[tuple[int, Evaluator]]:
    """Replays a movie headlessly from its start state as the env runs it, yielding each line
    after line 0 (the reset frame) with the evaluator built from ``sources``, its memory read after that frame.

    Raises:
        IntegrationError: the folder has no ROM, or ``sources`` cannot be loaded.
    """
    rom = find_rom(folder)
    if rom is None:
        raise IntegrationError(folder, "has no ROM (rom.<ext>)")
    movie = Movie(movie_path)
    with Emulator(rom) as emu:
        emu.step()  # as the env does before it loads the game data
        data = load_game_data(sources, emu.system, lambda: emu.memory).data
        state = movie.get_state()
        if state:
            emu.set_state(state)
        masks = movie.get_masks()
        for player in range(2):
            emu.set_button_mask(0, player)
        emu.step()  # line 0, the reset frame
        data.reset()
        data.update_ram()
        for line in range(1, len(masks)):
            for player, mask in enumerate(masks[line][:2]):
                emu.set_button_mask(int(mask), player)
            emu.step()
            data.update_ram()
            yield line, data


class Replay(NamedTuple):
    total_reward: float  # player 1's
    done_frame: int | None  # the first movie line at which done was true
    done_reasons: list[DoneReason]  # why done was true at that line


def replay(folder: Path, movie_path: Path, scenario: dict | None = None,
           stop: threading.Event | None = None) -> Replay:
    """A movie's total reward, first done line and why, under ``scenario`` (default: the folder's).

    Raises:
        ReplayStopped: ``stop`` was set (looked at every ``STOP_EVERY`` lines).
    """
    total, done_frame = 0.0, None
    reasons: list[DoneReason] = []
    for line, data in replay_lines(folder, movie_path, GameDataSources.of_folder(folder, scenario=scenario)):
        if stop is not None and line % STOP_EVERY == 0 and stop.is_set():
            raise ReplayStopped(movie_path)
        total += data.current_reward()
        if done_frame is None and data.is_done():
            done_frame, reasons = line, data.explain_done()
    return Replay(total, done_frame, reasons)


class RegressionSuite:
    """The expectations of one integration folder."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    @property
    def path(self) -> Path:
        return self.folder / FILE

    def expectations(self) -> list[Expectation]:
        """The attached movies.

        Raises:
            IntegrationError: regression.json cannot be read (it is the integration's: nothing is saved over it).
        """
        if not self.path.exists():
            return []
        try:
            raw = read_json(self.path)
        except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise IntegrationError(self.path, describe(exc)) from None
        movies = raw.get("movies", []) if isinstance(raw, dict) else None
        if not isinstance(movies, list):
            raise IntegrationError(self.path, "must be an object whose 'movies' is a list", "movies")
        for index, entry in enumerate(movies):
            if not _expectation_ok(entry):
                raise IntegrationError(self.path, f"movies[{index}] is not {{movie, total_reward, done_frame}}",
                                       f"movies[{index}]")
        return [Expectation(entry["movie"], entry["total_reward"], entry["done_frame"]) for entry in movies]

    def _save(self, items: list[Expectation]) -> None:
        text = json.dumps({"movies": [asdict(e) for e in items]}, indent=2, sort_keys=True) + "\n"
        atomic_write_text(self.path, text)

    def attach(self, movie_path: Path) -> Expectation:
        """Adds a movie with what the current scenario gives as its expectation."""
        total, done, _ = replay(self.folder, movie_path)
        movie = Path(movie_path)
        name = str(movie.relative_to(self.folder)) if movie.is_relative_to(self.folder) else str(movie)
        expectation = Expectation(name, total, done)
        self._save([e for e in self.expectations() if e.movie != name] + [expectation])
        return expectation

    def detach(self, movie: str) -> None:
        self._save([e for e in self.expectations() if e.movie != movie])

    def check(self, scenario: dict | None = None, stop: threading.Event | None = None) -> list[Outcome]:
        """Replays every movie under ``scenario`` (default: the folder's) against its expectation.

        Raises:
            ReplayStopped: ``stop`` was set (a check on a worker thread is cancelled).
        """
        outcomes = []
        for expectation in self.expectations():
            path = self.folder / expectation.movie
            try:
                if stop is not None and stop.is_set():
                    raise ReplayStopped(path)
                total, done, reasons = replay(self.folder, path, scenario, stop)
                outcomes.append(Outcome(expectation, total, done, done_reasons=reasons))
            except ReplayStopped:
                raise
            except Exception as exc:  # a broken movie or scenario is a result to show, not a crash
                outcomes.append(Outcome(expectation, float("nan"), None, f"{type(exc).__name__}: {exc}"))
        return outcomes


def _expectation_ok(entry: object) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("movie"), str):
        return False
    reward, done = entry.get("total_reward"), entry.get("done_frame")
    return (isinstance(reward, int | float) and not isinstance(reward, bool)
            and (done is None or (isinstance(done, int) and not isinstance(done, bool))))
