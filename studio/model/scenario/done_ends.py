"""Where each marked game over began: the ends of episodes moved before Suggest ranks rules. No Qt.

A person marks a game over on seeing it, often seconds after the game decided it. Before the
rules are ranked, :func:`settle_ends` looks at the last :data:`WINDOW` frames before each mark
not looked at yet (an episode movie that a "Mark game over" ended, and the play kept before a
game-over mark) for the frame from which the end state lasted until the mark
(:func:`emucore.assist.done_onset.find_onsets`), and moves the episode's end there: the movie
is trimmed (the whole one kept, :class:`~studio.model.scenario.done_episodes.EpisodeMovies`),
the mark's play ends there. Each move is said, with the rule it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.assist import episode_examples
from emucore.assist.done_examples import DoneExamples
from emucore.assist.done_onset import WINDOW, MovieStates, OnsetStates, find_onsets
from emucore.assist.findings import REACTION_FRAMES
from emucore.errors import EmucoreError
from emucore.movie import Movie
from emucore.search import Snapshot
from emucore.search.movies import MaskReplay
from studio.model.play import play_history

if TYPE_CHECKING:
    from studio.model.scenario.done_marks import DoneMarks, Mark

# Frames of an episode movie before its marked game over that are neither alive nor over: a mark
# made on seeing "GAME OVER" comes a little late (the check calls done firing there reaction time).
MOVIE_MARGIN = REACTION_FRAMES
PLAY_MARGIN = REACTION_FRAMES // 2  # likewise, in moments of kept play (every other frame)
STATE_EVERY = 12  # frames between the whole states kept with a play (its last WINDOW frames)


@dataclass(frozen=True)
class PlayStates:
    """The whole states kept with a mark's play, for the controller test (:class:`OnsetStates`)."""

    snaps: list[Snapshot]  # the play, every other frame, the mark last
    states: list[tuple[int, bytes]]

    def state_at(self, before: int) -> tuple[bytes, int] | None:
        onset, mark = self.snaps[-1 - before].frame, self.snaps[-1].frame
        if onset is None or mark is None:
            return None
        later = [(f, s) for f, s in self.states if onset <= f < mark]
        return (later[0][1], mark - later[0][0]) if later else None


def sum_examples(parts: list[DoneExamples]) -> DoneExamples | None:
    """Every part's episodes together (None without any)."""
    total = None
    for part in parts:
        total = part if total is None else total + part
    return total


def _settled(marks: DoneMarks, emulator: Any, searched: set[Any], plays: list[tuple[Mark, list[Snapshot]]]
             ) -> DoneExamples | None:
    """The episodes whose ends are settled, with the usual margins (evidence for the search)."""
    parts = []
    for path in marks.movies():
        if path.resolve() in searched:
            continue
        try:
            parts.append(episode_examples(emulator, [path], margin=min(MOVIE_MARGIN, Movie(path).frame_count - 2)))
        except (EmucoreError, OSError, ValueError):
            continue  # Suggest itself says what is wrong with the movie
    for mark, snaps in plays:
        if mark.onset is not None and len(snaps) >= 2:
            parts.append(episode_examples(emulator, [snaps], margin=min(PLAY_MARGIN, len(snaps) - 2)))
    return sum_examples(parts)


def short_movies(movies: list[Path]) -> tuple[list[Path], list[str]]:
    """The movies long enough to be an episode (a reset frame, a frame of play, the game over),
    and a warning for each one left out (ended right after it began: a restart, a mark at once)."""
    kept, said = [], []
    for path in movies:
        try:
            frames = Movie(path).frame_count
        except EmucoreError:
            kept.append(path)  # Suggest says what is wrong with it
            continue
        if frames >= 3:
            kept.append(path)
        else:
            said.append(f"{path.name} is left out: it has {frames} frame{'s' if frames != 1 else ''} (did it end "
                        "right after a restart?); record an episode that plays before its game over, or mark alive "
                        "moments while the game runs")
    return kept, said


def settle_ends(marks: DoneMarks, emulator: Any, alive: list[bytes], data: dict[str, Any]) -> list[str]:
    """Moves the end of every episode not looked at yet to where its game over began; returns
    what was found, one line per moved end (and the rule it rests on)."""
    movies = []
    for path in marks.episodes.marked():
        try:
            frames = Movie(path).frame_count
        except EmucoreError:
            continue
        if frames >= 3:
            movies.append((path, frames))
    loaded = marks.plays()
    plays = [(mark, snaps) for mark, snaps in loaded if mark.onset is None and len(snaps) >= 3]
    if not movies and not plays:
        return []
    parts = [episode_examples(emulator, [path], margin=min(WINDOW, frames - 2)) for path, frames in movies]
    parts += [episode_examples(emulator, [snaps], margin=min(WINDOW // 2, len(snaps) - 2)) for _, snaps in plays]
    states: list[OnsetStates | None] = [  # one per searched episode, in their order
        MovieStates(emulator, replay) if isinstance(replay := part.alive.replays[0], MaskReplay) else None
        for part in parts[: len(movies)]]
    states += [PlayStates(snaps, play_history.load_states(marks.folder / str(mark.play))) for mark, snaps in plays]
    searched = sum_examples(parts)
    assert searched is not None
    others = _settled(marks, emulator, {path.resolve() for path, _ in movies}, loaded)
    try:
        onsets = find_onsets(emulator, searched, others, alive, data=data, states=states)
    except (EmucoreError, ValueError):
        return []  # Suggest itself says what is wrong with the evidence
    if onsets.rule is None:
        return []  # nothing holds at every mark: Suggest says so, and the ends stay where they were
    notes = []
    for (path, frames), before in zip(movies, onsets.frames_before):
        if before:
            marks.episodes.trim(path, frames - before, by="found")
            notes.append(f"{path.name}: the game over began {before:,} frames before your mark: "
                         "ended the episode there")
        else:
            marks.episodes.check(path, frames)
    for (mark, snaps), before in zip(plays, onsets.frames_before[len(movies):]):
        onset = snaps[-1 - before].frame
        onset = mark.frame if onset is None else onset
        marks.move_over(mark, onset)
        if onset < mark.frame:
            notes.append(f"game-over mark at frame {mark.frame:,}: the game over began {mark.frame - onset:,} "
                         f"frames before your mark (frame {onset:,}): the play ends there")
    if notes:
        tried = ("and the game no longer answered the controller" if onsets.confirmed else
                 "(the controller could not be tried there: the rule the evidence ranks first)")
        notes.append(f"found where {onsets.rule.describe()} began to hold until the mark {tried}; if the game "
                     "still ran there, mark an alive moment after it (or Restore the episode in the list)")
    return notes


__all__ = ["MOVIE_MARGIN", "PLAY_MARGIN", "STATE_EVERY", "WINDOW", "PlayStates", "settle_ends", "short_movies",
           "sum_examples"]
