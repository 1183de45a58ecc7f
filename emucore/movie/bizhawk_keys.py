"""BizHawk key lines: a log's columns mapped by name and position, the way BizHawk reads them.

A key line with a ``LogKey:`` prefix or ``#`` groups (BizHawk's) names its columns: each group
(or each run of one player's names) is one frame field, each name one column of it. A column
whose name is a button of the system presses that button when its char is anything but ``.``
(or a space); analog numbers are skipped. Console buttons (``Reset``; never ``Power``) count only
on the Atari 2600 and the Master System, as player 1's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from emucore.movie.columns import MAX_BUTTONS, PLAYER_NAME, key_tokens
from emucore.systems import System

#: BizHawk controller names (upper case, ``P<n> `` removed) that differ from our button names.
BIZHAWK_NAME_ALIASES: dict[str, str] = {
    "DPAD U": "UP", "DPAD D": "DOWN", "DPAD L": "LEFT", "DPAD R": "RIGHT",
    "C UP": "C-UP", "C DOWN": "C-DOWN", "C LEFT": "C-LEFT", "C RIGHT": "C-RIGHT",
    "B1": "B", "B2": "A",  # SMS / Game Gear buttons 1 and 2 (genesis_plus_gx maps them to B and A)
}  # fmt: skip

_ANALOG_TOKEN = re.compile(r"\s*-?\d+,")


def name_groups(key_line: str) -> list[list[str]]:
    """A BizHawk key line's ``#`` groups (or groups formed where the player changes)."""
    body = key_line[len("LogKey:"):] if key_line.startswith("LogKey:") else key_line
    if "#" in body:
        parts = [key_tokens(part) for part in body.split("#")]
        return [part for part in parts if part]
    groups: list[list[str]] = []
    last: str | None = None
    for token in key_tokens(body):
        match = PLAYER_NAME.match(token.strip())
        owner = match.group(1) if match else ""
        if not groups or owner != last:
            groups.append([])
            last = owner
        groups[-1].append(token)
    return groups


def _button_for_name(name: str, system: System, console: bool) -> int | None:
    """The button index a BizHawk column name maps to, or None."""
    upper = name.strip().upper()
    candidates = [upper, BIZHAWK_NAME_ALIASES.get(upper, upper), upper.replace(" ", "-")]
    buttons = [b.upper() if b else None for b in system.buttons[:MAX_BUTTONS]]
    if console and upper in ("POWER",):
        return None
    for candidate in candidates:
        if candidate in buttons:
            if console and not system.console_switches:
                return None  # console Reset/Power of other systems are not pad buttons
            return buttons.index(candidate)
    return None


@dataclass
class GroupMap:
    """One frame field of a BizHawk log: the player it applies to and the button of each column."""

    player: int  # -1: not applied
    buttons: list[int | None]  # per column


def map_groups(groups: list[list[str]], system: System) -> list[GroupMap]:
    """The field of each key-line group mapped onto the system's buttons."""
    maps = []
    for group in groups:
        player = -1
        buttons: list[int | None] = []
        for token in group:
            match = PLAYER_NAME.match(token.strip())
            if match:
                player = int(match.group(1)) - 1
                buttons.append(_button_for_name(match.group(2), system, console=False))
            else:
                index = _button_for_name(token, system, console=True)
                if index is not None:
                    player = 0
                buttons.append(index)
        maps.append(GroupMap(player, buttons))
    return maps


def field_presses_by_name(text: str, group: GroupMap) -> int:
    """The button mask a frame field presses, read by position through its group's columns."""
    mask = 0
    position = 0
    column = 0
    while position < len(text) and column < len(group.buttons):
        analog = _ANALOG_TOKEN.match(text, position)
        if analog and (analog.end() - position) > 1:
            position = analog.end()
        else:
            char = text[position]
            position += 1
            index = group.buttons[column]
            if index is not None and char not in ". ":
                mask |= 1 << index
        column += 1
    return mask
