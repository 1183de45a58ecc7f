"""``metadata.json``: the default state and the lint whitelist of an integration (IF §6).

Every key is optional, but the ones the env follows are typed: ``default_state`` is a state
name and ``default_player_state`` a list of them, one per player count. A name from metadata is
a file name in the folder, never a path, because a shared integration must not point the env at
files elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from emucore.fileio import atomic_write_text
from emucore.integration import jsontext
from emucore.integration.common import IntegrationError, read_file


def parse_metadata(text: str | bytes, path: Path) -> dict:
    """``metadata.json``: any JSON object (every key is optional)."""
    decoded = jsontext.decode(text, path)
    if not isinstance(decoded, dict):
        raise IntegrationError(path, "metadata.json must be a JSON object")
    return decoded


def read_metadata(path: str | os.PathLike[str]) -> dict:
    """The decoded ``metadata.json`` at ``path``; an IntegrationError naming it if unreadable or not an object."""
    path = Path(path)
    return parse_metadata(read_file(path), path)


def write_metadata(path: str | os.PathLike[str], metadata: dict) -> None:
    """Writes ``metadata.json`` atomically in stable-retro's writer layout."""
    atomic_write_text(Path(path), jsontext.dump(metadata))


def is_file_name(value: object) -> bool:
    """A plain file name: what metadata names must be in the folder, never a path elsewhere."""
    return (
        isinstance(value, str) and bool(value) and value not in (".", "..")
        and not any(c in value for c in ("/", "\\", "\x00"))
    )


def _state_name(value: Any, path: Path, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise IntegrationError(path, f"key {key}: must be a state name (a non-empty string)", key)
    if not is_file_name(value):
        raise IntegrationError(path, f"key {key}: {value!r} must be a state name in the folder, not a path", key)
    return value


def default_state_name(metadata: dict, path: str | os.PathLike[str], players: int = 1) -> str | None:
    """The state ``make(state=State.DEFAULT)`` starts from, by stable-retro's rules.

    ``default_player_state[players - 1]`` when that list is long enough, else ``default_state``,
    else None (no state: the game starts at power-on).

    Raises:
        IntegrationError: A key of the wrong type, or a name that is a path; the message names the key.
    """
    path = Path(path)
    per_player = metadata.get("default_player_state")
    if per_player is not None:
        if not isinstance(per_player, list):
            raise IntegrationError(
                path, "key default_player_state: must be a list of state names", "default_player_state"
            )
        if players <= len(per_player):
            key = f"default_player_state[{players - 1}]"
            return _state_name(per_player[players - 1], path, key)
    state = metadata.get("default_state")
    if state is None or state == "":
        return None
    return _state_name(state, path, "default_state")
