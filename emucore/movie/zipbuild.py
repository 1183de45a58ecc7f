"""ZIP archives of entries deflated beforehand, so that a growing entry is compressed only once.

:class:`GrowingEntry` deflates an entry as data is appended to it and gives the compressed
entry of what it holds so far, plus a tail, without compressing it all again (the compressor
is copied). :func:`zip_archive` lays entries out exactly as ``zipfile`` does for
``writestr`` of a ``ZipInfo`` with Unix attributes (flat, deflated, no data descriptor, no
extra fields, no ZIP64), so the bytes are those of :func:`emucore.movie.bk2.build_archive`.
"""

from __future__ import annotations

import struct
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

LEVEL = 6
_VERSION = 20  # zipfile's DEFAULT_VERSION: deflate
_UNIX = 3
_ATTRIBUTES = 0o100666 << 16
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
_END = struct.Struct("<4s4H2LH")


@dataclass(frozen=True)
class Deflated:
    """One archive entry: its name, raw deflate stream, CRC-32 and uncompressed size."""

    name: str
    data: bytes
    crc: int
    size: int


def deflate(name: str, data: bytes) -> Deflated:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return Deflated(name, compressor.compress(data) + compressor.flush(), zlib.crc32(data), len(data))


class GrowingEntry:
    """An entry compressed as it grows (appends only)."""

    def __init__(self, name: str):
        self.name = name
        self._compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        self._parts: list[bytes] = []
        self._crc = 0
        self._size = 0

    def append(self, data: bytes) -> None:
        self._parts.append(self._compressor.compress(data))
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)

    def entry(self, tail: bytes = b"") -> Deflated:
        """The entry of everything appended, then ``tail`` (which is not kept)."""
        if len(self._parts) > 1:
            self._parts = [b"".join(self._parts)]
        last = self._compressor.copy()
        data = b"".join([*self._parts, last.compress(tail), last.flush()])
        return Deflated(self.name, data, zlib.crc32(tail, self._crc), self._size + len(tail))


def dos_stamp(when: float | None = None) -> tuple[int, int]:
    """(time, date) in MS-DOS form, local time, as zipfile stores a ``ZipInfo.date_time``."""
    year, month, day, hour, minute, second = time.localtime(time.time() if when is None else when)[:6]
    year = max(year, 1980)
    return hour << 11 | minute << 5 | second // 2, (year - 1980) << 9 | month << 5 | day


def zip_archive(entries: Sequence[Deflated], when: float | None = None) -> bytes:
    """The archive of the entries, in order, as ``zipfile`` would write it."""
    dostime, dosdate = dos_stamp(when)
    out: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for entry in entries:
        name = entry.name.encode("ascii")
        fields = (zlib.DEFLATED, dostime, dosdate, entry.crc, len(entry.data), entry.size, len(name))
        local = _LOCAL.pack(b"PK\x03\x04", _VERSION, 0, 0, *fields, 0) + name
        central.append(
            _CENTRAL.pack(b"PK\x01\x02", _VERSION, _UNIX, _VERSION, 0, 0, *fields, 0, 0, 0, 0, _ATTRIBUTES, offset)
            + name
        )
        out += (local, entry.data)
        offset += len(local) + len(entry.data)
    directory = b"".join(central)
    end = _END.pack(b"PK\x05\x06", 0, 0, len(entries), len(entries), len(directory), offset, 0)
    return b"".join([*out, directory, end])
