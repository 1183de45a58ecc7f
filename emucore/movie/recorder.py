"""``MovieRecorder``: record a ``.bk2`` from an emulator the caller drives frame by frame (the studio).

>>> import os, tempfile
>>> from emucore import Emulator
>>> from emucore.paths import integrations_dir
>>> emulator = Emulator(integrations_dir() / "StudioDemo-Genesis" / "rom.md")
>>> path = os.path.join(tempfile.mkdtemp(), "take1.bk2")
>>> recorder = MovieRecorder(path, emulator, "StudioDemo-Genesis")  # snapshot = start state
>>> for masks in [[0], [1 << 7], [1 << 7]]:  # nothing, then RIGHT twice
...     recorder.record_frame(masks)      # the masks the emulator gets for the next frame...
...     for player, mask in enumerate(masks):
...         emulator.set_button_mask(mask, player)
...     emulator.step()                   # ...then the frame
>>> recorder.close().name                 # writes the file atomically
'take1.bk2'

Line 0 of a movie is its *reset frame*: replayers (ours and stable-retro's ``playback_movie``)
load ``Core.bin`` and run line 0 as ``env.reset()`` does, **with every button released**. So
the first frame recorded should have all buttons released for a replay to match; a warning is
issued when it does not.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from emucore.movie.movie import Movie


class MovieRecorder:
    """Records one movie: a start state plus one line of button masks per emulated frame.

    Args:
        path: The ``.bk2`` to write (at :meth:`close`; nothing is written before).
        emulator: The :class:`~emucore.host.emulator.Emulator` being recorded (its system selects
            the columns; its state is the start state when ``start_state`` is None).
        game: The integration name written as ``GameName`` (replayers ``make()`` it).
        players: Players recorded (1 or 2).
        start_state: The raw state the recording starts from; None serializes the emulator's
            current state now (a power-on start gets a ``Core.bin`` too).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        emulator: Any,
        game: str,
        players: int = 1,
        start_state: bytes | None = None,
    ):
        if players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, not {players!r}")
        self.path = Path(os.fspath(path))
        self.game = game
        self.players = players
        self.start_state = bytes(start_state) if start_state is not None else bytes(emulator.get_state())
        self._movie = Movie(self.path, True, players)
        self._movie.set_state(self.start_state)  # first, so configure() does not serialize again
        self._movie.configure(game, emulator)
        self._warned = False

    @property
    def frame_count(self) -> int:
        """Frames recorded so far (line 0, the reset frame, included)."""
        return self._movie.frame_count

    @property
    def closed(self) -> bool:
        return self._movie.closed

    def record_frame(self, masks: Sequence[int]) -> None:
        """Records the button masks of the frame about to be emulated (bit i = button index i).

        Args:
            masks: One int per player (missing players are released; extra ones are an error).
        """
        if self._movie.closed:
            raise ValueError(f"the recording of {self.path} is closed")
        if len(masks) > self.players:
            raise ValueError(f"{len(masks)} masks for a {self.players}-player recording")
        if self.frame_count == 0 and any(int(m) & 0xFFFF for m in masks) and not self._warned:
            self._warned = True
            warnings.warn(
                f"{self.path}: the first frame has buttons pressed; replays run it with every button "
                "released (it is the reset frame), so they will not match",
                stacklevel=2,
            )
        for player, mask in enumerate(masks):
            self._movie.set_mask(int(mask), player)
        self._movie.step()

    def close(self) -> Path:
        """Writes the movie (atomically) and returns its path. Safe to call twice."""
        self._movie.close()
        return self.path

    def discard(self) -> None:
        """Drops the recording without writing anything."""
        self._movie.discard()

    def __enter__(self) -> MovieRecorder:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MovieRecorder {self.path.name}: {self.game}, {self.players}P, {self.frame_count} frames>"
