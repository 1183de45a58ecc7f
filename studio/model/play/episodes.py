"""The log of how each recorded episode ended. No Qt.

An episode movie is a game-over example for a done rule only when the episode really ended at a
game over: the scenario's done fired, or the integrator said so ("Mark game over" while
recording). One ended by a restart (Ctrl+R) or by stopping the recording is not. The folder's
``episodes.json`` keeps that for each movie; a movie it does not list (stable-retro's
``record=`` movies, which stop at done) counts as a game over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from emucore.fileio import atomic_write_text, read_json
from emucore.scenario.evaluator import Evaluator

LOG = "episodes.json"
GAME_OVER = ("done", "game over")  # the endings that are game overs
ENDINGS = (*GAME_OVER, "restarted", "stopped")


def _read(folder: Path) -> dict[str, str]:
    try:
        raw = read_json(folder / LOG)
        endings = raw.get("endings", {}) if isinstance(raw, dict) else {}
        return {str(k): str(v) for k, v in endings.items()} if isinstance(endings, dict) else {}
    except (OSError, ValueError):  # no log yet, or one that cannot be read: nothing is known
        return {}


def record_ending(movie: Path, ending: str) -> None:
    """Writes down how the episode of ``movie`` ended (one of :data:`ENDINGS`)."""
    if ending not in ENDINGS:
        raise ValueError(f"an episode ends by one of {', '.join(ENDINGS)}, not {ending!r}")
    endings = _read(movie.parent)
    endings[movie.name] = ending
    atomic_write_text(movie.parent / LOG, json.dumps({"endings": endings}, indent=2, sort_keys=True) + "\n")


def ending_of(movie: Path) -> str | None:
    """How the episode of ``movie`` ended, or None when the folder's log does not say."""
    return _read(movie.parent).get(movie.name)


def ended_at_game_over(movie: Path) -> bool:
    """Whether ``movie`` is a game-over example (its ending is a game over, or unknown)."""
    ending = ending_of(movie)
    return ending is None or ending in GAME_OVER


@dataclass
class EpisodeRecording:
    """Recording one movie per episode: the folder, the players, the next movie's number, and the
    scenario whose done ends an episode (None: only a reset or a stop ends one)."""

    folder: Path
    players: int
    data: Evaluator | None
    index: int = 0

    def next_movie(self, game: str, state: str | None) -> Path:
        """The next episode's movie, named as stable-retro names them."""
        path = self.folder / f"{game}-{state or 'power-on'}-{self.index:06d}.bk2"
        self.index += 1
        return path

    def start_scenario(self) -> None:
        """The episode's first evaluation, as env.reset() makes it."""
        if self.data is not None:
            self.data.reset()
            self.data.update_ram()

    def done(self) -> bool:
        """Evaluates the frame just run: whether the scenario's done fired."""
        if self.data is None:
            return False
        self.data.update_ram()
        return self.data.is_done()
