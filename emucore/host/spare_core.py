"""A fresh core made ahead, for emulators whose core is reloaded at every reset (Stella's, as stable-retro does).

Loading Stella's game takes about 11 ms of a reset's 17; the spare is loaded on a background thread while the
emulator plays, so that the next reset only swaps it in. A fresh core is the same whenever it is loaded (the
game, the options, glibc's rand() seeded as at every load), so the reset is unchanged, bit for bit.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from emucore.libretro import CoreSession

_EXECUTOR: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="emucore-spare-core")
        atexit.register(_EXECUTOR.shutdown, wait=False, cancel_futures=True)
    return _EXECUTOR


class SpareCore:
    """At most one core opened ahead by ``open_core``, for the next ``take()``."""

    def __init__(self, open_core: Callable[[], CoreSession]):
        self._open_core = open_core
        self._future: Future[CoreSession] | None = None
        self._pid = os.getpid()

    def take(self) -> CoreSession:
        """The spare if it loaded (else a core opened now), and the next spare started."""
        future, self._future = self._future, None
        session = None
        if future is not None and self._pid == os.getpid():  # a forked child has no loading thread
            try:
                session = future.result()
            except Exception:  # noqa: BLE001 - opened again below, where the error is raised to the caller
                session = None
        if session is None:
            session = self._open_core()
        self._pid = os.getpid()
        self._future = _executor().submit(self._open_core)
        return session

    def close(self) -> None:
        """Waits for a spare being loaded and closes it."""
        future, self._future = self._future, None
        if future is None or self._pid != os.getpid():
            return
        if future.cancel():
            return
        try:
            future.result().close()
        except Exception:  # noqa: BLE001, S110 - a spare that failed to load has nothing to close
            pass
