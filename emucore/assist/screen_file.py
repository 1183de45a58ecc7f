"""A screen number reader saved with the integration: ``screen.json`` in the game folder.

stable-retro reads only the files it knows (data.json, scenario.json, metadata.json, rom.sha,
states), so the reader travels with the integration without changing how stable-retro loads it;
``emucore check FOLDER --screen`` reads it back to compare the reward with the screen.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from emucore.assist.screen_number import ScreenNumber, ScreenNumberError
from emucore.fileio import atomic_write_text

SCREEN_FILE = "screen.json"


def save_screen(reader: ScreenNumber, folder: str | os.PathLike[str]) -> Path:
    """Writes ``reader`` as ``folder/screen.json`` (atomically); its path."""
    path = Path(folder) / SCREEN_FILE
    atomic_write_text(path, json.dumps(reader.to_dict(), indent=1) + "\n")
    return path


def read_screen(path: str | os.PathLike[str]) -> ScreenNumber:
    """The reader saved in ``path``.

    Raises:
        ScreenNumberError: The file is missing, not JSON, or not a reader (naming the file).
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScreenNumberError(f"{path}: no such file (save a reader from the studio's Find from screen, "
                                "or with emucore.assist.screen_file.save_screen)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScreenNumberError(f"{path}: not a JSON file ({exc})") from None
    try:
        return ScreenNumber.from_dict(data)
    except ScreenNumberError as exc:
        raise ScreenNumberError(f"{path}: {exc}") from None


def load_screen(game: str, inttype: Any) -> ScreenNumber:
    """The reader saved in a game's integration folder (``game``: a name or a folder path).

    Raises:
        ScreenNumberError: The integration has no screen.json, or it is not a reader.
    """
    from emucore import data

    path = data.get_file_path(game, SCREEN_FILE, inttype)
    if path is None:
        raise ScreenNumberError(f"{data.game_name(game)}: the integration has no {SCREEN_FILE} (a screen number "
                                "reader; the studio's Find from screen saves one)")
    return read_screen(path)


__all__ = ["SCREEN_FILE", "load_screen", "read_screen", "save_screen"]
