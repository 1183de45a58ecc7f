"""After a scenario edit, the attached regression movies replayed on a worker thread. No Qt.

Replaying a movie runs a whole episode; on the GUI thread that froze the window after every edit. Here an
edit only :meth:`~RegressionRecheck.request`\\ s a check; :meth:`~RegressionRecheck.poll`, called from the
window's frame tick, starts it once the edits paused for ``delay`` seconds (one check at a time, the latest
edits winning) and, on the thread that polls, emits ``events.checked`` with what the check found.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from psygnal import Signal, SignalGroup

from emucore.errors import EmucoreError
from studio.model.scenario.regression import Outcome, RegressionSuite

DELAY_S = 0.7


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


def _check(folder: Path) -> Recheck:
    try:
        return Recheck(folder, RegressionSuite(folder).check())
    except EmucoreError as exc:  # regression.json cannot be read
        return Recheck(folder, error=str(exc))


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
        self._running: Future[Recheck] | None = None
        self._pool: ThreadPoolExecutor | None = None

    def follow(self, folder: Path) -> None:
        """Checks ``folder`` from now on (another game was opened); a check of the old one is dropped."""
        self.folder = Path(folder)
        self._due = None

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
            result, self._running = self._running.result(), None
            if result.folder == self.folder:
                finished = self.last = result
                self.events.checked.emit(result)
        if self._running is None and self._due is not None and self.clock() >= self._due and self.folder:
            self._due = None
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-regression")
            self._running = self._pool.submit(_check, self.folder)
        return finished

    def close(self) -> None:
        """Drops what is pending; a check running finishes on its thread, unseen."""
        self._due = None
        self._running = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
