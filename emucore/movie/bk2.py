"""The ``.bk2`` container (stable-retro's dialect and BizHawk's): its ZIP entries, written and read.

Writing produces exactly what stable-retro 1.0.1 writes (movie-format.md §1-§3): a ZIP with
the deflated entries ``Input Log.txt``, ``Header.txt``, ``Core.bin`` in that order; the eight
header lines are :func:`emucore.movie.header.render_header`'s, the log (a key line without
``LogKey:``, one ``|..|<P1>|<P2>|`` line per frame with the columns in descending button index,
and ``[/Input]`` without a trailing newline) :class:`emucore.movie.input_log.InputLogWriter`'s.

Reading is tolerant (§8 [rec] 2):

* entry names are matched exactly first, then case-insensitively without their extension
  (BizHawk's rule); only ``Input Log.txt`` is required. ``Header.txt`` defaults to an empty
  header (game ``?``), ``Core.bin`` to no state;
* the log is read by :func:`emucore.movie.input_log.parse_input_log` (CRLF line ends, missing
  ``[Input]`` or key lines and blank lines accepted; BizHawk key lines mapped by name, others by
  char, as stable-retro reads them);
* BizHawk platform codes and stable-retro system tokens both name a platform
  (:func:`emucore.movie.header.resolve_platform`). Without a ``Platform`` line, the system the
  ``GameName`` declares is used (stable-retro then reads every key as released); an unknown
  platform maps no char, as in stable-retro (and playback refuses it);
* entry sizes are capped (``Input Log`` 64 MiB, ``Core.bin`` 256 MiB, others 1 MiB), both the
  declared sizes and the bytes actually inflated; at most 8 players are read.

:func:`read_movie` reads a ``.bk2`` or, told by its content, an FCEUX ``.fm2``
(:mod:`emucore.movie.fm2`).

Every problem raises :class:`~emucore.errors.MovieError`, naming the file and the problem.
"""

from __future__ import annotations

import io
import os
import time
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from emucore.errors import MovieError
from emucore.fileio import atomic_write_bytes, open_regular
from emucore.movie.fm2 import read_fm2
from emucore.movie.header import MovieData, parse_header, resolve_platform
from emucore.movie.input_log import decode_text, parse_input_log

INPUT_LOG = "Input Log.txt"
HEADER = "Header.txt"
CORE = "Core.bin"

#: Caps on what an entry may inflate to (and on its declared size).
MAX_INPUT_LOG_BYTES = 64 << 20
MAX_CORE_BYTES = 256 << 20
MAX_OTHER_BYTES = 1 << 20


# ---------------------------------------------------------------------------------------------
# Writing


def build_archive(entries: Sequence[tuple[str, bytes]], when: float | None = None) -> bytes:
    """A ZIP of the entries, in order, deflated, flat, "made by" Unix, local-time stamps."""
    stamp = time.localtime(time.time() if when is None else when)[:6]
    stamp = (max(stamp[0], 1980), *stamp[1:])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100666 << 16
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    return buffer.getvalue()


def write_bk2(path: str | os.PathLike[str], input_log: str, header: str, core: bytes | None) -> None:
    """Writes a movie atomically (temp file beside it, then rename). ``core`` None or empty: no ``Core.bin``.

    Raises:
        MovieError: the file cannot be written.
    """
    entries = [(INPUT_LOG, input_log.encode("utf-8")), (HEADER, header.encode("utf-8"))]
    if core:
        entries.append((CORE, bytes(core)))
    try:
        atomic_write_bytes(Path(path), build_archive(entries))
    except OSError as exc:
        raise MovieError(path, f"cannot be written: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------------------------------------
# Reading


def read_movie(path: str | os.PathLike[str]) -> MovieData:
    """Reads a ``.bk2`` (any ZIP) or ``.fm2`` (FCEUX text) movie, chosen by content.

    Raises:
        MovieError: missing, unreadable, corrupt, oversized, or not a movie.
    """
    path = Path(path)
    try:
        with open_regular(path) as f:
            head = f.read(16)
    except FileNotFoundError:
        raise MovieError(path, "no such file") from None
    except IsADirectoryError:
        raise MovieError(path, "is a folder, not a movie file") from None
    except OSError as exc:
        raise MovieError(path, f"cannot be read: {exc.strerror or exc}") from exc
    if head.startswith(b"PK"):
        return _read_bk2(path)
    text_head = head.lstrip(b"\xef\xbb\xbf")
    if text_head.startswith(b"version"):
        return read_fm2(path)
    if not head:
        raise MovieError(path, "empty file")
    if path.suffix.lower() == ".fm2":
        raise MovieError(path, "not an FCEUX movie (the first line must be 'version 3')")
    raise MovieError(path, "not a movie: a .bk2 is a ZIP archive, a .fm2 starts with 'version 3'")


def _find_entry(names: Sequence[str], wanted: str) -> str | None:
    if wanted in names:
        return wanted
    stem = wanted.rsplit(".", 1)[0].lower()
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if base.rsplit(".", 1)[0].lower() == stem:
            return name
    return None


def _read_entry(path: Path, archive: zipfile.ZipFile, name: str, limit: int) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise MovieError(path, f"entry {name!r} declares {info.file_size} bytes, more than the {limit}-byte cap")
    try:
        with archive.open(info) as f:
            data = f.read(limit + 1)
    except zipfile.BadZipFile as exc:
        raise MovieError(path, f"entry {name!r} is corrupt ({exc})") from exc
    except (zlib.error, EOFError, ValueError, OSError) as exc:  # OSError: offsets past the file's end
        raise MovieError(path, f"entry {name!r} is corrupt ({str(exc) or type(exc).__name__})") from exc
    except NotImplementedError as exc:
        raise MovieError(path, f"entry {name!r} uses an unsupported compression ({exc})") from exc
    except RuntimeError as exc:  # encrypted entries
        raise MovieError(path, f"entry {name!r} cannot be read ({exc})") from exc
    if len(data) > limit:
        raise MovieError(path, f"entry {name!r} inflates to more than the {limit}-byte cap")
    return data


def open_archive(path: Path) -> zipfile.ZipFile:
    """The ZIP archive of a ``.bk2``, its directory read.

    Raises:
        MovieError: the file cannot be read, is not a ZIP archive, or needs a newer ZIP version.
    """
    try:
        handle = open_regular(path)
    except OSError as exc:
        raise MovieError(path, f"cannot be read: {exc.strerror or exc}") from exc
    try:
        return zipfile.ZipFile(handle)
    except BaseException as exc:
        handle.close()  # zipfile leaves a file it was given open
        if isinstance(exc, (zipfile.BadZipFile, OSError, ValueError, EOFError)):
            raise MovieError(path, f"not a valid ZIP archive ({exc})") from exc
        if isinstance(exc, NotImplementedError):  # "zip file version 9.9": newer than zipfile reads
            raise MovieError(path, f"needs a newer ZIP version than this Python reads ({exc})") from exc
        raise


def _read_bk2(path: Path) -> MovieData:
    archive = open_archive(path)
    with archive:
        try:
            names = archive.namelist()
        except Exception as exc:  # pragma: no cover - zipfile validates the directory on open
            raise MovieError(path, f"unreadable ZIP directory ({exc})") from exc
        log_name = _find_entry(names, INPUT_LOG)
        if log_name is None:
            listed = ", ".join(repr(n) for n in names[:8]) or "none"
            raise MovieError(path, f"no {INPUT_LOG!r} entry (entries: {listed})")
        header_name = _find_entry(names, HEADER)
        core_name = _find_entry(names, CORE)
        log_text = decode_text(_read_entry(path, archive, log_name, MAX_INPUT_LOG_BYTES))
        header_text = decode_text(_read_entry(path, archive, header_name, MAX_OTHER_BYTES)) if header_name else ""
        core = _read_entry(path, archive, core_name, MAX_CORE_BYTES) if core_name else b""
        extra = [n for n in names if n not in (log_name, header_name, core_name)]
    header = parse_header(header_text)
    platform = header.get("Platform", "")
    game = header.get("GameName", "?") or "?"
    system = resolve_platform(platform)
    if system is None and not platform:
        from emucore.data.systeminfo import system_from_game_name

        system = system_from_game_name(game) if game != "?" else None
    data = parse_input_log(log_text, system, path)
    return MovieData(
        kind="bk2",
        header=header,
        game=game,
        platform=platform,
        system=system,
        players=data.players,
        masks=data.masks,
        core=core,
        by_name=data.by_name,
        key_names=data.key_names,
        extra_entries=extra,
    )
