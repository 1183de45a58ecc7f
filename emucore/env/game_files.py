"""Which files of a game's integration an env reads: its metadata, variables and scenario."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from emucore import data as retro_data
from emucore.integration import METADATA_FILE, read_metadata
from emucore.scenario.loader import GameDataSources


def game_metadata(game: str, inttype: Any) -> dict:
    """metadata.json of the game, {} if it has none."""
    path = retro_data.get_file_path(game, METADATA_FILE, inttype)
    return read_metadata(path) if path and os.path.isfile(path) else {}


def game_data_sources(game: str, inttype: Any, info: str | None, scenario: str | None) -> GameDataSources:
    """``info`` and ``scenario`` as make() takes them: a name in the integration or a ``.json`` path."""
    return GameDataSources(_json_path(game, inttype, info or "data"), _json_path(game, inttype, scenario or "scenario"))


def _json_path(game: str, inttype: Any, name: str) -> Path | None:
    if name.endswith(".json"):
        return Path(name) if os.path.exists(name) else None
    found = retro_data.get_file_path(game, f"{name}.json", inttype)
    return Path(found) if found and os.path.isfile(found) else None
