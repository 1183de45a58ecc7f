"""``Movie``: stable-retro's movie object (``retro.Movie``), over our ``.bk2``/``.fm2`` code.

>>> import os, tempfile
>>> from emucore import Emulator
>>> from emucore.paths import integrations_dir
>>> emulator = Emulator(integrations_dir() / "StudioDemo-Genesis" / "rom.md")
>>> path = os.path.join(tempfile.mkdtemp(), "out.bk2")
>>> movie = Movie(path, True, players=1)     # record
>>> movie.configure("StudioDemo-Genesis", emulator)
>>> movie.set_state(emulator.get_state())
>>> for frame in range(3):                    # one line per emulated frame
...     movie.set_key(7, True, 0)             # RIGHT
...     recorded = movie.step()
>>> movie.close()                             # the file is written here, atomically

>>> movie = Movie(path)                       # read
>>> while movie.step():
...     keys = [movie.get_key(i, 0) for i in range(12)]
>>> keys.index(True)
7

Differences from stable-retro, all deliberate:

* the archive is written at :meth:`close`, or when the object is garbage collected or the
  interpreter exits (as stable-retro does), to a temporary file that is then renamed over the
  target; an existing file is replaced whole (stable-retro rewrites its three entries in
  place, keeping others). :meth:`enable_checkpoints` also writes it every few seconds while
  recording (the env's recordings do), so that a killed process leaves a valid movie;
* ``Core.bin`` is always written: when no :meth:`set_state` was made, the state the emulator
  had at :meth:`configure` is used (movie-format.md §4 [rec]);
* reading is tolerant (see :mod:`emucore.movie.bk2`), errors raise :class:`MovieError` (a
  ``RuntimeError``, like stable-retro's ``"Could not load movie"``);
* ``get_state()`` of a BizHawk movie (``MovieVersion BizHawk...``) is ``b""``: its ``Core.bin``
  is BizHawk's own core state, which no libretro core can load. :attr:`raw_state` still has
  the bytes. Playing such a movie needs a start state from elsewhere (``--state``).
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Any

import numpy as np

from emucore.errors import MovieError
from emucore.movie.bk2 import read_movie
from emucore.movie.columns import MAX_BUTTONS
from emucore.movie.header import MovieData
from emucore.movie.take import Take
from emucore.systems import System, get_system


def _system_of(emulator: Any) -> System:
    if isinstance(emulator, System):
        return emulator
    if isinstance(emulator, str):
        return get_system(emulator)
    system = getattr(emulator, "system", None)
    if isinstance(system, System):
        return system
    if isinstance(system, str):
        return get_system(system)
    raise TypeError(f"configure() needs an Emulator (or a System), not {type(emulator).__name__}")


class Movie:
    """A ``.bk2`` movie being read or recorded (stable-retro's ``Movie`` API).

    Args:
        path: The movie file. Read mode accepts ``.bk2`` (any ZIP) and ``.fm2`` (FCEUX),
            whatever the extension.
        record: True to record a new movie (written at :meth:`close`).
        players: The number of players recorded (record mode; read mode takes it from the file).

    Raises:
        MovieError: (read mode) the file is missing, corrupt, oversized or not a movie.
    """

    def __init__(self, path: str | os.PathLike[str], record: bool = False, players: int = 1):
        self.path = Path(os.fspath(path))
        self._record = bool(record)
        self._closed = False
        self._state: bytes = b""
        self._position = -1
        self._take: Take | None = None
        if self._record:
            players = int(players)
            if players < 1:
                raise ValueError(f"a movie has at least 1 player, not {players}")
            self._players = players
            self._game = "?"
            self._system: System | None = None
            self._keys = [0] * players
            self._take = Take(self.path, players)
            self._lines = self._take.lines
            # Written when closed, collected or at exit, whichever comes first (weakref.finalize does all three).
            self._finalizer = weakref.finalize(self, self._take.finish)
            self.data: MovieData | None = None
        else:
            self.data = read_movie(self.path)
            self._players = self.data.players
            self._game = self.data.game
            self._system = get_system(self.data.system) if self.data.system else None
            self._state = b"" if self.data.is_bizhawk else self.data.core
            self._masks = self.data.masks
            self._keys = [0] * self._players

    # ---- stable-retro's API ----

    @property
    def players(self) -> int:
        """Players in the movie (record: as constructed; read: the largest ``P<n>`` of the key line)."""
        return self._players

    def configure(self, game: str, emulator: Any) -> None:
        """Record mode: sets the game name and the platform (from the emulator's system).

        Call it before the first :meth:`step`. The emulator's current state is kept as the
        start state in case :meth:`set_state` is never called. No effect in read mode.

        Args:
            game: The integration name written as ``GameName``.
            emulator: An :class:`~emucore.host.emulator.Emulator` (or a ``System`` / system token).
        """
        if self._take is None:
            return
        self._game = self._take.game = str(game)
        self._system = self._take.system = _system_of(emulator)
        get_state = getattr(emulator, "get_state", None)
        if callable(get_state) and not self._state:
            try:
                self._take.fallback_state = bytes(get_state())
            except Exception:  # a core that cannot serialize: no Core.bin then
                self._take.fallback_state = b""

    def step(self) -> bool:
        """Record: writes one frame line from the keys set and clears them; returns True.
        Read: moves to the next frame line; False at the end (the keys keep their last values)."""
        if self._closed:
            return False
        if self._record:
            for player, line in enumerate(self._lines):
                line.append(self._keys[player])
                self._keys[player] = 0
            if len(self._lines[0]) >= self._take.next_check:  # type: ignore[union-attr]
                self._take.tick()  # type: ignore[union-attr]
            return True
        if self._position + 1 >= len(self._masks):
            self._position = len(self._masks)
            return False
        self._position += 1
        row = self._masks[self._position]
        self._keys = [int(v) for v in row]
        return True

    def get_key(self, i: int, player: int = 0) -> bool:
        """Whether button ``i`` of ``player`` is pressed (read: in the current line; record: pending)."""
        if not 0 <= i < MAX_BUTTONS or not 0 <= player < self._players:
            return False
        return bool(self._keys[player] >> i & 1)

    def set_key(self, i: int, value: bool, player: int = 0) -> None:
        """Presses or releases button ``i`` of ``player`` for the next :meth:`step` (record mode)."""
        if not 0 <= i < MAX_BUTTONS:
            raise ValueError(f"button index {i} is out of range (0..{MAX_BUTTONS - 1})")
        if not 0 <= player < self._players:
            raise ValueError(f"player {player} is out of range (0..{self._players - 1})")
        if value:
            self._keys[player] |= 1 << i
        else:
            self._keys[player] &= ~(1 << i)

    def get_game(self) -> str:
        """The ``GameName`` (``"?"`` when unknown)."""
        return self._game

    def get_state(self) -> bytes:
        """The start state (``Core.bin``), ``b""`` if none or unusable (BizHawk, ``.fm2``)."""
        return self._state

    def set_state(self, state: bytes) -> None:
        """Sets the start state written as ``Core.bin`` (raw ``retro_serialize`` bytes)."""
        self._state = bytes(state)
        if self._take is not None:
            self._take.state = self._state

    def close(self) -> None:
        """Record mode: writes the file (atomically). Safe to call twice.

        Raises:
            MovieError: the file cannot be written.
        """
        if self._closed:
            return
        self._closed = True
        if self._record:
            self._finalizer()

    def discard(self) -> None:
        """Closes without writing anything, removing any checkpoint written (record mode); like
        :meth:`close` in read mode."""
        self._closed = True
        if self._take is not None:
            self._finalizer.detach()
            self._take.discard()

    def enable_checkpoints(self, interval: float = 1.0) -> None:
        """Record mode: also writes the movie (atomically) every ``interval`` seconds or so while
        frames are recorded, so that a killed process leaves all but its last frames. The interval
        stretches so that writing takes at most about 2% of the recording's time."""
        if self._take is not None:
            self._take.enable_checkpoints(interval)

    def __enter__(self) -> Movie:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- ours ----

    @property
    def record(self) -> bool:
        """True in record mode."""
        return self._record

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def system(self) -> System | None:
        """The system the columns belong to (None when the platform is unknown)."""
        return self._system

    @property
    def frame_count(self) -> int:
        """Frame lines in the movie (read) or recorded so far (record); line 0 is the reset frame."""
        if self._record:
            return len(self._lines[0])
        return len(self._masks)

    @property
    def position(self) -> int:
        """Read mode: the index of the current frame line (-1 before the first step)."""
        return self._position

    @property
    def raw_state(self) -> bytes:
        """The ``Core.bin`` bytes as stored, even when :meth:`get_state` will not use them."""
        if self._take is not None:
            return self._state or self._take.fallback_state
        assert self.data is not None
        return self.data.core

    @property
    def header(self) -> dict[str, str]:
        """Read mode: the ``Header.txt`` keys and values."""
        return dict(self.data.header) if self.data is not None else {}

    @property
    def is_bizhawk(self) -> bool:
        return self.data is not None and self.data.is_bizhawk

    def get_masks(self) -> np.ndarray:
        """All frames' button masks, ``(frames, players)`` uint16 (bit i = button i)."""
        if self._record:
            return np.array([list(line) for line in self._lines], dtype=np.uint16).T.reshape(-1, self._players)
        return self._masks.copy()

    def get_mask(self, player: int = 0) -> int:
        """The current (read) or pending (record) mask of ``player``."""
        return self._keys[player]

    def set_mask(self, mask: int, player: int = 0) -> None:
        """Record mode: sets all of ``player``'s keys for the next :meth:`step` from an int mask."""
        if not 0 <= player < self._players:
            raise ValueError(f"player {player} is out of range (0..{self._players - 1})")
        self._keys[player] = int(mask) & 0xFFFF

    @property
    def checkpoint_stats(self) -> str:
        """Record mode: the checkpoints written so far and their mean cost."""
        return self._take.checkpoint_stats() if self._take is not None else ""

    def __repr__(self) -> str:
        mode = "recording" if self._record else "reading"
        return f"<Movie {self.path.name} {mode}, {self.get_game()}, {self._players}P, {self.frame_count} frames>"


__all__ = ["Movie", "MovieError"]
