"""Examples for :func:`~emucore.search.suggest_done` from recorded episodes.

>>> examples = episode_examples(emulator, ["death1.bk2", "death2.bk2"])
>>> variables, done = suggest_done(emulator, examples.alive, examples.over)

An episode movie ends at a game over (the studio's episode recordings and stable-retro's
``record=`` stop at the step where ``done`` fired). Its replay gives the examples: the memory
after the final frame is *over*; after every earlier frame, *alive*. ``margin`` leaves out the
frames just before the final one, for movies that run on a few frames past the real end.

Snapshots are not kept: :attr:`DoneExamples.alive` replays the movies each time it is iterated,
so a long episode costs replay time, not memory (64 KiB per frame on the Genesis).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from emucore.search.movies import Replay, movie_masks
from emucore.search.snapshot import Snapshot


@dataclass(frozen=True)
class Frames:
    """Several replays in a row, iterable any number of times."""

    replays: tuple[Replay, ...]

    def __len__(self) -> int:
        return sum(len(r) for r in self.replays)

    def __iter__(self) -> Iterator[Snapshot]:
        for replay in self.replays:
            yield from replay


@dataclass(frozen=True)
class DoneExamples:
    """What :func:`episode_examples` gives: ``alive`` frames and ``over`` snapshots."""

    alive: Frames
    over: list[Snapshot]


def _movie(item: Any) -> Any:
    if isinstance(item, (str, os.PathLike)):
        from emucore.movie import Movie

        return Movie(item)
    return item


def episode_examples(emulator: Any, movies: Any, *, margin: int = 0,
                     start_state: bytes | None = None) -> DoneExamples:
    """Alive and over examples from episode movies, each ending at a game over.

    Args:
        emulator: The emulator of the movies' game (left as it was).
        movies: A :class:`~emucore.movie.Movie` or a ``.bk2`` path, or a list of them.
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
    replays, over = [], []
    for index, item in enumerate(items):
        movie = _movie(item)
        masks = movie_masks(movie)
        if len(masks) < margin + 2:
            raise ValueError(f"movie {index} has {len(masks)} frames; with margin {margin} it needs {margin + 2}")
        own = movie.get_state() if hasattr(movie, "get_state") else b""
        start = bytes(own or start_state or emulator.get_state())
        over.append(Replay(emulator, masks, start, len(masks)).final())
        replays.append(Replay(emulator, masks, start, len(masks) - 1 - margin))
    return DoneExamples(Frames(tuple(replays)), over)


__all__ = ["DoneExamples", "Frames", "episode_examples"]
