"""Checkpoints read off the screen: :func:`screen_checkpoints` turns a :class:`ScreenNumber` and
the play the tool already holds (the rewind's states, in order) into ``(state, shown)`` pairs for
:func:`~emucore.assist.solve_value`, so ranking rests on every change of the number on screen,
not on the few values a person typed.

A state's picture is the frame the core draws when it runs one frame from that state, buttons
released (a state holds memory, not the picture): the HUD that frame draws is what the state's
memory holds (a game draws its HUD from the values of the frame before). A checkpoint is taken
at each frame where the number read changed, and at a few frames where it held (``held``), from
which the volatile buffers and the top-score copies fall out by themselves as play crosses the
values that separate them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from emucore.assist.screen_number import ScreenNumber
from emucore.search.state_snapshots import StateLike

#: Checkpoints at most (the solver's cost grows with them).
MAX_CHECKPOINTS = 64
#: States read at most: a longer history is read every few states (each read loads a state and
#: runs a frame: 0.25 ms on the NES, 1.3 ms on the Genesis, whose states are larger). A checkpoint
#: needs a state and what its picture shows, not the exact frame the number changed.
MOST_READ = 4000


@dataclass
class ScreenCheckpoints:
    """The checkpoints read off the screen, and how many frames were read.

    Attributes:
        checkpoints: ``(state, shown)`` pairs, in play order, for :func:`~emucore.assist.solve_value`.
        frames: The states whose picture was read.
        readable: Of those, the ones where the number could be read.
        changes: How many times the number read changed.
        stride: One state in ``stride`` was read (1: every state).
    """

    checkpoints: list[tuple[StateLike, str]] = field(default_factory=list)
    frames: int = 0
    readable: int = 0
    changes: int = 0
    stride: int = 1

    def describe(self) -> str:
        """In words: ``"read 1,204 frames (1,020 readable): 37 changes, 40 checkpoints"``."""
        every = f" (one state in {self.stride})" if self.stride > 1 else ""
        return (f"read {self.frames:,} frames{every}, {self.readable:,} readable: {self.changes} change"
                f"{'s' * (self.changes != 1)}, {len(self.checkpoints)} checkpoints")


def pictures(emulator: Any, states: Iterable[StateLike]) -> Iterator[tuple[StateLike, Any]]:
    """``(state, picture)`` per state: the frame drawn running one frame from it, buttons released
    (a new array each time, at ``emulator.get_screen()``'s size: it may be kept). The emulator's
    state and buttons are restored when the iteration ends."""
    saved: bytes | None = None
    buttons = emulator.get_button_mask()
    try:
        for index, state in enumerate(states):
            if saved is None:
                saved = emulator.get_state()
                emulator.set_button_mask(0)
            try:
                emulator.set_state(bytes(state))  # type: ignore[arg-type]
            except (TypeError, ValueError) as exc:
                raise ValueError(f"history frame {index}: {exc}") from exc
            emulator.step()
            yield state, emulator.get_screen()
    finally:
        if saved is not None:
            emulator.set_state(saved)
            emulator.set_button_mask(buttons)


def read_states(emulator: Any, read: Any, states: Iterable[StateLike]) -> list[tuple[StateLike, int]]:
    """``(state, value)`` for each state whose picture ``read`` reads (None: skipped): labels for
    the lives wizard from a :class:`~emucore.assist.screen_icons.ScreenIcons`' ``read``, or a
    :class:`ScreenNumber`'s ``value``."""
    out = []
    for state, picture in pictures(emulator, states):
        value = read(picture)
        if value is not None:
            out.append((state, int(value)))
    return out


def screen_checkpoints(emulator: Any, screen: ScreenNumber, history: Iterable[StateLike], *, held: int = 4,
                       limit: int = MAX_CHECKPOINTS, most: int = MOST_READ) -> ScreenCheckpoints:
    """The checkpoints of ``history`` read off the screen by ``screen``.

    Args:
        emulator: The emulator the states belong to (left as it was found).
        screen: The reader of the number.
        history: States in the order they were played (every frame or every few frames).
        held: Also a checkpoint at this many frames where the number held (spread over the play):
            a value that stays while a buffer changes says which one is the value.
        limit: At most this many checkpoints; with more changes, an even spread of them (the first
            and the last kept).
        most: Read at most about this many states: a longer history (one whose length is known) is
            read every few states.
    """
    found = ScreenCheckpoints()
    try:
        found.stride = max(1, -(-len(history) // max(1, most)))  # type: ignore[arg-type]
    except TypeError:  # a history of unknown length is read whole
        pass
    if found.stride > 1:
        history = islice(history, 0, None, found.stride)
    changes: list[tuple[StateLike, str]] = []
    steady: list[tuple[StateLike, str]] = []
    last: str | None = None
    for state, picture in pictures(emulator, history):
        found.frames += 1
        shown = screen.read(picture)
        if shown is None:
            continue
        found.readable += 1
        if shown != last:
            found.changes += last is not None
            changes.append((state, shown))
        else:
            steady.append((state, shown))
        last = shown
    keep_steady = _spread(steady, min(held, len(steady)))
    room = max(2, limit - len(keep_steady))
    found.checkpoints = _spread(changes, min(room, len(changes))) + keep_steady
    return found


def _spread(items: list[Any], count: int) -> list[Any]:
    if count >= len(items):
        return list(items)
    if count <= 1:
        return items[:count]
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


__all__ = ["MAX_CHECKPOINTS", "MOST_READ", "ScreenCheckpoints", "pictures", "read_states", "screen_checkpoints"]
