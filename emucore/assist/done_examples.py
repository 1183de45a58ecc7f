"""Examples for :func:`~emucore.assist.suggest_done` from recorded episodes.

For example (not run: it needs a game's states or movies)::

    examples = episode_examples(emulator, ["death1.bk2", "death2.bk2"])
    variables, done = suggest_done(emulator, examples.alive, examples.over)

An episode movie ends at a game over (the studio's episode recordings and stable-retro's
``record=`` stop at the step where ``done`` fired). Its replay gives the examples: the memory
after the final frame is *over*; after every earlier frame, *alive*: the deaths before the last
life included. An episode can also be a list of states or snapshots in the order they were
taken, the last one the game over. ``margin`` leaves out the frames just before the final one
(kept in :attr:`DoneExamples.near`), for a game over marked a few frames after the real end.

Snapshots are not kept: :attr:`DoneExamples.alive` replays the movies each time it is iterated,
so a long episode costs replay time, not memory (64 KiB per frame on the Genesis).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from emucore.search.movies import MaskReplay, is_movie, movie_masks, movie_start, open_movie
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import snapshots_of


@dataclass(frozen=True)
class Frames:
    """Several replays (or lists of snapshots) in a row, iterable any number of times."""

    replays: tuple[Sequence[Snapshot] | MaskReplay, ...]

    def __len__(self) -> int:
        return sum(len(r) for r in self.replays)

    def __iter__(self) -> Iterator[Snapshot]:
        for replay in self.replays:
            yield from replay


@dataclass(frozen=True)
class DoneExamples:
    """What :func:`episode_examples` gives: ``alive`` frames, ``over`` snapshots (one per
    episode) and, per episode, the ``near`` frames of the margin before its game over."""

    alive: Frames
    over: list[Snapshot]
    near: list[list[Snapshot]] = field(default_factory=list)

    def __add__(self, other: DoneExamples) -> DoneExamples:
        """Both sets of episodes (each taken with its own margin)."""
        return DoneExamples(Frames(self.alive.replays + other.alive.replays), self.over + other.over,
                            self.near + other.near)


def _states(emulator: Any, index: int, item: Iterable[Any], margin: int) -> tuple[list[Snapshot], ...]:
    if isinstance(item, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError(f"episode {index} is one state: an episode is a movie or a list of states")
    snaps = list(snapshots_of(emulator, item, f"episode {index} frame"))
    if len(snaps) < margin + 2:
        raise ValueError(f"episode {index} has {len(snaps)} frames; with margin {margin} it needs {margin + 2}")
    return snaps[: len(snaps) - 1 - margin], snaps[len(snaps) - 1 - margin : -1], snaps[-1:]


def episode_examples(emulator: Any, movies: Any, *, margin: int = 0,
                     start_state: bytes | None = None) -> DoneExamples:
    """Alive and over examples from episodes, each ending at a game over.

    Args:
        emulator: The emulator of the movies' game (left as it was).
        movies: A :class:`~emucore.movie.Movie` or a ``.bk2`` path, or a list of them; or a
            list of episodes, each a movie or a list of states (or snapshots) in time order.
        margin: Frames before the final one that are neither alive nor over.
        start_state: The state to replay from when a movie has none of its own (default: the
            emulator's state now).

    Raises:
        ValueError: a movie too short for ``margin`` (it needs ``margin + 2`` frames), or a
            negative margin. Movie files that cannot be read raise :class:`MovieError`.
    """
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
        raise ValueError(f"margin is a number of frames >= 0, not {margin!r}")
    items = list(movies) if isinstance(movies, Sequence) and not isinstance(movies, (str, bytes)) else [movies]
    if not items:
        raise ValueError("episode_examples needs at least one movie")
    if not any(is_movie(item) for item in items) and all(
            isinstance(item, (bytes, bytearray, memoryview, Snapshot)) for item in items):
        items = [items]  # one episode given as its list of states
    replays: list[Sequence[Snapshot] | MaskReplay] = []
    over, near = [], []
    for index, item in enumerate(items):
        if not is_movie(item):
            alive, margin_frames, last = _states(emulator, index, item, margin)
            replays.append(alive)
            near.append(margin_frames)
            over.extend(last)
            continue
        movie = open_movie(item)
        masks = movie_masks(movie)
        if len(masks) < margin + 2:
            raise ValueError(f"movie {index} has {len(masks)} frames; with margin {margin} it needs {margin + 2}")
        start = movie_start(movie) or bytes(start_state or emulator.get_state())
        replays.append(MaskReplay(emulator, masks, start, len(masks) - 1 - margin))
        if margin:  # one replay gives the margin's frames and the game over
            *margin_frames, over_frame = deque(MaskReplay(emulator, masks, start, len(masks)), maxlen=margin + 1)
            near.append(margin_frames)
            over.append(over_frame)
        else:
            near.append([])
            over.append(MaskReplay(emulator, masks, start, len(masks)).final())
    return DoneExamples(Frames(tuple(replays)), over, near)


__all__ = ["DoneExamples", "Frames", "episode_examples"]
