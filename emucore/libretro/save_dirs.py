"""The save folders cores are given (GET_SAVE_DIRECTORY): made per session, never left behind.

A folder goes when its session shuts down, or at exit for sessions never closed. A process that
was killed cannot clean up, so each folder holds a lock (``flock``, released by the kernel when
the process dies, whatever its PID namespace) and the next process sweeps the unlocked ones.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile
import time

PREFIX = "emucore-save-"
LOCK = ".owner.lock"
SWEEP_AFTER_S = 60  # a folder younger than this may be between its creation and its lock

_owned: dict[str, int] = {}  # folder -> the fd holding its lock, for this process's folders
_swept = False


def make_save_dir() -> str:
    """A new save folder, locked by this process; the first call also sweeps dead processes' folders."""
    global _swept
    if not _swept:
        _swept = True
        sweep_stale(tempfile.gettempdir())
    folder = tempfile.mkdtemp(prefix=PREFIX)
    fd = os.open(os.path.join(folder, LOCK), os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    _owned[folder] = fd
    return folder


def remove_save_dir(folder: str) -> None:
    fd = _owned.pop(folder, None)
    shutil.rmtree(folder, ignore_errors=True)
    if fd is not None:
        os.close(fd)


def sweep_stale(parent: str) -> list[str]:
    """Removes the save folders in ``parent`` whose process is gone; returns them."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        lock = os.path.join(entry.path, LOCK)
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue  # no lock: not ours to judge
        try:
            if time.time() - os.fstat(fd).st_mtime < SWEEP_AFTER_S:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # its process is alive
        finally:
            os.close(fd)
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.path)
    return removed


@atexit.register
def _remove_all() -> None:
    for folder in list(_owned):
        remove_save_dir(folder)


def _forget_in_child() -> None:
    """A forked child shares the parent's locks; the folders stay the parent's to remove."""
    _owned.clear()


os.register_at_fork(after_in_child=_forget_in_child)
