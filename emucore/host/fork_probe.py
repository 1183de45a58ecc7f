"""Work a crash must not reach this process: done in a forked copy of it, with lowered limits.

Shared by the probes of states (``state_probe``) and ROMs (``rom_probe``). The child made by
``os.fork()`` turns the garbage collector off (no finalizer of the parent's objects runs there), lowers
its limits (address space: what the process maps now plus a margin; CPU time; no core dump), does the
work, writes its one report to a pipe and leaves with ``os._exit``: no atexit handler or buffer flush of
the parent runs there. The parent waits at most a wall time and kills the child past it.
"""

from __future__ import annotations

import faulthandler
import gc
import mmap
import os
import resource
import select
import signal
import sys
import time
from collections.abc import Callable
from functools import cache
from typing import NoReturn

THREAD_SYMBOLS = (b"pthread_create", b"thrd_create", b"_M_start_thread")
REPORT_LIMIT = 4000


def available(switch: str) -> bool:
    """Whether this process can probe at all: Linux's fork, and ``switch`` in the environment not "0"."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and os.environ.get(switch, "1") != "0"


@cache
def may_start_threads(core_path: str) -> bool:
    """Whether a core library imports a thread-starting function (read once per library).

    A forked copy has none of the parent's other threads, and such a core could wait on them forever."""
    try:
        with open(core_path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as image:
            return any(image.find(symbol) >= 0 for symbol in THREAD_SYMBOLS)
    except (OSError, ValueError):
        return True


def run_forked(work: Callable[[], str], timeout_s: float, memory_margin: int) -> tuple[str, int | None]:
    """``work()`` in a forked child; its report and wait status (None: killed past ``timeout_s``).

    Raises:
        OSError: No process could be forked.
    """
    limit = mapped_bytes() + memory_margin
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        raise
    if pid == 0:
        _child(work, write_fd, limit, timeout_s)
    os.close(write_fd)
    try:
        return wait(pid, read_fd, timeout_s)
    finally:
        os.close(read_fd)


def _child(work: Callable[[], str], write_fd: int, limit: int, timeout_s: float) -> NoReturn:
    code = 1
    try:
        gc.disable()
        faulthandler.disable()  # a crash is what the child is for: no traceback on the parent's stderr
        lower(resource.RLIMIT_CORE, 0)
        lower(resource.RLIMIT_CPU, int(timeout_s) + 1, int(timeout_s) + 2)  # SIGXCPU, then SIGKILL
        lower(resource.RLIMIT_AS, limit)
        os.write(write_fd, work().encode("utf-8", "replace")[:REPORT_LIMIT])
        code = 0
    finally:
        os._exit(code)


def lower(limit: int, soft: int, hard: int | None = None) -> None:
    """Lowers a resource limit of this process (never raises one above its current hard limit)."""
    _, current = resource.getrlimit(limit)
    hard = soft if hard is None else hard
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(limit, (soft, hard))


def mapped_bytes() -> int:
    """The address space this process maps now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def wait(pid: int, read_fd: int, timeout_s: float) -> tuple[str, int | None]:
    """The child's report and wait status; status None if it was killed for running past ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
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


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
