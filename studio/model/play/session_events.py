"""What a game session tells its views and the models built on it. No Qt."""

from __future__ import annotations

from psygnal import Signal, SignalGroup


class SessionEvents(SignalGroup):
    """What a session tells its views and the models built on it."""

    frame = Signal()
    """The picture or the frame number changed (once per tick, after a rewind, a load, a reset)."""
    after_frame = Signal()
    """After every emulated frame, not once per tick: freezes, sampling."""
    pause_toggled = Signal()
    """Paused or running again."""
    speed_changed = Signal()
    movie = Signal()
    """A movie started or stopped recording or playing."""
    notice = Signal(str)
    """A line for the status bar ("loaded slot 3"), also kept in ``notice``."""
    problem = Signal(object)
    """A file could not be read (an OpenProblem, also appended to ``problems``); the game goes on."""
