"""Save states of the open game: named states in the integration, quick slots in the workspace.

Named states are the integration's ``<Name>.state`` files (gzip, what stable-retro reads); their
thumbnails, frame numbers and times live in the studio's workspace for the game, beside the ten
quick slots. Writes are atomic.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from emucore.fileio import atomic_write_bytes, atomic_write_text
from emucore.integration import read_state_file, write_state_file
from studio.model.png import decode_png, encode_png, thumbnail

SLOTS = 10
NAME = re.compile(r"^[^/\\\0]+$")


@dataclass
class StateInfo:
    name: str
    frame: int | None
    saved_at: float | None
    thumbnail: np.ndarray | None
    is_default: bool = False


class StateLibrary:
    """The states of one integration folder, with a workspace folder for the studio's extras."""

    def __init__(self, integration: Path, workspace: Path):
        self.folder = Path(integration)
        self.workspace = Path(workspace)
        self.listeners: list[Callable[[], None]] = []

    # ---- bookkeeping ----

    def _index_path(self) -> Path:
        return self.workspace / "states.json"

    def _index(self) -> dict:
        try:
            loaded = json.loads(self._index_path().read_text("utf-8"))
            return loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            return {}

    def _write_index(self, index: dict) -> None:
        atomic_write_text(self._index_path(), json.dumps(index, indent=2, sort_keys=True) + "\n")

    def _thumb_path(self, key: str) -> Path:
        return self.workspace / "thumbnails" / f"{key}.png"

    def _notify(self) -> None:
        for listener in self.listeners:
            listener()

    def _metadata(self) -> dict:
        try:
            loaded = json.loads((self.folder / "metadata.json").read_text("utf-8"))
            return loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            return {}

    @property
    def default_state(self) -> str | None:
        return self._metadata().get("default_state")

    # ---- named states ----

    def names(self) -> list[str]:
        return sorted(p.name[: -len(".state")] for p in self.folder.glob("*.state"))

    def infos(self) -> list[StateInfo]:
        index = self._index()
        default = self.default_state
        found = []
        for name in self.names():
            entry = index.get(f"state:{name}", {})
            thumb_path = self._thumb_path(f"state-{name}")
            thumb = decode_png(thumb_path.read_bytes()) if thumb_path.exists() else None
            found.append(StateInfo(name, entry.get("frame"), entry.get("saved_at"), thumb, name == default))
        return found

    def save(self, name: str, state: bytes, frame: int, frame_image: np.ndarray | None = None) -> None:
        self._check_name(name)
        write_state_file(self.folder / f"{name}.state", state)
        self._record(f"state:{name}", f"state-{name}", frame, frame_image)
        self._notify()

    def load(self, name: str) -> bytes:
        return read_state_file(self.folder / f"{name}.state")

    def rename(self, old: str, new: str) -> None:
        self._check_name(new)
        if (self.folder / f"{new}.state").exists():
            raise FileExistsError(f"a state named {new!r} exists already")
        (self.folder / f"{old}.state").rename(self.folder / f"{new}.state")
        index = self._index()
        if f"state:{old}" in index:
            index[f"state:{new}"] = index.pop(f"state:{old}")
            self._write_index(index)
        thumb = self._thumb_path(f"state-{old}")
        if thumb.exists():
            thumb.rename(self._thumb_path(f"state-{new}"))
        if self.default_state == old:
            self.set_default(new)
        self._notify()

    def delete(self, name: str) -> None:
        (self.folder / f"{name}.state").unlink()
        index = self._index()
        if index.pop(f"state:{name}", None) is not None:
            self._write_index(index)
        self._thumb_path(f"state-{name}").unlink(missing_ok=True)
        self._notify()

    def set_default(self, name: str) -> None:
        """Makes ``name`` the integration's default state (metadata.json ``default_state``)."""
        metadata = self._metadata()
        metadata["default_state"] = name
        atomic_write_text(self.folder / "metadata.json", json.dumps(metadata, indent=2, sort_keys=True) + "\n")
        self._notify()

    @staticmethod
    def _check_name(name: str) -> None:
        if not NAME.match(name) or name.startswith(".") or name.strip() != name:
            raise ValueError(f"{name!r} is not a usable state name")

    def _record(self, key: str, thumb_key: str, frame: int, frame_image: np.ndarray | None) -> None:
        index = self._index()
        index[key] = {"frame": int(frame), "saved_at": time.time()}
        self._write_index(index)
        if frame_image is not None:
            atomic_write_bytes(self._thumb_path(thumb_key), encode_png(thumbnail(frame_image)))

    # ---- quick slots ----

    def _slot_path(self, slot: int) -> Path:
        if not 1 <= slot <= SLOTS:
            raise ValueError(f"slots are numbered 1 to {SLOTS}")
        return self.workspace / "slots" / f"slot{slot}.state"

    def save_slot(self, slot: int, state: bytes, frame: int, frame_image: np.ndarray | None = None) -> None:
        write_state_file(self._slot_path(slot), state)
        self._record(f"slot:{slot}", f"slot-{slot}", frame, frame_image)
        self._notify()

    def load_slot(self, slot: int) -> bytes | None:
        path = self._slot_path(slot)
        return read_state_file(path) if path.exists() else None

    def slot_info(self, slot: int) -> StateInfo | None:
        if not self._slot_path(slot).exists():
            return None
        entry = self._index().get(f"slot:{slot}", {})
        thumb_path = self._thumb_path(f"slot-{slot}")
        thumb = decode_png(thumb_path.read_bytes()) if thumb_path.exists() else None
        return StateInfo(f"Slot {slot}", entry.get("frame"), entry.get("saved_at"), thumb)
