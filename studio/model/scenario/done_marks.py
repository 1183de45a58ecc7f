"""Alive and game-over examples of the open game, and the done rule they suggest. No Qt.

:class:`DoneMarks` keeps the moments the integrator marked as *alive* or *game over* (the
emulator's state with the session's frame number) in the studio's workspace for the game
(``done_marks/alive-000123.state`` and ``done_marks/index.json``), so they survive a restart.
Episode movies (by default the ones the session recorded in episode mode, each ending at a
game over) are examples too. :meth:`DoneMarks.suggest` ranks done rules with
:func:`emucore.assist.done_rules`; :meth:`~DoneMarks.preview` replays the regression movies
under a rule (:mod:`studio.model.scenario.done_rule`); :meth:`~DoneMarks.accept` writes it.

>>> import shutil
>>> from emucore.paths import integrations_dir
>>> from studio.model.opening import resolve_game
>>> from studio.model.play.session import Session
>>> folder = shutil.copytree(integrations_dir() / "StudioDemo-Nes", "StudioDemo-Nes")   # a copy to edit
>>> session = Session(*resolve_game(folder, None))
>>> marks = DoneMarks(session)
>>> session.advance(850); alive = marks.mark_alive()     # still playing (the demo's game is over at frame 900)
>>> session.advance(100); over = marks.mark_over()
>>> rules = marks.suggest()
>>> rules[0].done
{'variables': {'game_over': {'op': 'nonzero'}}}
>>> marks.preview(rules[0])                                # where it fires on each regression movie: none here
[]
>>> accepted = marks.accept(rules[0])                      # scenario.json's done is now the rule
>>> accepted.previous
{'variables': {'lives': {'op': 'equal', 'reference': 0}}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from emucore.assist import DoneRule, done_rules, episode_examples
from emucore.assist.done_examples import DoneExamples
from emucore.assist.done_suggestion import DoneRules
from emucore.errors import EmucoreError
from emucore.fileio import atomic_write_bytes, atomic_write_text
from emucore.integration import DATA_FILE, read_data_file, read_state_file, write_state_file
from emucore.integration.datafile import data_entry
from emucore.search.state_snapshots import snapshots_of
from studio.model.events import Connections
from studio.model.play import play_history
from studio.model.play.session import Session
from studio.model.png import decode_png, encode_png
from studio.model.scenario.done_ends import (
    MOVIE_MARGIN,
    PLAY_MARGIN,
    STATE_EVERY,
    WINDOW,
    settle_ends,
    short_movies,
    sum_examples,
)
from studio.model.scenario.done_episodes import EpisodeMovies
from studio.model.scenario.done_rule import Accepted, Preview, accept_rule, preview_rule
from studio.model.set_aside import describe, read_owned_json, set_aside_problem

if TYPE_CHECKING:
    from studio.model.scenario.scenario_doc import ScenarioDocument
    from studio.model.variables.watch import Watch

FOLDER = "done_marks"
INDEX = "index.json"
KINDS = ("alive", "over")
MARK_FILE = re.compile(r"^(alive|over)-\d{6,}(-\d+)?\.state$")
PLAY_FILE = re.compile(r"^play-\d{6,}(-\d+)?\.npz$")
NO_RULE = ("no rule separates the examples: an episode or a game-over mark may end while the game still runs, "
           f"or more than {WINDOW // 60} s after the game over began. Look at the episodes (Trim one to where its "
           "game over began, or Remove it) and the marks, or mark alive moments right before the game over")


@dataclass(frozen=True)
class Mark:
    """A marked moment: ``kind`` is ``alive`` or ``over``; ``file`` is in the marks folder."""

    kind: str
    file: str
    frame: int
    play: str | None = None  # the play before a game over (:mod:`studio.model.play.play_history`)
    onset: int | None = None  # the frame of the play where the game over began (searched by Suggest)
    ended: str | None = None  # the episode movie it ended (while recording): that movie is its example


class DoneMarks:
    """The done examples of one session's game.

    Args:
        session: The open game; marks live in ``session.states.workspace / "done_marks"``.
    """

    def __init__(self, session: Session):
        self.session = session
        self.folder = Path(session.states.workspace) / FOLDER
        self.marks: list[Mark] = []
        self.episodes = EpisodeMovies(session, self._write_index)
        self._states: dict[str, bytes] = {}
        self._read_index()
        self.episodes.note_folder()
        self._connections = Connections()
        self._connections.connect(session.events.movie, self.episodes.note_folder)

    def close(self) -> None:
        self._connections.disconnect_all()

    # ---- the index ----

    @property
    def index_path(self) -> Path:
        return self.folder / INDEX

    def _read_index(self) -> None:
        path = self.index_path
        raw = read_owned_json(path, self.session.report, "the done marks are forgotten")
        if raw is None:
            return
        marks = raw.get("marks", [])
        good = [m for m in marks if _mark_ok(m)] if isinstance(marks, list) else []
        self.marks = [Mark(m["kind"], m["file"], m["frame"], m.get("play"), m.get("onset"), m.get("ended"))
                      for m in good]
        bad = not isinstance(marks, list) or len(good) != len(marks)
        lists = {key: raw.get(key, []) for key in ("movies", "removed", "episode_folders")}
        for key, value in lists.items():
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                lists[key], bad = [], True
        self.episodes.added, self.episodes.removed = lists["movies"], lists["removed"]
        self.episodes.folders = lists["episode_folders"]
        if bad:
            problem = "some entries are not {kind, file, frame} marks or lists of paths"
            self.session.report(set_aside_problem(path, problem, "the other entries are kept"))
            self._write_index()

    def _write_index(self) -> None:
        episodes = self.episodes
        index = {"marks": [m.__dict__ for m in self.marks], "movies": episodes.added, "removed": episodes.removed,
                 "episode_folders": episodes.folders}
        atomic_write_text(self.index_path, json.dumps(index, indent=2, sort_keys=True) + "\n")

    # ---- marks ----

    def count(self, kind: str) -> int:
        return sum(m.kind == kind for m in self.marks)

    def mark_alive(self) -> Mark:
        """The game now is running: an example the rule must be false on."""
        return self._mark("alive")

    def mark_over(self) -> Mark:
        """The game now is over (the first frame of it): an example the rule must be true on.
        While episodes are recorded, the episode ends here too (its movie is a game-over example)."""
        movies = self.session.movies
        recorder = movies.recorder if movies.episodes is not None else None
        mark = self._mark("over", ended=str(recorder.path.resolve()) if recorder is not None else None)
        if movies.episodes is not None:
            self.episodes.note_folder()
            movies.end_episode_at_game_over()
        return mark

    def _mark(self, kind: str, ended: str | None = None) -> Mark:
        state = self.session.emulator.get_state()
        frame = int(self.session.frame)
        name, n = f"{kind}-{frame:06d}.state", 2
        taken = {m.file for m in self.marks}
        while name in taken or (self.folder / name).exists():
            name, n = f"{kind}-{frame:06d}-{n}.state", n + 1
        write_state_file(self.folder / name, state)
        try:
            atomic_write_bytes(self.folder / _picture_name(name), encode_png(self.session.screen()))
        except OSError:
            pass  # the mark stands without its thumbnail
        mark = Mark(kind, name, frame, self._keep_play(name, state, frame) if kind == "over" else None, ended=ended)
        self.marks.append(mark)
        self._states[name] = state
        self._write_index()
        return mark

    def _keep_play(self, name: str, state: bytes, frame: int) -> str | None:
        """Keeps the rewind history before a game over as its episode (not while episodes are
        recorded: the episode movie holds the same play); returns the file's name."""
        if self.session.movies.episodes is not None or len(self.session.rewind) < 2:
            return None
        earlier = max((m.frame for m in self.marks if m.kind == "over" and m.frame < frame), default=-1)
        whole: list[tuple[int, bytes]] = []  # whole states of the last seconds, for Suggest's controller test

        def states() -> Iterator[tuple[int, bytes]]:  # one pass over the rewind history (it decompresses)
            for f, s in self.session.rewind.states():
                if f > earlier:  # not through an earlier game over
                    if frame - WINDOW <= f and (frame - f) % STATE_EVERY == 0:
                        whole.append((f, s))
                    yield f, s

        with self.session.scratch() as emulator:
            frames, rows = play_history.capture(emulator, states(), state, frame)
        if len(rows) < 2:
            return None
        play = "play-" + name[len("over-"):-len(".state")] + ".npz"
        play_history.save(self.folder / play, frames, rows, whole)
        return play

    def remove(self, mark: Mark) -> None:
        """Forgets a mark and deletes its state file (and its play)."""
        self.marks = [m for m in self.marks if m != mark]
        self._states.pop(mark.file, None)
        (self.folder / mark.file).unlink(missing_ok=True)
        (self.folder / _picture_name(mark.file)).unlink(missing_ok=True)
        if mark.play:
            (self.folder / mark.play).unlink(missing_ok=True)
        self._write_index()

    def clear(self, kind: str | None = None) -> None:
        """Forgets every mark (of ``kind``, when given)."""
        for mark in [m for m in self.marks if kind is None or m.kind == kind]:
            self.remove(mark)

    def _state(self, mark: Mark) -> bytes | None:
        """The mark's state; None when its file cannot be read (then it is set aside, reported, forgotten)."""
        if mark.file not in self._states:
            path = self.folder / mark.file
            try:
                self._states[mark.file] = read_state_file(path)
            except (EmucoreError, OSError) as exc:
                self.session.report(set_aside_problem(path, exc, f"the {mark.kind} mark at frame {mark.frame} "
                                                      "is forgotten"))
                self.marks = [m for m in self.marks if m != mark]
                self._write_index()
                return None
        return self._states[mark.file]

    def picture(self, mark: Mark) -> np.ndarray | None:
        """The screen when ``mark`` was made (None when it was not kept or cannot be read)."""
        try:
            return decode_png((self.folder / _picture_name(mark.file)).read_bytes())
        except (OSError, ValueError):
            return None

    def states(self, kind: str) -> list[bytes]:
        """The states of the readable marks of ``kind``, in marking order."""
        found = [self._state(m) for m in list(self.marks) if m.kind == kind]
        return [s for s in found if s is not None]

    # ---- episode movies (:class:`EpisodeMovies`) ----

    def movies(self) -> list[Path]:
        return self.episodes.movies()

    def add_movie(self, path: str | Path) -> None:
        self.episodes.add(path)

    def remove_movie(self, path: str | Path) -> None:
        self.episodes.remove(path)

    def move_over(self, mark: Mark, onset: int) -> None:
        """The game over of ``mark`` (one with its play) began at frame ``onset`` of the play."""
        self.marks = [Mark(m.kind, m.file, m.frame, m.play, onset, m.ended) if m == mark else m for m in self.marks]
        self._write_index()

    # ---- rules ----

    def data_variables(self) -> dict[str, dict[str, Any]]:
        """data.json's variables as ``{name: {"address", "type"[, "mask"]}}`` (``{}`` without the file)."""
        # IntegrationError (a ValueError) names the file
        variables = read_data_file(self.session.folder / DATA_FILE, missing_ok=True).variables
        return {name: data_entry(v) for name, v in variables.items()}

    def plays(self) -> list[tuple[Mark, list[Any]]]:
        """The kept play of each game-over mark that has one (a file that cannot be used is set
        aside and reported; its mark stays, as a plain game-over example)."""
        found = []
        for mark in [m for m in self.marks if m.kind == "over" and m.play]:
            path = self.folder / str(mark.play)
            try:
                snaps = play_history.load(path, self.session.emulator)
                if mark.onset is not None:  # the game over began before the mark: the play ends there
                    snaps = [snap for snap in snaps if snap.frame is not None and snap.frame <= mark.onset]
                found.append((mark, snaps))
            except ValueError as exc:
                self.session.report(set_aside_problem(path, exc, f"the game over at frame {mark.frame} is used "
                                                      "without the play before it"))
                self.marks = [Mark(m.kind, m.file, m.frame, ended=m.ended) if m == mark else m for m in self.marks]
                self._write_index()
        return found

    def suggest(self, limit: int = 10) -> DoneRules:
        """Done rules true on every game-over example and false on every alive one, best first
        (the engine's robustness order), with the ``warnings`` that hold for all of them.

        The evidence: the marks; the play kept before each marked game over and the episode
        movies, every frame of which but the last second before the game over is alive.

        Raises:
            ValueError: no game-over example, no alive example, no rule separates them, or a
                file (data.json, a movie, a state) cannot be used.
        """
        alive = self.states("alive")
        data = self.data_variables()
        with self.session.scratch() as emulator:
            notes = settle_ends(self, emulator, alive, data)
        movies, short = short_movies(self.movies())
        plays = self.plays()
        over = [s for m in self.marks if m.kind == "over" and not m.play and not (m.ended and Path(m.ended).exists())
                and (s := self._state(m)) is not None]
        if not over and not movies and not plays:
            raise ValueError("; ".join(["no game-over example yet: play to the game over and mark it (Mark game "
                                        "over), or record episodes that end at a game over", *short]))
        if not alive and not movies and not plays:
            raise ValueError("; ".join(["no alive example yet: mark moments where the game is running (Mark "
                                        "alive), e.g. right before the game over", *short]))
        with self.session.scratch() as emulator:  # the replays load other states: the picture stays
            try:
                recorded = self._movie_examples(emulator, movies)
            except (EmucoreError, OSError) as exc:
                raise ValueError(f"an episode movie cannot be used: {describe(exc)}") from exc
            over = _not_in(emulator, over, recorded)
            kept = [episode_examples(emulator, [snaps], margin=min(PLAY_MARGIN, len(snaps) - 2))
                    for _, snaps in plays]
            episodes = sum_examples([*kept, *([recorded] if recorded else [])])
            rules = _rules(emulator, alive, over, episodes, data, limit)
            if not rules and plays:  # the kept play disagrees with the marks: the marks win, and it is said
                plain = [s for m, _ in plays if (s := self._state(m)) is not None]
                rules = _rules(emulator, alive, over + plain, recorded, data, limit)
                frames = ", ".join(str(m.frame) for m, _ in plays)
                rules.warnings.insert(0, f"no rule separates the play kept before the game over at frame {frames} "
                                      "from the marks: it is left out (did the play go through an earlier game "
                                      "over, or is an alive mark past the game over?)")
        if not rules:
            raise ValueError(NO_RULE)
        unique: dict[str, DoneRule] = {}  # a byte's "nonzero" and "not-equal 0" write the same rule
        for rule in rules:
            unique.setdefault(json.dumps([rule.variables, rule.done], sort_keys=True), rule)
        return DoneRules(unique.values(), rules.warnings + short, notes)

    @staticmethod
    def _movie_examples(emulator: Any, movies: list[Path]) -> DoneExamples | None:
        if not movies:
            return None
        try:
            return episode_examples(emulator, movies, margin=MOVIE_MARGIN)
        except ValueError:  # a movie shorter than the margin: take every movie without one
            return episode_examples(emulator, movies)

    def preview(self, rule: DoneRule) -> list[Preview]:
        """Each regression movie's first frame where ``rule`` fires, beside its expected done frame."""
        return preview_rule(self.session.folder, rule)

    def accept(self, rule: DoneRule, *, doc: ScenarioDocument | None = None,
               watch: Watch | None = None) -> Accepted:
        """Writes the rule's new variables into data.json and makes it scenario.json's ``done``
        (through ``watch`` and ``doc`` when given, so their views reload)."""
        return accept_rule(self.session.folder, rule, doc=doc, watch=watch)


def _rules(emulator: Any, alive: list[bytes], over: list[bytes], episodes: DoneExamples | None,
           data: dict[str, Any], limit: int) -> DoneRules:
    try:
        return done_rules(emulator, alive, over, episodes=episodes, data=data, limit=limit)
    except ValueError as exc:
        if "at least one alive" not in str(exc):
            raise
        raise ValueError("no moment of play before the game over to compare it with (did the episode end right "
                         "after a restart?): mark alive moments while the game runs, or record an episode that "
                         "plays before its game over") from exc


def _not_in(emulator: Any, over: list[bytes], recorded: DoneExamples | None) -> list[bytes]:
    """The game-over marks that are not the end of an episode movie (marking a game over while
    episodes are recorded ends the episode there: the same game over, not a second one)."""
    if recorded is None or not over:
        return over
    ends = [snap.buf for snap in recorded.over]
    snaps = list(snapshots_of(emulator, over, "game-over mark"))
    return [state for state, snap in zip(over, snaps) if not any(np.array_equal(snap.buf, end) for end in ends)]


def _picture_name(state_file: str) -> str:
    return state_file[: -len(".state")] + ".png"


def _mark_ok(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    kind, file, frame, play = entry.get("kind"), entry.get("file"), entry.get("frame"), entry.get("play")
    if play is not None and (kind != "over" or not isinstance(play, str) or not PLAY_FILE.match(play)):
        return False
    if entry.get("ended") is not None and not isinstance(entry.get("ended"), str):
        return False
    onset = entry.get("onset")
    if onset is not None and (play is None or isinstance(onset, bool) or not isinstance(onset, int) or onset < 0):
        return False
    return (kind in KINDS and isinstance(file, str) and bool(MARK_FILE.match(file)) and file.startswith(kind)
            and isinstance(frame, int) and not isinstance(frame, bool) and 0 <= frame < 1 << 62)


__all__ = ["DoneMarks", "Mark"]
