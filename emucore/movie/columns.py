"""The columns of an input log: each button's char and key-line name, and the players key lines name.

stable-retro writes the buttons of a system that have a char, in descending button index
(movie-format.md §3.2-§3.3), and reads a frame field char by char through the same table
(:func:`char_table`). Key-line names are ``P<n> <name>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from emucore.systems import System

#: Button masks are 16 bits per player (libretro joypad ids 0..15).
MAX_BUTTONS = 16

#: Core-json button name -> the char written for it (movie-format.md §3.2).
BUTTON_CHARS: dict[str, str] = {
    "A": "A", "B": "B", "C": "C", "X": "X", "Y": "Y", "Z": "Z",
    "START": "S", "SELECT": "s", "MODE": "M",
    "UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R",
    "L": "l", "R": "r", "BUTTON": "B",
}  # fmt: skip
#: Char -> the name written in the key line (``P1 <name>|``); Atari's ``B`` is ``Button``.
CHAR_NAMES: dict[str, str] = {
    "A": "A", "B": "B", "C": "C", "X": "X", "Y": "Y", "Z": "Z",
    "S": "Start", "s": "Select", "M": "Mode",
    "U": "Up", "D": "Down", "L": "Left", "R": "Right", "l": "L", "r": "R",
}  # fmt: skip

#: A key-line name of a player's button: ``P<n> <name>``.
PLAYER_NAME = re.compile(r"^P(\d+) (.+)$")


def char_table(system: System | None) -> dict[str, int]:
    """Char -> button index for reading (stable-retro's keymap: later indices win a shared char)."""
    table: dict[str, int] = {}
    if system is None:
        return table
    for index, button in enumerate(system.buttons[:MAX_BUTTONS]):
        char = BUTTON_CHARS.get(button or "")
        if char is not None:
            table[char] = index
    return table


@dataclass(frozen=True)
class Column:
    """One recorded button: its index, the char written when pressed and its key-line name."""

    index: int
    char: str
    name: str


def columns_for(system: System | None) -> list[Column]:
    """The columns stable-retro writes for a system: buttons with a char, descending index (§3.3)."""
    if system is None:
        return []
    names = system.movie_key_names  # a system's own names (Atari's B is Button)
    by_index: dict[int, str] = {}
    for char, index in char_table(system).items():
        by_index[index] = char
    ordered = sorted(by_index, reverse=True)
    return [Column(i, by_index[i], names.get(by_index[i], CHAR_NAMES[by_index[i]])) for i in ordered]


def key_tokens(text: str) -> list[str]:
    """The names of a key line (or of one of its ``#`` groups): its non-blank ``|``-separated parts."""
    return [t for t in text.split("|") if t.strip()]


def players_in(names: Iterable[str]) -> int:
    """The highest ``n`` among key-line names ``P<n> ...`` (0 when none names a player)."""
    players = 0
    for name in names:
        match = PLAYER_NAME.match(name.strip().lstrip("#"))
        if match:
            players = max(players, int(match.group(1)))
    return players
