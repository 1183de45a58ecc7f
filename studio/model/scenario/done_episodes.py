"""The episode movies Suggest takes as game-over examples: listed, left out, added, trimmed. No Qt.

By default these are the movies the session recorded in episode mode that ended at a game over
(:mod:`studio.model.play.episodes`), in the workspace's ``episodes`` folder and every other folder
the session recorded episodes into. The integrator can leave one out (:meth:`EpisodeMovies.remove`),
add a movie of their own (:meth:`~EpisodeMovies.add`) and move an episode's end
(:meth:`~EpisodeMovies.trim`): the movie is cut there, the whole one kept in the folder's
``untrimmed/`` (:meth:`~EpisodeMovies.restore` puts it back). Suggest trims an episode whose game
over began before the mark (:mod:`emucore.assist.done_onset`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from emucore.errors import MovieError
from emucore.fileio import atomic_write_bytes
from emucore.movie.trim import trim_bk2
from studio.model.play.episodes import Trim, ended_at_game_over, ending_of, forget_trim, record_trim, trim_of
from studio.model.play.session import Session

UNTRIMMED = "untrimmed"


@dataclass(frozen=True)
class Episode:
    """One episode movie as the list shows it: ``frames`` (the last one is its game over),
    whether it was recorded by the session or added by hand, and how its end was moved."""

    path: Path
    frames: int
    added: bool
    trim: Trim | None

    def line(self) -> str:
        """``ends at frame 1,183, 264 frames before your mark (found by Suggest): Game-Start-000001.bk2``:
        what matters first, the file last (a list elides the end of a long line)."""
        text = f"ends at frame {self.frames - 1:,}"
        if self.trim is not None and self.trim.marked != self.frames:
            who = {"found": "found by Suggest", "you": "trimmed by you"}.get(self.trim.by, self.trim.by)
            text += f", {self.trim.marked - self.frames:,} frames before your mark ({who})"
        elif self.trim is not None:
            text += ", at your mark (checked by Suggest)"
        return text + (" (added)" if self.added else "") + f": {self.path.name}"


class EpisodeMovies:
    """The episode movies of one session's game, and the lists kept in the done marks' index.

    Args:
        session: The open game.
        write_index: Saves the lists (the done marks' ``index.json`` holds them).
    """

    def __init__(self, session: Session, write_index: Callable[[], None]):
        self.session = session
        self.write_index = write_index
        self.added: list[str] = []  # movies added by hand
        self.removed: list[str] = []  # episode movies left out by hand
        self.folders: list[str] = []  # where the session recorded episodes (besides the default)

    def note_folder(self) -> None:
        """Remembers the folder the session records episodes into now."""
        episodes = self.session.movies.episodes
        if episodes is None:
            return
        folder = str(episodes.folder.resolve())
        if folder not in self.folders and Path(folder) != self.default_folder().resolve():
            self.folders.append(folder)
            self.write_index()

    def default_folder(self) -> Path:
        return Path(self.session.states.workspace) / "episodes"

    def recorded(self) -> list[Path]:
        """The episode movies the session recorded (named ``<game>-<state>-<n>.bk2``) that ended at
        a game over (not those ended by a restart or a stop), but the one being recorded now."""
        recorder = self.session.movies.recorder
        recording = recorder.path.resolve() if recorder is not None else None
        found: list[Path] = []
        for folder in [self.default_folder(), *map(Path, self.folders)]:
            if folder.is_dir():
                found += sorted(p for p in folder.glob(f"{self.session.name}-*-[0-9]*.bk2")
                                if p.resolve() != recording and ended_at_game_over(p))
        return found

    def movies(self) -> list[Path]:
        """The episode movies used as examples: recorded ones not removed, and those added."""
        found = [p for p in self.recorded() if str(p.resolve()) not in self.removed]
        seen = {p.resolve() for p in found}
        return found + [Path(p) for p in self.added if Path(p).is_file() and Path(p).resolve() not in seen]

    def marked(self) -> list[Path]:
        """The movies whose end is a person's game-over mark not looked at yet (Suggest searches
        before their end for where the game over began)."""
        added = {Path(p).resolve() for p in self.added}
        return [p for p in self.movies() if p.resolve() not in added and ending_of(p) == "game over"
                and trim_of(p) is None]

    def episodes(self) -> list[Episode]:
        """Every example movie with its length and how its end was moved, for the list."""
        from emucore.movie import Movie

        added = {Path(p).resolve() for p in self.added}
        rows = []
        for path in self.movies():
            try:
                frames = Movie(path).frame_count
            except MovieError:
                frames = 0
            rows.append(Episode(path, frames, path.resolve() in added, trim_of(path)))
        return rows

    def add(self, path: str | Path) -> None:
        """Uses a movie that ends at a game over as examples."""
        resolved = str(Path(path).resolve())
        if not Path(resolved).is_file():
            raise ValueError(f"{path}: no such movie")
        self.removed = [p for p in self.removed if p != resolved]
        if resolved not in self.added:
            self.added.append(resolved)
        self.write_index()

    def remove(self, path: str | Path) -> None:
        """Leaves a movie out of the examples (one that did not end at a game over)."""
        resolved = str(Path(path).resolve())
        self.added = [p for p in self.added if p != resolved]
        if resolved not in self.removed:
            self.removed.append(resolved)
        self.write_index()

    def trim(self, path: str | Path, frames: int, by: str = "you") -> int:
        """Ends the episode after its first ``frames`` frames (the last one its game over); the
        whole movie is kept in ``untrimmed/``. Returns how many frames it had.

        Raises:
            ValueError: not an episode of the list, or ``frames`` not below its length (the
                message says the range).
        """
        path = Path(path)
        if path.resolve() not in {p.resolve() for p in self.movies()}:
            raise ValueError(f"{path.name} is not one of the episodes")
        keep = path.parent / UNTRIMMED / path.name
        if not keep.exists():
            keep.parent.mkdir(exist_ok=True)
            atomic_write_bytes(keep, path.read_bytes())
        try:
            had = trim_bk2(path, frames)
        except MovieError as exc:
            raise ValueError(str(exc)) from exc
        record_trim(path, had, by)
        return had

    def check(self, path: Path, frames: int) -> None:
        """Writes down that ``path``'s end was searched and is where the game over began."""
        record_trim(path, frames, "checked")

    def restore(self, path: str | Path) -> None:
        """Puts back the whole movie of a trimmed episode (it ends at the mark again)."""
        path = Path(path)
        keep = path.parent / UNTRIMMED / path.name
        if keep.is_file():
            atomic_write_bytes(path, keep.read_bytes())
            keep.unlink()
        forget_trim(path)


__all__ = ["Episode", "EpisodeMovies"]
