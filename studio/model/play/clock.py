"""Frame pacing: how many emulator frames are due, from real elapsed time.

The ticker asks :meth:`FrameClock.due` on every timer tick; the answer follows the core's own
frame rate times the speed factor, and is capped so a stall (a dragged window, a debugger)
does not make the game race to catch up.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class FrameClock:
    """Counts frames owed at ``fps * speed`` since the last call."""

    def __init__(self, fps: float, *, speed: float = 1.0, max_burst: int = 4,
                 now: Callable[[], float] = time.perf_counter):
        self.fps = float(fps)
        self.speed = float(speed)
        self.max_burst = max_burst
        self._now = now
        self._last = now()
        self._owed = 0.0

    def restart(self) -> None:
        """Forget time that passed while paused."""
        self._last = self._now()
        self._owed = 0.0

    def due(self) -> int:
        now = self._now()
        self._owed += (now - self._last) * self.fps * self.speed
        self._last = now
        frames = int(self._owed + 1e-9)  # float sums of 1/fps steps land just under whole frames
        if frames > self.max_burst:
            self._owed = 0.0
            return self.max_burst
        self._owed -= frames
        return frames
