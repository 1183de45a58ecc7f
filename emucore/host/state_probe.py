"""States from outside are loaded first in a forked copy of the process, where a crash costs nothing.

A core trusts the states it is given. genesis_plus_gx segfaults on most states that keep a real header
and have a random body (at the first frame after the load); stella allocates 1.6 GB on a corrupt
512-byte state before it throws. No structure check can catch these: such states are raw dumps of a
console's memory and registers, with no lengths to add up (``emucore.host.state_checks`` checks the ones
that have them).

So a state this process did not produce is first loaded by a child made with ``os.fork()``: a copy of
the process with the core already loaded at the same game, so nothing is opened, copied or written.
The child lowers its limits (address space: what the process maps now plus ``MEMORY_MARGIN``; CPU
time; no core dump), loads the state, runs ``FRAMES`` frames, writes one line of report to a pipe and
leaves with ``os._exit``: no atexit handler, finalizer or buffer flush of the parent runs there. The
parent waits at most ``TIMEOUT_S`` and kills it past that. A child that dies, throws, hangs or runs out
of memory makes the state a ``StateError``, and the state never reaches the parent's core.

Fork safety: the parent may have threads (the studio's Qt, Ray). The child has only the thread that
forked; it runs this module's few lines, the core's C code and the core's callbacks, which touch only the
session, with the garbage collector off (no finalizer of the parent's objects, such as a session
removing its save folder, can run there) and the core's log lines kept off the parent's logging
handlers. The fork happens inside a call of the session (its lock held), so no other thread is in the
core while it is copied, and the child calls the core's functions directly.

Verdicts are kept for the life of the process by SHA-256 of the state, with the core, the ROM and the
core options, so a state is probed once. Only real verdicts are kept (the state loaded and ran, or the core
crashed, threw, rejected it or needed too much memory): a probe that ran past ``TIMEOUT_S`` or its CPU
time says nothing of the state (the machine may have stalled: swap, a suspended VM, a debugger), so it
refuses this load only and the next load probes again. The states ``get_state()`` returns are recorded
as good, and the last few good state objects are recognised without hashing (``env.reset`` loads the
same one every time). No probe runs, and the structure checks are all there is: without ``os.fork`` (not Linux), for
a core that may start threads of its own (the forked copy would have none of them and could hang), or
with ``EMUCORE_STATE_PROBE=0`` in the environment.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

from emucore.host import fork_probe
from emucore.host.fork_probe import mapped_bytes as _mapped_bytes  # noqa: F401 (the bench reads it here)
from emucore.host.fork_probe import may_start_threads
from emucore.libretro.core_session import CoreSession
from emucore.libretro.state_trial import load_and_run

FRAMES = 30
AFTER_FRAMES = 2  # frames run from the state the probe put back
"""Frames the probe runs after the load: genesis_plus_gx crashes at the first one, not in the load."""
TIMEOUT_S = 10.0
MEMORY_MARGIN = 512 << 20
"""Address space the probe may map beyond the process's own (stella's bad state asks for 1.6 GB)."""
CACHE_LIMIT = 1 << 16
RECENT = 4
ENV_SWITCH = "EMUCORE_STATE_PROBE"

logger = logging.getLogger(__name__)
probes_run = 0
"""Probe processes started by this process (tests and the bench read it)."""

_verdicts: dict[tuple[bytes, bytes], str | None] = {}  # (context, state digest) -> problem, None if good
_verdicts_lock = threading.Lock()
_MISSING = "missing"


def probe_available() -> bool:
    """Whether this process can probe states at all (Linux's fork, and not switched off)."""
    return fork_probe.available(ENV_SWITCH)


class StateProbe:
    """The probe of one emulator: its core, game and options decide which verdicts apply to it.

    Args:
        core_name: The core library's name, for messages.
        core_path: The core library loaded.
        rom: The game's bytes (hashed at the first probe, not before).
        options: The core option overrides.
    """

    def __init__(self, core_name: str, core_path: str | os.PathLike[str], rom: bytes, options: Mapping[str, str]):
        self.core_name = core_name
        self.enabled = probe_available() and not may_start_threads(str(core_path))
        self._core_path = str(core_path)
        self._rom = rom
        self._options = sorted(options.items())
        self._context: bytes | None = None
        self._recent: deque[bytes] = deque(maxlen=RECENT)

    def trust(self, state: bytes) -> None:
        """Records a state the core produced (``get_state``) as one it can load."""
        if self.enabled:
            _remember(self._key(state), None)

    def problem(self, session: CoreSession, state: bytes | bytearray | memoryview) -> str | None:
        """What happened when a probe loaded ``state`` into a copy of ``session``, or None if nothing did."""
        if not self.enabled:
            return None
        if type(state) is bytes and any(state is seen for seen in self._recent):
            return None
        key = self._key(state)
        verdict = _verdicts.get(key, _MISSING)
        if verdict is _MISSING:
            verdict, lasting = probe(session, state, self.core_name)
            if lasting:
                _remember(key, verdict)
        if verdict is None and type(state) is bytes:  # not a bytearray: it could change after its probe
            self._recent.append(state)
        return None if verdict is _MISSING else verdict

    def _key(self, state: bytes | bytearray | memoryview) -> tuple[bytes, bytes]:
        if self._context is None:
            context = hashlib.sha256(f"{self.core_name}\0{self._core_path}\0{self._options!r}\0".encode())
            context.update(hashlib.sha256(self._rom).digest())
            self._context = context.digest()
        return self._context, hashlib.sha256(state).digest()


def _remember(key: tuple[bytes, bytes], verdict: str | None) -> None:
    with _verdicts_lock:
        if key not in _verdicts and len(_verdicts) >= CACHE_LIMIT:
            del _verdicts[next(iter(_verdicts))]  # the oldest: it is probed again if it comes back
        _verdicts[key] = verdict


def forget_verdicts() -> None:
    """Empties the cache of verdicts (for tests and the bench)."""
    with _verdicts_lock:
        _verdicts.clear()


def probe(session: CoreSession, state: bytes | bytearray | memoryview, core: str) -> tuple[str | None, bool]:
    """Loads ``state`` and runs ``FRAMES`` frames in a forked copy of the process: what went wrong (None if
    nothing did), and whether that is a verdict to keep (not a run past the time or CPU limit).

    The fork happens inside the session's call, so no other thread is in the core while it is copied (a
    second thread gets EmulatorBusyError, as it would from ``set_state``). Returns ``(_MISSING, False)``
    (no verdict, nothing kept) if no process could be forked."""
    return session.call(_fork_and_wait, session, bytes(state), core)


def _fork_and_wait(host: Any, session: CoreSession, state: bytes, core: str) -> tuple[str | None, bool]:
    global probes_run

    def work() -> str:
        session.log_sink = None
        session.logger.disabled = True
        return load_and_run(host, state, FRAMES, AFTER_FRAMES, MEMORY_MARGIN)

    try:
        report, status = fork_probe.run_forked(work, TIMEOUT_S, MEMORY_MARGIN)
    except OSError as exc:
        logger.warning("no probe of a state for the %s core: fork failed (%s); loading it unprobed", core, exc)
        return _MISSING, False
    probes_run += 1
    out_of_time = status is None or (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU)
    return _verdict(core, report, status), not out_of_time


def _verdict(core: str, report: str, status: int | None) -> str | None:
    if status is None:
        return (f"the {core} core did not finish loading it and running {FRAMES} frames within {TIMEOUT_S:g} s "
                "in a probe process; it is not loaded")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return f"the {core} core ran out of CPU time on it in a probe process; it is not loaded"
        return (f"the {core} core crashed loading it ({fork_probe.signal_name(number)} in a probe process); "
                "it is not loaded")
    if report == "ok" and os.WEXITSTATUS(status) == 0:
        return None
    if report == "rejected":
        return f"the {core} core rejected it (another core or version, or corrupt)"
    if report:
        return f"the {core} core {report} in a probe process; it is not loaded"
    return f"a probe process loading it for the {core} core ended with exit status {os.WEXITSTATUS(status)}"
