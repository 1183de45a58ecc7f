"""The studio's one event mechanism: psygnal signals on the models, and the connections a view or model holds.

Every model says what changed through a :class:`psygnal.SignalGroup` in its ``events`` attribute
(``session.events.frame``, ``watch.events.changed``, ...). Whoever listens connects through a
:class:`Connections` of its own and ends them all at once when it is unbound or closed, so a model of a game
that was closed keeps no view (or other model) alive and calls nothing.

A connection holds its listener until it is ended, as a list of callbacks would: psygnal alone keeps only
a weak reference to a bound method, and a listener nothing else holds (a search book's store) would stop
hearing, at a moment the garbage collector picks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from types import MethodType
from typing import Any

from psygnal import SignalInstance


class Connections:
    """The slots one listener connected, to end together."""

    def __init__(self) -> None:
        self._made: list[tuple[SignalInstance, Callable[..., Any]]] = []

    def connect(self, signal: SignalInstance, slot: Callable[..., Any]) -> None:
        if isinstance(slot, MethodType):  # held strongly (see above), with its own signature for psygnal
            slot = partial(slot.__func__, slot.__self__)
        signal.connect(slot)
        self._made.append((signal, slot))

    def disconnect_all(self) -> None:
        made, self._made = self._made, []
        for signal, slot in made:
            signal.disconnect(slot, missing_ok=True)


def connection_count(events: Any) -> int:
    """How many slots are connected to all the signals of a SignalGroup (the leak tests read it)."""
    return sum(len(signal) for signal in events.signals.values())
