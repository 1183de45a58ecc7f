"""Cutting a ``.bk2`` movie short: ``trim_bk2(path, frames, out)`` keeps its first frames.

The movie's entries are copied as they are (header, start state, any other entry) and its input
log keeps the key line and the first ``frames`` frame lines, so the trimmed movie replays the
same play, up to its new end, exactly as the whole one did.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from emucore.errors import MovieError
from emucore.fileio import atomic_write_bytes
from emucore.movie.bk2 import INPUT_LOG, MAX_CORE_BYTES, _find_entry, _read_entry, build_archive, open_archive
from emucore.movie.input_log import decode_text


def _cut_log(text: str, frames: int) -> tuple[str, int]:
    """The log with its first ``frames`` frame lines (and how many it had)."""
    out, seen = io.StringIO(), 0
    for raw in io.StringIO(text):
        if raw[:1] == "|":
            seen += 1
            if seen > frames:
                continue
        elif raw.strip() == "[/Input]":
            break
        out.write(raw if raw.endswith("\n") else raw + "\n")
    out.write("[/Input]")
    return out.getvalue(), seen


def trim_bk2(path: str | os.PathLike[str], frames: int, out: str | os.PathLike[str] | None = None) -> int:
    """Writes ``path`` cut to its first ``frames`` frame lines to ``out`` (default: in place,
    atomically); returns how many frame lines the movie had.

    Raises:
        MovieError: the movie cannot be read or written, or has no more than ``frames`` frames
            (nothing to cut) or ``frames`` is below 2 (a reset frame and one of play).
    """
    path = Path(path)
    if isinstance(frames, bool) or not isinstance(frames, int) or frames < 2:
        raise MovieError(path, f"a trimmed movie keeps at least 2 frames, not {frames!r}")
    with open_archive(path) as archive:
        names = archive.namelist()
        log_name = _find_entry(names, INPUT_LOG)
        if log_name is None:
            raise MovieError(path, f"no {INPUT_LOG!r} entry")
        entries = [(name, _read_entry(path, archive, name, MAX_CORE_BYTES)) for name in names]
    text, had = _cut_log(decode_text(dict(entries)[log_name]), frames)
    if had <= frames:
        raise MovieError(path, f"has {had} frames: nothing to cut at frame {frames}")
    entries = [(name, text.encode("utf-8") if name == log_name else data) for name, data in entries]
    try:
        atomic_write_bytes(Path(out) if out is not None else path, build_archive(entries))
    except OSError as exc:
        raise MovieError(out or path, f"cannot be written: {exc.strerror or exc}") from exc
    return had


__all__ = ["trim_bk2"]
