"""The seal on the ROM probe's verdicts on disk: an HMAC-SHA256 with a secret key of the user's own.

The folder of verdicts is a cache (``$XDG_CACHE_HOME/emucore/rom-probe``), and a cache may be written
by others than the user: one shared between users or machines, a CI cache, an image layer, a synced
home. A verdict anyone could write would switch the probe off for a chosen ROM (a forged "ok") or
refuse a good one. So each verdict file carries an HMAC over its name (the key of the ROM, core and
options it is about) and its content, made with a key only the user can read: whoever can write the
cache folder but cannot read that key (cannot run as the user) can make no verdict that is believed.

The key is 32 random bytes in a file of its own (``$XDG_CONFIG_HOME/emucore/rom-probe.key``), made at
the first need: written to a private temp file (``mkstemp``: mode 0600, ``O_EXCL``) and linked to its
name, which fails if the name exists, so two processes never see a half-written key. A key file that is
not a plain file owned by the user (a symbolic link is not followed), is readable or writable by the
group or others, or is not 32 bytes is not used (a warning says so, once): no verdict on disk is read
or written then, and every ROM is probed again.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import tempfile
from pathlib import Path

KEY_BYTES = 32
MAC_HEX = 2 * hashlib.sha256().digest_size

logger = logging.getLogger(__name__)
_warned: set[str] = set()
_ABSENT = object()


def load_key(path: Path) -> bytes | None:
    """The key in ``path``, made there if there is none; None if it cannot be made or is not private."""
    key = _read_key(path)
    if key is _ABSENT:
        try:
            _make_key(path)
        except OSError as exc:
            _warn_once(path, f"cannot be made ({exc.strerror or exc})")
            return None
        key = _read_key(path)
    return key if isinstance(key, bytes) else None


def seal(key: bytes, name: str, body: bytes) -> bytes:
    """``body`` and its MAC, as a verdict file holds them."""
    return body + b"\n" + _mac(key, name, body).encode("ascii")


def unseal(key: bytes, name: str, data: bytes) -> bytes | None:
    """The body of a verdict file named ``name`` if its MAC verifies, else None."""
    body, _, mac = data.rpartition(b"\n")
    if len(mac) != MAC_HEX:
        return None
    if not hmac.compare_digest(mac, _mac(key, name, body).encode("ascii")):
        return None
    return body


def _mac(key: bytes, name: str, body: bytes) -> str:
    return hmac.new(key, name.encode("utf-8", "surrogateescape") + b"\0" + body, hashlib.sha256).hexdigest()


def _read_key(path: Path) -> bytes | object | None:
    """The key; ``_ABSENT`` if there is no file; None (and a warning) if the file is not one to trust."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return _ABSENT
    except OSError as exc:  # a symbolic link (ELOOP), no permission
        _warn_once(path, f"cannot be opened ({exc.strerror or exc})")
        return None
    try:
        info = os.fstat(fd)
        problem = _key_file_problem(info)
        data = b"" if problem else os.read(fd, KEY_BYTES + 1)
    except OSError as exc:
        problem = f"cannot be read ({exc.strerror or exc})"
    finally:
        os.close(fd)
    if not problem and len(data) != KEY_BYTES:
        problem = f"holds {len(data)} bytes, not {KEY_BYTES}"
    if problem:
        _warn_once(path, problem)
        return None
    return data


def _key_file_problem(info: os.stat_result) -> str | None:
    if not stat.S_ISREG(info.st_mode):
        return "is not a plain file"
    if info.st_uid != os.geteuid():
        return f"is owned by user id {info.st_uid}, not by this user ({os.geteuid()})"
    if info.st_mode & 0o077:
        return f"can be read or written by others than its owner (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def _make_key(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600, O_EXCL
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(KEY_BYTES))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(temp, path)  # fails if the name exists: another process made its key first
        except FileExistsError:
            pass
    finally:
        os.unlink(temp)


def _warn_once(path: Path, problem: str) -> None:
    if str(path) not in _warned:
        _warned.add(str(path))
        logger.warning("the ROM probe's key file %s %s: verdicts on disk are not used, ROMs are probed again",
                       path, problem)
