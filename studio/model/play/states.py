"""Save states of the open game: named states in the integration, quick slots in the workspace.

Named states are the integration's ``<Name>.state`` files (gzip, what stable-retro reads); their
thumbnails, frame numbers and times live in the studio's workspace for the game, beside the ten
quick slots. Writes are atomic. A workspace file that cannot be read (the index, a thumbnail, a
slot) is set aside as ``<name>.bad`` and reported through ``report``; the states are still listed.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from psygnal import Signal, SignalGroup

from emucore.errors import EmucoreError
from emucore.fileio import atomic_write_bytes, atomic_write_text
from emucore.integration import (
    METADATA_FILE,
    IntegrationError,
    read_state_file,
    state_file,
    state_names,
    write_metadata,
    write_state_file,
)
from studio.model.opening import read_metadata
from studio.model.png import decode_png, encode_png, thumbnail
from studio.model.set_aside import OpenProblem, read_owned_json, set_aside_problem

SLOTS = 10
NAME = re.compile(r"^[^/\\\0]+$")


@dataclass
class StateInfo:
    name: str
    frame: int | None
    saved_at: float | None
    thumbnail: np.ndarray | None
    is_default: bool = False


class StateLibraryEvents(SignalGroup):
    changed = Signal()
    """A state was saved, renamed, removed or made the default."""


class StateLibrary:
    """The states of one integration folder, with a workspace folder for the studio's extras."""

    def __init__(self, integration: Path, workspace: Path, report: Callable[[OpenProblem], None] | None = None):
        self.folder = Path(integration)
        self.workspace = Path(workspace)
        self.events = StateLibraryEvents()
        self.report = report or (lambda problem: None)  # told about each workspace file set aside

    # ---- bookkeeping ----

    def _index_path(self) -> Path:
        return self.workspace / "states.json"

    def _index(self) -> dict:
        path = self._index_path()
        loaded = read_owned_json(path, self.report, "the states' frame numbers and times are forgotten")
        if loaded is None:
            return {}
        bad = [key for key, entry in loaded.items() if not _entry_ok(entry)]
        if bad:
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            problem = f"entry {bad[0]!r}{more} is not {{\"frame\": <integer>, \"saved_at\": <time>}}"
            self.report(set_aside_problem(path, problem, "the other entries are kept", key=bad[0]))
            loaded = {key: entry for key, entry in loaded.items() if key not in bad}
            self._write_index(loaded)
        return loaded

    def _write_index(self, index: dict) -> None:
        atomic_write_text(self._index_path(), json.dumps(index, indent=2, sort_keys=True) + "\n")

    def _thumb_path(self, key: str) -> Path:
        return self.workspace / "thumbnails" / f"{key}.png"

    def _notify(self) -> None:
        self.events.changed.emit()

    def _thumbnail(self, key: str) -> np.ndarray | None:
        path = self._thumb_path(key)
        if not path.exists():
            return None
        try:
            return decode_png(path.read_bytes())
        except (OSError, ValueError) as exc:
            self.report(set_aside_problem(path, exc, "the state is shown without its picture"))
            return None

    @property
    def default_state(self) -> str | None:
        name = read_metadata(self.folder)[0].get("default_state")
        return name if isinstance(name, str) else None

    # ---- named states ----

    def names(self) -> list[str]:
        return state_names(self.folder)

    def infos(self) -> list[StateInfo]:
        index = self._index()
        default = self.default_state
        found = []
        for name in self.names():
            entry = index.get(f"state:{name}", {})
            thumb = self._thumbnail(f"state-{name}")
            found.append(StateInfo(name, entry.get("frame"), entry.get("saved_at"), thumb, name == default))
        return found

    def save(self, name: str, state: bytes, frame: int, frame_image: np.ndarray | None = None) -> None:
        self._check_name(name)
        write_state_file(state_file(self.folder, name), state)
        self._record(f"state:{name}", f"state-{name}", frame, frame_image)
        self._notify()

    def load(self, name: str) -> bytes:
        return read_state_file(state_file(self.folder, name))

    def rename(self, old: str, new: str) -> None:
        self._check_name(new)
        if state_file(self.folder, new).exists():
            raise FileExistsError(f"a state named {new!r} exists already")
        state_file(self.folder, old).rename(state_file(self.folder, new))
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
        state_file(self.folder, name).unlink()
        index = self._index()
        if index.pop(f"state:{name}", None) is not None:
            self._write_index(index)
        self._thumb_path(f"state-{name}").unlink(missing_ok=True)
        self._notify()

    def set_default(self, name: str) -> None:
        """Makes ``name`` the integration's default state (metadata.json ``default_state``)."""
        metadata, problem = read_metadata(self.folder)
        if problem is not None:  # the integration's file: not written over
            raise IntegrationError(problem.path, f"{problem.problem}; fix it first (nothing was saved)")
        metadata["default_state"] = name
        write_metadata(self.folder / METADATA_FILE, metadata)
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
        """The slot's state; None if it is empty or cannot be read (then it is set aside and reported)."""
        path = self._slot_path(slot)
        if not path.exists():
            return None
        try:
            return read_state_file(path)
        except EmucoreError as exc:
            self.reject_slot(slot, exc)
            return None

    def reject_slot(self, slot: int, exc: EmucoreError) -> None:
        """Sets aside a slot whose state cannot be read or that the core refused, and reports it."""
        self.report(set_aside_problem(self._slot_path(slot), exc, f"slot {slot} is empty"))

    def slot_info(self, slot: int) -> StateInfo | None:
        if not self._slot_path(slot).exists():
            return None
        entry = self._index().get(f"slot:{slot}", {})
        thumb = self._thumbnail(f"slot-{slot}")
        return StateInfo(f"Slot {slot}", entry.get("frame"), entry.get("saved_at"), thumb)


def _entry_ok(entry: object) -> bool:
    """An index entry as :meth:`StateLibrary._record` writes it: ``{"frame": int, "saved_at": time}``."""
    if not isinstance(entry, dict):
        return False
    frame, saved_at = entry.get("frame"), entry.get("saved_at")
    frame_ok = frame is None or (isinstance(frame, int) and not isinstance(frame, bool) and 0 <= frame < 1 << 62)
    time_ok = saved_at is None or (isinstance(saved_at, int | float) and not isinstance(saved_at, bool)
                                   and 0 <= saved_at < 1e11)  # within what localtime() can show
    return frame_ok and time_ok
