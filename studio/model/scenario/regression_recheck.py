"""After a scenario edit, the attached regression movies replayed on a worker thread. No Qt.

Replaying a movie runs a whole episode; on the GUI thread that froze the window after every edit. Here an
edit only :meth:`~RegressionRecheck.request`\\ s a check; :meth:`~RegressionRecheck.poll`, called from the
window's frame tick, starts it once the edits paused for ``delay`` seconds (one check at a time, the latest
edits winning) and, on the thread that polls, emits ``events.checked`` with what the check found.

A check replays whole movies (an integration's may run for minutes), so it can be stopped: each check has
a stop event that the replay looks at every ``STOP_EVERY`` lines (``ReplayStopped``, which the worker
swallows). :meth:`~RegressionRecheck.close` sets it and waits ``CLOSE_WAIT_S`` at most for the worker to
end; the worker is a daemon thread, so even a check caught where it does not look (loading the game)
does not keep the process alive after the studio closes. Following another folder stops a check of the old one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from psygnal import Signal, SignalGroup

from emucore.errors import EmucoreError
from studio.model.scenario.regression import Outcome, RegressionSuite, ReplayStopped

DELAY_S = 0.7
CLOSE_WAIT_S = 2.0


@dataclass(frozen=True)
class Recheck:
    """What one re-check found: the outcomes, or why regression.json could not be read."""

    folder: Path
    outcomes: list[Outcome] = field(default_factory=list)
    error: str | None = None

    def summary(self) -> str | None:
        """The status line (``regression: 2 ok, changed: run.bk2``); None when no movie is attached."""
        if self.error is not None:
            return f"regression: {self.error}"
        if not self.outcomes:
            return None
        changed = [o.expectation.movie for o in self.outcomes if o.changed]
        text = f"regression: {len(self.outcomes) - len(changed)} ok"
        return text + (f", changed: {', '.join(changed)}" if changed else "")


class _Run:
    """One check on a daemon thread of its own, with the event that stops it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.stop = threading.Event()
        self.result: Recheck | None = None  # None: stopped, or still running
        self.thread = threading.Thread(target=self._work, name="studio-regression", daemon=True)
        self.thread.start()

    def done(self) -> bool:
        return not self.thread.is_alive()

    def _work(self) -> None:
        try:
            self.result = Recheck(self.folder, RegressionSuite(self.folder).check(stop=self.stop))
        except ReplayStopped:
            pass
        except EmucoreError as exc:  # regression.json cannot be read
            self.result = Recheck(self.folder, error=str(exc))


class RecheckEvents(SignalGroup):
    checked = Signal(object)
    """A re-check finished (a :class:`Recheck`), emitted on the thread that called ``poll``."""


class RegressionRecheck:
    """Debounced re-checks of one integration folder's regression movies, one at a time, off the caller's thread."""

    def __init__(self, delay: float = DELAY_S, clock: Callable[[], float] = time.monotonic):
        self.delay = delay
        self.clock = clock
        self.events = RecheckEvents()
        self.folder: Path | None = None
        self.last: Recheck | None = None
        self._due: float | None = None
        self._running: _Run | None = None

    def follow(self, folder: Path) -> None:
        """Checks ``folder`` from now on (another game was opened); a check of the old one is stopped."""
        self.folder = Path(folder)
        self._due = None
        if self._running is not None and self._running.folder != self.folder:
            self._running.stop.set()

    def request(self) -> None:
        """The scenario changed: check ``delay`` seconds after the last request."""
        self._due = self.clock() + self.delay

    @property
    def busy(self) -> bool:
        """A check is waiting for its delay or running."""
        return self._due is not None or self._running is not None

    def poll(self) -> Recheck | None:
        """Starts a check that is due, and emits and returns one that finished (else None). Never blocks."""
        finished = None
        if self._running is not None and self._running.done():
            result, self._running = self._running.result, None
            if result is not None and result.folder == self.folder:
                finished = self.last = result
                self.events.checked.emit(result)
        if self._running is None and self._due is not None and self.clock() >= self._due and self.folder:
            self._due = None
            self._running = _Run(self.folder)
        return finished

    def close(self) -> None:
        """Drops what is pending and stops a check running, waiting ``CLOSE_WAIT_S`` at most for its thread."""
        self._due = None
        running, self._running = self._running, None
        if running is not None:
            running.stop.set()
            running.thread.join(CLOSE_WAIT_S)
