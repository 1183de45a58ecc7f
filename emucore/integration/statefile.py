"""``<Name>.state`` files: a gzip stream of the core's ``retro_serialize`` bytes (IF §7).

:class:`StateStore` is the ``states`` mapping of an integration. It opens a state file only
when that state is asked for, so loading a folder (or a thousand of them) does not gunzip
megabytes of core state, and it saves an untouched state by copying its file.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator, MutableMapping
from pathlib import Path

from emucore.fileio import atomic_write_bytes, open_regular
from emucore.integration.common import IntegrationError, read_file

STATE_SUFFIX = ".state"
MAX_STATE_BYTES = 256 << 20  # the largest shipped payload is 16 MiB (N64)
GZIP_MAGIC = b"\x1f\x8b"
GZIP_LEVEL = 6  # zlib's default, which stable-retro's writer uses


def gunzip_state(data: bytes, path: str | os.PathLike[str] | None = None, limit: int | None = None) -> bytes:
    """The raw core state inside gzip-compressed ``data`` (at most ``limit`` bytes, default 256 MiB).

    Raises:
        IntegrationError: ``data`` is not gzip, is truncated or corrupt, or inflates beyond ``limit``.
    """
    if data[:2] != GZIP_MAGIC:
        problem = "empty file" if not data else "not a gzip file (a .state file is a gzip of the core's state)"
        raise IntegrationError(path, problem)
    limit = MAX_STATE_BYTES if limit is None else limit
    out = bytearray()
    pending = data
    while pending[:2] == GZIP_MAGIC:  # concatenated gzip members inflate to one stream
        inflater = zlib.decompressobj(wbits=31)
        try:
            while not inflater.eof:
                out += inflater.decompress(pending, limit + 1 - len(out))
                if len(out) > limit:
                    raise IntegrationError(path, f"inflates to more than {limit} bytes; refusing it")
                pending = inflater.unconsumed_tail
                if not pending and not inflater.eof:
                    raise IntegrationError(path, "truncated gzip data (the file ends inside the stream)")
        except zlib.error as e:
            raise IntegrationError(path, f"corrupt gzip data ({e})") from e
        pending = inflater.unused_data
    return bytes(out)


def read_state_file(path: str | os.PathLike[str]) -> bytes:
    """The raw core state in a ``.state`` file (gunzipped, at most 256 MiB).

    Raises:
        IntegrationError: The file cannot be read, is not gzip, is truncated or corrupt, or is too big.
    """
    return gunzip_state(read_file(path, MAX_STATE_BYTES), path)


def state_file(folder: str | os.PathLike[str], name: str) -> Path:
    """The file of the integration's state ``name`` (``<name>.state`` in the folder)."""
    return Path(folder, f"{name}{STATE_SUFFIX}")


def state_names(folder: str | os.PathLike[str]) -> list[str]:
    """The names of the folder's states (its ``<name>.state`` files), sorted."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return sorted(e.name[: -len(STATE_SUFFIX)] for e in entries
                  if e.name.endswith(STATE_SUFFIX) and len(e.name) > len(STATE_SUFFIX) and e.is_file())


def gzip_state(raw: bytes) -> bytes:
    """gzip bytes of a raw state, reproducible (mtime 0)."""
    return gzip.compress(bytes(raw), compresslevel=GZIP_LEVEL, mtime=0)


def write_state_file(path: str | os.PathLike[str], raw: bytes) -> None:
    """Writes a raw core state as a ``.state`` file (gzip, mtime 0), atomically."""
    atomic_write_bytes(Path(path), gzip_state(raw))


def check_state_header(path: Path) -> str | None:
    """A quick look at a state file: the problem with its first bytes, or None when it looks like gzip."""
    try:
        with open_regular(path) as f:
            head = f.read(2)
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if head != GZIP_MAGIC:
        return "empty file" if not head else "not a gzip file (a .state file is a gzip of the core's state)"
    return None


class StateStore(MutableMapping):
    """State name -> raw core state bytes, read from the state files on first access.

    Assigning a state replaces it in memory; the file it came from is no longer used.
    """

    def __init__(self, files: dict[str, Path] | None = None, raw: dict[str, bytes] | None = None):
        self._order: dict[str, None] = {}
        self._files: dict[str, Path] = {}
        self._raw: dict[str, bytes] = {}
        for name, path in (files or {}).items():
            self._order[name] = None
            self._files[name] = Path(path)
        for name, data in (raw or {}).items():
            self[name] = data

    def __getitem__(self, name: str) -> bytes:
        if name in self._raw:
            return self._raw[name]
        raw = read_state_file(self._files[name])
        self._raw[name] = raw
        return raw

    def __setitem__(self, name: str, raw: bytes) -> None:
        if not isinstance(raw, (bytes, bytearray, memoryview)):
            raise TypeError(f"state {name!r} must be bytes, not {type(raw).__name__}")
        self._order[name] = None
        self._files.pop(name, None)
        self._raw[name] = bytes(raw)

    def __delitem__(self, name: str) -> None:
        del self._order[name]
        self._files.pop(name, None)
        self._raw.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, name: object) -> bool:
        return name in self._order

    def __repr__(self) -> str:
        return f"StateStore({sorted(self._order)!r})"

    def copy(self) -> dict[str, bytes]:
        """A plain dict of every state (reads them all)."""
        return dict(self.items())

    def source_file(self, name: str) -> Path | None:
        """The state file ``name`` still comes from, or None if it was assigned in memory."""
        return self._files.get(name)

    def compressed(self, name: str) -> bytes:
        """The ``.state`` file content for ``name``: the source file's bytes when unchanged."""
        source = self._files.get(name)
        if source is not None:
            return read_file(source, MAX_STATE_BYTES)
        return gzip_state(self._raw[name])

    def moved_to(self, folder: Path) -> None:
        """Points file-backed states at ``folder/<name>.state`` (after the folder was saved there)."""
        for name in self._files:
            self._files[name] = folder / f"{name}{STATE_SUFFIX}"
