"""Refreshing a view at most N times a second while frames run, and once more when they stop."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget


class Throttle:
    """Calls ``refresh`` of ``view`` at most ``hz`` times a second, and not while the view is hidden (it
    refreshes when shown, in its ``showEvent``).

    A request that comes too soon is not dropped: one refresh runs when the interval ends, so the
    view always ends on the newest frame. ``refresh`` should call :meth:`mark` when it runs, so a
    direct refresh (e.g. when the view is shown) also counts.
    """

    def __init__(self, view: QWidget, hz: float, refresh: Callable[[], None]):
        self.interval = 1.0 / hz
        self.last = -float("inf")
        self._view = view
        self._refresh = refresh
        self._timer = QTimer(view)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(refresh)

    def mark(self) -> float:
        """Notes a refresh now; returns the time."""
        self.last = time.monotonic()
        return self.last

    def request(self) -> None:
        """Frames ran: a refresh now, or when the interval ends."""
        if not self._view.isVisible():
            return
        wait = self.last + self.interval - time.monotonic()
        if wait <= 0:
            self._refresh()
        elif not self._timer.isActive():
            self._timer.start(int(wait * 1000) + 1)

    @property
    def pending(self) -> bool:
        """True while a held-back refresh waits for the interval to end."""
        return self._timer.isActive()

    def stop(self) -> None:
        self._timer.stop()
