"""Files in and out: reads that only ever open a regular file, and atomic writes (write beside the
target, flush, rename over it) whose errors name the target.

A FIFO, a device or a socket where a state, movie or JSON file is expected would block ``open()``
forever or stream without end (tar archives carry FIFOs, so a downloaded integration can hold one):
every read opens non-blocking and checks ``fstat`` before reading a byte.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"

MAX_JSON_BYTES = 64 << 20
"""The largest JSON file read (an integration's or the studio's; stable-retro's largest data.json is ~20 KiB)."""

_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, only if it is a regular file (links followed).

    Raises:
        OSError: It cannot be opened, or it is not a regular file (``strerror`` says what it is).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a file")
            raise OSError(errno.EINVAL, f"not a regular file ({kind})", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class FileTooLargeError(OSError):
    """A file over the size a reader takes; ``strerror`` says the limit."""


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, refused past ``limit`` bytes without reading more than
    ``limit + 1`` (a sparse file of gigabytes costs nothing).

    Raises:
        FileTooLargeError: The file holds more than ``limit`` bytes.
        OSError: As :func:`open_regular`, or a read error.
    """
    with open_regular(path) as f:
        data = f.read() if limit is None else f.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise FileTooLargeError(errno.EFBIG, f"larger than {limit} bytes; refusing it", os.fspath(path))
    return data


def read_json(path: str | os.PathLike[str], limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON value in the regular file ``path`` (UTF-8, at most ``limit`` bytes).

    Raises:
        OSError: As :func:`read_regular`.
        ValueError: Not UTF-8, not JSON, or nested too deeply for the decoder.
    """
    text = read_regular(path, limit).decode("utf-8")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def named_write_error(error: OSError, path: Path) -> OSError:
    """The error of a write, naming the target rather than our temp file (or nothing, as ENOSPC does)."""
    reason = error.strerror or str(error)
    if error.errno is None:
        return OSError(f"cannot write {path}: {reason}")
    try:
        return type(error)(error.errno, reason, os.fspath(path))
    except TypeError:
        return OSError(error.errno, reason, os.fspath(path))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` atomically: the old content or the new one, never a mix. Temp files
    that killed writes of the same target left behind are removed first.

    Raises:
        OSError: The write failed (disk full, read-only, no permission); the message names ``path``,
            the old file is intact, and no temp file nor any folder this write made is left.
    """
    path = Path(path)
    made: list[Path] = []
    try:
        made = make_folders(path.parent)
        sweep_stale_temps(path.parent, f"{TEMP_PREFIX}{path.name}.")
        handle, temp = _locked_temp(path)
    except OSError as error:
        remove_made_folders(made)
        raise named_write_error(error, path) from error
    try:
        os.fchmod(handle, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.replace(temp, path)  # before the close releases the lock, so no sweep takes it for stale
    except BaseException as error:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        remove_made_folders(made)
        if isinstance(error, OSError):
            raise named_write_error(error, path) from error
        raise


def make_folders(folder: Path) -> list[Path]:
    """Makes ``folder`` and its missing parents (as ``mkdir(parents=True)``); those it made, deepest first.

    Raises:
        OSError: One could not be made (none made is left).
    """
    missing: list[Path] = []
    while not folder.is_dir() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    try:
        for each in reversed(missing):
            try:
                each.mkdir()
                made.insert(0, each)
            except FileExistsError:  # made by another process meanwhile: not ours
                if not each.is_dir():
                    raise
    except OSError:
        remove_made_folders(made)
        raise
    return made


def remove_made_folders(made: list[Path]) -> None:
    """Removes the folders ``make_folders`` made (deepest first), each while it is empty: a failed write
    leaves no empty folder behind, and never removes one that something else has put a file in since."""
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            return


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _locked_temp(path: Path) -> tuple[int, str]:
    """A new temp file beside ``path``, locked while this process writes it: its lock is what tells a
    sweep that it is in use (the kernel drops it when the process dies, kill -9 included)."""
    while True:
        handle, temp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
        fcntl.flock(handle, fcntl.LOCK_EX)
        if os.fstat(handle).st_nlink:  # a sweep between mkstemp and flock removed it: take another
            return handle, temp
        os.close(handle)


def sweep_stale_temps(folder: str | os.PathLike[str], prefix: str = TEMP_PREFIX) -> list[Path]:
    """Removes the temp files our atomic writes left in ``folder`` when their process was killed
    (``.<name>.<random>.tmp`` that no live process holds locked); ``prefix`` narrows it to one target.
    Returns what was removed; a folder that cannot be listed is left alone."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX) and name.count(".") >= 3):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and _abandoned(entry.path):
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _abandoned(path: str) -> bool:
    """Removes ``path`` if no process holds its lock (checked and removed under the lock)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        os.unlink(path)
        return True
    finally:
        os.close(fd)
