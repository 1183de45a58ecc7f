"""States from outside are loaded first in a forked copy of the process, where a crash costs nothing.

A core trusts the states it is given. genesis_plus_gx segfaults on most states that keep a real header
and have a random body (at the first frame after the load); stella allocates 1.6 GB on a corrupt
512-byte state before it throws. No structure check can catch these: such states are raw dumps of a
console's memory and registers, with no lengths to add up (``emucore.state_formats`` checks the ones
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
core options, so a state is probed once; the states ``get_state()`` returns are recorded as good, and
the last few good state objects are recognised without hashing (``env.reset`` loads the same one every
time). No probe runs, and the structure checks are all there is: without ``os.fork`` (not Linux), for
a core that may start threads of its own (the forked copy would have none of them and could hang), or
with ``EMUCORE_STATE_PROBE=0`` in the environment.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import mmap
import os
import resource
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping
from functools import cache
from typing import Any, NoReturn

from emucore.libretro._native import ffi, lib
from emucore.libretro.session import CoreSession

FRAMES = 30
"""Frames the probe runs after the load: genesis_plus_gx crashes at the first one, not in the load."""
TIMEOUT_S = 10.0
MEMORY_MARGIN = 512 << 20
"""Address space the probe may map beyond the process's own (stella's bad state asks for 1.6 GB)."""
CACHE_LIMIT = 1 << 16
RECENT = 4
THREAD_SYMBOLS = (b"pthread_create", b"thrd_create", b"_M_start_thread")
ENV_SWITCH = "EMUCORE_STATE_PROBE"

logger = logging.getLogger(__name__)
probes_run = 0
"""Probe processes started by this process (tests and the bench read it)."""

_verdicts: dict[tuple[bytes, bytes], str | None] = {}  # (context, state digest) -> problem, None if good
_verdicts_lock = threading.Lock()
_MISSING = "missing"


def probe_available() -> bool:
    """Whether this process can probe states at all (Linux's fork, and not switched off)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and os.environ.get(ENV_SWITCH, "1") != "0"


@cache
def may_start_threads(core_path: str) -> bool:
    """Whether a core library imports a thread-starting function (read once per library)."""
    try:
        with open(core_path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as image:
            return any(image.find(symbol) >= 0 for symbol in THREAD_SYMBOLS)
    except (OSError, ValueError):
        return True


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
            verdict = probe(session, state, self.core_name)
            if verdict is not _MISSING:
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


def probe(session: CoreSession, state: bytes | bytearray | memoryview, core: str) -> str | None:
    """Loads ``state`` and runs ``FRAMES`` frames in a forked copy of the process; what went wrong, or None.

    The fork happens inside the session's call, so no other thread is in the core while it is copied (a
    second thread gets EmulatorBusyError, as it would from ``set_state``). Returns ``_MISSING`` (no
    verdict, nothing kept) if no process could be forked."""
    return session.call(_fork_and_wait, session, bytes(state), core)


def _fork_and_wait(host: Any, session: CoreSession, state: bytes, core: str) -> str | None:
    global probes_run
    limit = _mapped_bytes() + MEMORY_MARGIN
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(read_fd)
        os.close(write_fd)
        logger.warning("no probe of a state for the %s core: fork failed (%s); loading it unprobed", core, exc)
        return _MISSING
    if pid == 0:
        _child(host, session, state, write_fd, limit)
    probes_run += 1
    os.close(write_fd)
    try:
        report, status = _wait(pid, read_fd)
    finally:
        os.close(read_fd)
    return _verdict(core, report, status)


def _child(host: Any, session: CoreSession, state: bytes, write_fd: int, limit: int) -> NoReturn:
    code = 1
    try:
        gc.disable()
        session.log_sink = None
        session.logger.disabled = True
        _lower(resource.RLIMIT_CORE, 0)
        _lower(resource.RLIMIT_CPU, int(TIMEOUT_S) + 1, int(TIMEOUT_S) + 2)  # SIGXCPU, then SIGKILL
        _lower(resource.RLIMIT_AS, limit)
        os.write(write_fd, _load_and_run(host, state).encode("utf-8", "replace")[:4000])
        code = 0
    finally:
        os._exit(code)


def _load_and_run(host: Any, state: bytes) -> str:
    """The child's part: the session's lock is held (by the parent's call), so the core is called directly."""
    try:
        loaded = lib.emu_unserialize(host, ffi.from_buffer(state), len(state))
        if loaded == 0:
            return "rejected"
        if loaded < 0 or lib.emu_run_frames(host, FRAMES):
            said = ffi.string(host.error).decode("utf-8", "replace")
            step = "retro_unserialize" if loaded < 0 else "retro_run"
            if "bad_alloc" in said:
                return f"needed more than {MEMORY_MARGIN >> 20} MiB of memory for it ({step}: {said})"
            return f"failed on it ({step}: {said})"
    except MemoryError:
        return f"needed more than {MEMORY_MARGIN >> 20} MiB of memory for it"
    except Exception as exc:
        return f"failed on it ({type(exc).__name__}: {exc})"
    return "ok"


def _lower(limit: int, soft: int, hard: int | None = None) -> None:
    _, current = resource.getrlimit(limit)
    hard = soft if hard is None else hard
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(limit, (soft, hard))


def _mapped_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _wait(pid: int, read_fd: int) -> tuple[str, int | None]:
    """The child's report and wait status; status None if it was killed for running past ``TIMEOUT_S``."""
    deadline = time.monotonic() + TIMEOUT_S
    poller = select.poll()  # not select(): a process with many files has descriptors past FD_SETSIZE
    poller.register(read_fd, select.POLLIN)
    chunks: list[bytes] = []
    status: int | None = None
    try:
        while (left := deadline - time.monotonic()) > 0 and poller.poll(left * 1000):
            chunk = os.read(read_fd, 4096)
            if not chunk:  # the pipe closes when the child exits
                status = os.waitpid(pid, 0)[1]
                break
            chunks.append(chunk)
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8", "replace"), status


def _verdict(core: str, report: str, status: int | None) -> str | None:
    if status is None:
        return (f"the {core} core did not finish loading it and running {FRAMES} frames within {TIMEOUT_S:g} s "
                "in a probe process; it is not loaded")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return f"the {core} core ran out of CPU time on it in a probe process; it is not loaded"
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"the {core} core crashed loading it ({name} in a probe process); it is not loaded"
    if report == "ok" and os.WEXITSTATUS(status) == 0:
        return None
    if report == "rejected":
        return f"the {core} core rejected it (another core or version, or corrupt)"
    if report:
        return f"the {core} core {report} in a probe process; it is not loaded"
    return f"a probe process loading it for the {core} core ended with exit status {os.WEXITSTATUS(status)}"
