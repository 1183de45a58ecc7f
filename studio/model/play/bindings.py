"""Keyboard bindings: key name -> (player, button index), from the descriptor and the user's changes."""

from __future__ import annotations

from emucore.host.emulator import PLAYERS
from emucore.systems import System
from studio.model.settings import Settings

# Held, not triggered: the game view handles these keys itself (the menus' shortcuts: studio.model.menus).
REWIND_KEY = "BACKSPACE"
SLOT_KEYS = tuple(f"F{n}" for n in range(1, 11))  # load; with Shift: save


def bindings_for(system: System, settings: Settings) -> list[dict[str, str]]:
    """Per player, button name -> key name. Player 1 starts from the system's defaults."""
    players: list[dict[str, str]] = []
    for player in range(PLAYERS):
        keys: dict[str, str] = {}
        if player == 0:
            for button, key in zip(system.buttons, system.keybinds):
                if button and key:
                    keys[button] = key
        keys.update(settings.bindings.get(system.name, {}).get(str(player + 1), {}))  # "" unbinds
        players.append({button: key for button, key in keys.items() if key})
    return players


def key_map(system: System, settings: Settings) -> dict[str, tuple[int, int]]:
    """Key name -> (player, button bit), for the buttons of ``system``."""
    index = {button: i for i, button in enumerate(system.buttons) if button}
    mapping: dict[str, tuple[int, int]] = {}
    for player, keys in enumerate(bindings_for(system, settings)):
        for button, key in keys.items():
            if button in index:
                mapping[key] = (player, 1 << index[button])
    return mapping
