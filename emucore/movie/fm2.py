"""FCEUX ``.fm2`` movies (NES): read.

An ``.fm2`` is recognised by its first line ``version 3`` whatever the extension (see
:func:`emucore.movie.bk2.read_movie`); ``port1 1`` gives 2 players, and the pad fields are read
by position in FCEUX's ``RLDUTSBA`` order (any char but ``.`` or space is a press; for FCEUX's
own files this is what stable-retro's by-char reading gives). It has no game name (``?``) and no
start state.
"""

from __future__ import annotations

import io
from pathlib import Path

from emucore.errors import MovieError
from emucore.fileio import open_regular
from emucore.movie.header import MovieData
from emucore.movie.input_log import decode_lines, decode_text
from emucore.systems import systems

#: The largest .fm2 file read (the cap on a .bk2's input log).
MAX_FM2_BYTES = 64 << 20
FM2_CHARS = "RLDUTSBA"  # the gamepad field's columns, in order
FM2_BUTTONS = {"R": "RIGHT", "L": "LEFT", "D": "DOWN", "U": "UP", "T": "START", "S": "SELECT", "B": "B", "A": "A"}


def read_fm2(path: Path) -> MovieData:
    """Reads an ``.fm2`` movie.

    Raises:
        MovieError: unreadable, larger than :data:`MAX_FM2_BYTES`, or not an FCEUX movie version 3.
    """
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_FM2_BYTES + 1)
    except OSError as exc:
        raise MovieError(path, f"cannot be read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_FM2_BYTES:
        raise MovieError(path, f"larger than the {MAX_FM2_BYTES}-byte cap")
    text = decode_text(raw)
    first = text.split("\n", 1)[0]
    if first.rstrip("\r").strip() != "version 3":
        raise MovieError(path, f"not an FCEUX movie version 3 (first line {first.strip()[:40]!r})")
    nes = systems()["Nes"]
    index_of = [1 << nes.buttons.index(FM2_BUTTONS[char]) for char in FM2_CHARS]
    header: dict[str, str] = {}
    for raw_line in io.StringIO(text):
        if raw_line[:1] == "|":
            break
        if raw_line.strip():
            key, _, value = raw_line.rstrip("\r\n").partition(" ")
            header.setdefault(key, value.strip())
    players = 2 if header.get("port1", "").strip() == "1" else 1

    def decode(fields: list[str]) -> list[int]:
        row = [0] * players
        for p in range(min(players, len(fields) - 1)):
            mask = 0
            for position, char in enumerate(fields[p + 1][: len(FM2_CHARS)]):
                if char not in ". ":  # FCEUX reads the pad field by position
                    mask |= index_of[position]
            row[p] = mask
        return row

    frame_lines = (line.rstrip("\r\n") for line in io.StringIO(text) if line[:1] == "|")
    masks_array = decode_lines(frame_lines, decode, players)
    header.setdefault("Platform", "NES")
    return MovieData(
        kind="fm2", header=header, game="?", platform="NES", system="Nes", players=players, masks=masks_array,
        core=b"",
    )
