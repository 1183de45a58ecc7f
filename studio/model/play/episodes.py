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


def _log(folder: Path) -> dict[str, dict[str, object]]:
    """The folder's log: ``{"endings": {movie: ending}, "trims": {movie: {"marked": frames, "by": who}}}``."""
    try:
        raw = read_json(folder / LOG)
    except (OSError, ValueError):  # no log yet, or one that cannot be read: nothing is known
        return {"endings": {}, "trims": {}}
    raw = raw if isinstance(raw, dict) else {}
    return {key: dict(raw[key]) if isinstance(raw.get(key), dict) else {} for key in ("endings", "trims")}


def _write(folder: Path, log: dict[str, dict[str, object]]) -> None:
    atomic_write_text(folder / LOG, json.dumps(log, indent=2, sort_keys=True) + "\n")


def _read(folder: Path) -> dict[str, str]:
    return {str(k): str(v) for k, v in _log(folder)["endings"].items()}


def record_ending(movie: Path, ending: str) -> None:
    """Writes down how the episode of ``movie`` ended (one of :data:`ENDINGS`)."""
    if ending not in ENDINGS:
        raise ValueError(f"an episode ends by one of {', '.join(ENDINGS)}, not {ending!r}")
    log = _log(movie.parent)
    log["endings"][movie.name] = ending
    _write(movie.parent, log)


def ending_of(movie: Path) -> str | None:
    """How the episode of ``movie`` ended, or None when the folder's log does not say."""
    return _read(movie.parent).get(movie.name)


@dataclass(frozen=True)
class Trim:
    """An episode whose end was moved: it had ``marked`` frames (it ended at the mark), and
    ``by`` says who moved it: ``"found"`` (Suggest found where the game over began), ``"you"``
    (Trim), or ``"checked"`` (searched, and the game over began at the mark: not cut)."""

    marked: int
    by: str


TRIMMED_BY = ("found", "you", "checked")


def record_trim(movie: Path, marked: int, by: str) -> None:
    """Writes down that ``movie``'s end was looked at or moved (the first record keeps ``marked``)."""
    if by not in TRIMMED_BY:
        raise ValueError(f"an episode is trimmed by one of {', '.join(TRIMMED_BY)}, not {by!r}")
    log = _log(movie.parent)
    earlier = trim_of(movie)
    log["trims"][movie.name] = {"marked": earlier.marked if earlier else int(marked), "by": by}
    _write(movie.parent, log)


def forget_trim(movie: Path) -> None:
    log = _log(movie.parent)
    if log["trims"].pop(movie.name, None) is not None:
        _write(movie.parent, log)


def trim_of(movie: Path) -> Trim | None:
    """How ``movie``'s end was moved, or None when it was not looked at."""
    entry = _log(movie.parent)["trims"].get(movie.name)
    if not isinstance(entry, dict):
        return None
    marked, by = entry.get("marked"), entry.get("by")
    if isinstance(marked, bool) or not isinstance(marked, int) or by not in TRIMMED_BY:
        return None
    return Trim(marked, str(by))


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
