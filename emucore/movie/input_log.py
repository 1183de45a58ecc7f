"""The text of ``Input Log.txt``: written exactly as stable-retro writes it, read tolerantly.

Writing (:class:`InputLogWriter`): ``[Input]``, a key line without ``LogKey:``, one
``|..|<P1>|<P2>|`` line per frame with the columns in descending button index, and ``[/Input]``
without a trailing newline (movie-format.md §3).

Reading (:func:`parse_input_log`; §8 [rec] 2): CRLF line ends, a missing ``[Input]`` line, a
missing key line and blank lines are accepted. **Blank lines are skipped** (stable-retro stops
playback at the first one). A BizHawk key line has its columns mapped by name and position
(:mod:`emucore.movie.bizhawk_keys`); every other key line is read like stable-retro: **by char**,
through the platform's char table (:mod:`emucore.movie.columns`), positions ignored. At most 8
players are read.

Logs whose frame lines share one layout are decoded with numpy in one go (a million lines
in about a second); others line by line, with the same results.
"""

from __future__ import annotations

import io
import os
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from emucore.errors import MovieError
from emucore.movie.bizhawk_keys import GroupMap, field_presses_by_name, map_groups, name_groups
from emucore.movie.columns import Column, char_table, key_tokens, players_in
from emucore.systems import systems

#: The most players a movie may name (emucore plays at most 2).
MAX_READ_PLAYERS = 8
#: Distinct frame lines remembered while parsing (repeated lines are decoded once).
MAX_CACHED_LINES = 1 << 16


# ---------------------------------------------------------------------------------------------
# Writing


class InputLogWriter:
    """Renders frame lines of a stable-retro input log for a fixed column layout."""

    def __init__(self, columns: Sequence[Column], players: int):
        self.columns = list(columns)
        self.players = players
        self._fields: dict[int, str] = {}

    def key_line(self) -> str:
        """``P1 Z|P1 X|...|`` (no ``LogKey:``, no groups; stable-retro's quirk) and LF."""
        return "".join(f"P{p} {c.name}|" for p in range(1, self.players + 1) for c in self.columns) + "\n"

    def field(self, mask: int) -> str:
        text = self._fields.get(mask)
        if text is None:
            text = "".join(c.char if mask >> c.index & 1 else "." for c in self.columns)
            self._fields[mask] = text
        return text

    def frame_line(self, masks: Sequence[int]) -> str:
        return "|..|" + "".join(self.field(int(m)) + "|" for m in masks) + "\n"

    def render(self, frames: Iterable[Sequence[int]]) -> str:
        """The whole ``Input Log.txt``: ``[Input]``, key line, frame lines, ``[/Input]`` (no final LF)."""
        out = io.StringIO()
        out.write("[Input]\n")
        out.write(self.key_line())
        for masks in frames:
            out.write(self.frame_line(masks))
        out.write("[/Input]")
        return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Reading


def decode_text(data: bytes) -> str:
    """The text of a log or header file: UTF-8 (bad bytes replaced), without a byte-order mark."""
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


@dataclass
class ParsedLog:
    """What :func:`parse_input_log` reads: the players, their masks and how the columns were mapped."""

    players: int
    masks: np.ndarray
    by_name: bool
    key_names: list[str]


def _split_frame(line: str) -> list[str]:
    """The fields of a frame line ``|a|b|c|`` -> ``["a", "b", "c"]``."""
    body = line[1:]
    if body.endswith("|"):
        body = body[:-1]
    return body.split("|")


def _frame_lines(text: str) -> Iterator[str]:
    """The frame lines (starting with ``|``, line end removed) up to ``[/Input]``, lazily."""
    for raw in io.StringIO(text):
        if raw[:1] == "|":
            yield raw.rstrip("\r\n")
        elif raw.strip() == "[/Input]":
            return


def _key_line(text: str) -> str | None:
    """The key line: the first non-blank line before any frame line, other than ``[Input]``,
    that has a ``|`` or starts with ``LogKey:``."""
    for raw in io.StringIO(text):
        if raw[:1] == "|":
            return None
        stripped = raw.strip()
        if stripped == "[/Input]":
            return None
        if stripped and stripped != "[Input]" and ("|" in stripped or stripped.startswith("LogKey:")):
            return stripped
    return None


def _fast_parse(
    text: str, players: int, table: dict[str, int], group_maps: list[GroupMap] | None
) -> np.ndarray | None:
    """The masks of a log whose frame lines all have one layout, decoded with numpy at once.

    None when the lines differ in length or field layout, hold analog values or non-ASCII
    text: the line-by-line decoder (same results) handles those.
    """
    if not text.isascii():
        return None
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    end = text.find("[/Input]")
    if end >= 0:
        line_end = text.find("\n", end)
        whole_line = text[text.rfind("\n", 0, end) + 1 : line_end if line_end >= 0 else len(text)]
        if whole_line.strip() != "[/Input]":
            return None  # not a line of its own: the line decoder decides what it means
        data = data[:end]
    if not len(data):
        return np.zeros((0, players), dtype=np.uint16)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], breaks + 1))
    stops = np.concatenate((breaks, [len(data)]))
    keep = starts < len(data)
    starts, stops = starts[keep], stops[keep]
    frame = data[starts] == ord("|")
    starts, stops = starts[frame], stops[frame]
    if not len(starts):
        return np.zeros((0, players), dtype=np.uint16)
    cr = data[stops - 1] == 13
    stops = stops - cr
    lengths = stops - starts
    width = int(lengths[0])
    if not (lengths == width).all() or width < 2:
        return None
    grid = data[starts[:, None] + np.arange(width)]
    bars = grid[0] == ord("|")
    if not bars[-1] or not (grid[:, bars] == ord("|")).all() or (grid[:, ~bars] == ord("|")).any():
        return None
    edges = np.flatnonzero(bars)
    fields = [(int(a) + 1, int(b)) for a, b in zip(edges[:-1], edges[1:])]
    masks = np.zeros((len(grid), players), dtype=np.uint16)
    if group_maps is None:
        lut = np.zeros(256, dtype=np.uint16)
        for char, index in table.items():
            lut[ord(char)] = 1 << index
        for p in range(min(players, len(fields) - 1)):
            a, b = fields[p + 1]
            if b > a:
                masks[:, p] = np.bitwise_or.reduce(lut[grid[:, a:b]], axis=1)
        return masks
    if (grid == ord(",")).any():
        return None  # analog values: their width varies, the line decoder tokenizes them
    offset = 1 if len(fields) == len(group_maps) + 1 else 0
    for g, group in enumerate(group_maps):
        if not 0 <= group.player < players or g + offset >= len(fields):
            continue
        a, b = fields[g + offset]
        for column, button in enumerate(group.buttons[: b - a]):
            if button is not None:
                chars = grid[:, a + column]
                pressed = (chars != ord(".")) & (chars != ord(" "))
                masks[:, group.player] |= pressed.astype(np.uint16) << np.uint16(button)
    return masks


def parse_input_log(text: str, system: str | None, path: str | os.PathLike[str] | None = None) -> ParsedLog:
    """Frame masks from an ``Input Log.txt`` (see the module docstring for what is tolerated).

    Args:
        text: The log text.
        system: The system token whose char table (or button names) map the columns.
        path: For error messages.

    Raises:
        MovieError: the log names more than :data:`MAX_READ_PLAYERS` players.
    """
    system_obj = systems().get(system) if system else None
    key_line = _key_line(text)
    key_body = key_line or ""
    key_names = key_tokens(key_body[len("LogKey:"):] if key_body.startswith("LogKey:") else key_body)
    players = players_in(t.lstrip("#") for t in key_names)
    if players == 0:  # no key line (or no P<n> in it): count the fields of the first frames
        field_counts = [len(_split_frame(line)) for line, _ in zip(_frame_lines(text), range(64))]
        players = max(1, max(field_counts, default=2) - 1)
    if players > MAX_READ_PLAYERS:
        raise MovieError(path, f"the input log has {players} players (at most {MAX_READ_PLAYERS} are read)")
    by_name = bool(key_line) and (key_body.startswith("LogKey:") or "#" in key_body) and system_obj is not None
    group_maps: list[GroupMap] = []
    if by_name:
        assert system_obj is not None
        group_maps = map_groups(name_groups(key_body), system_obj)
        if not any(i is not None for g in group_maps for i in g.buttons):
            by_name = False  # no name we know: fall back to chars
    table = char_table(system_obj)

    def by_char(fields: list[str]) -> list[int]:
        row = [0] * players
        for p in range(min(players, len(fields) - 1)):
            mask = 0
            for char in fields[p + 1]:
                index = table.get(char)
                if index is not None:
                    mask |= 1 << index
            row[p] = mask
        return row

    def by_names(fields: list[str]) -> list[int]:
        row = [0] * players
        offset = 1 if len(fields) == len(group_maps) + 1 else 0  # a console field the key line lacks
        for g, group in enumerate(group_maps):
            if 0 <= group.player < players and g + offset < len(fields):
                row[group.player] |= field_presses_by_name(fields[g + offset], group)
        return row

    fast = _fast_parse(text, players, table, group_maps if by_name else None)
    if fast is not None:
        return ParsedLog(players, fast, by_name, key_names)
    out = decode_lines(_frame_lines(text), by_names if by_name else by_char, players)
    return ParsedLog(players, out, by_name, key_names)


def decode_lines(lines: Iterable[str], decode: Callable[[list[str]], list[int]], players: int) -> np.ndarray:
    """Frame lines to a (frames, players) array of masks; repeated lines are decoded once."""
    masks = array("H")
    cache: dict[str, list[int]] = {}
    for line in lines:
        row = cache.get(line)
        if row is None:
            row = decode(_split_frame(line))
            if len(cache) < MAX_CACHED_LINES:
                cache[line] = row
        masks.extend(row)
    if not masks:
        return np.zeros((0, players), dtype=np.uint16)
    return np.frombuffer(masks, dtype=np.uint16).reshape(-1, players).copy()
