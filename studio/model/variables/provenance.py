"""How each variable was found: the search, its steps, the picture at the time, a note. No Qt.

The record lives in the studio's workspace for the game, not in data.json (which stable-retro
reads): the index ``provenance.json`` and one PNG per variable in ``provenance/``. Writes are
atomic. An index or picture that cannot be read is set aside as ``<name>.bad`` and reported
through ``report``, as the states' index is; the variables themselves are not affected.

>>> from studio.model.opening import resolve_game
>>> from studio.model.play.session import Session
>>> session = Session(*resolve_game("StudioDemo-Nes", None))
>>> session.advance(60)
>>> book = ProvenanceBook(session.states.workspace, report=session.report)
>>> steps = ["start: 65,536", "decreased: 12"]
>>> found = book.record("lives", Provenance("memory search", steps, frame=session.frame), session.screen())
>>> print(book.tooltip("lives"))                   # the time it was recorded (found_at), in the first line
Found by memory search on ... at frame 60
Steps: start: 65,536 → decreased: 12
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from emucore.fileio import atomic_write_bytes, atomic_write_text
from studio.model.png import decode_png, encode_png
from studio.model.set_aside import OpenProblem, describe, read_owned_json, set_aside_problem

INDEX = "provenance.json"
PICTURES = "provenance"
HOWS = ("find from screen", "memory search", "lives wizard", "done suggestion", "typed in")
SAFE = re.compile(r"[^A-Za-z0-9_-]+")
FILE = re.compile(r"^[A-Za-z0-9_-]+\.png$")
STEPS_SHOWN = 4
PROVISIONAL = "provisional"  # the detail of a variable Find from screen made while two readings fit


@dataclass
class Provenance:
    """How one variable was found (what the Search dock hands over)."""

    how: str                    # "find from screen", "memory search", "lives wizard", "done suggestion", "typed in"
    steps: list[str]            # what led to it: "start: 65,536", "increased: 1,204", or "frame 120: shown 000350"
    found_at: str = ""          # ISO time, filled by record() when empty
    frame: int | None = None    # session frame at discovery
    screenshot: str | None = None  # file name of the PNG in the workspace's provenance folder, set by record()
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)  # JSON-able: type, scale, bias, search name, candidate

    @property
    def provisional(self) -> str | None:
        """What Find from screen could not yet tell this reading from, in words (None: nothing open)."""
        open_choice = self.details.get(PROVISIONAL)
        return str(open_choice["says"]) if isinstance(open_choice, dict) and open_choice.get("says") else None


class ProvenanceBook:
    """The provenance of one game's variables, in the studio's workspace folder for the game.

    Args:
        workspace: The workspace folder (``session.states.workspace``).
        report: Told about each file set aside (``session.report``).
    """

    def __init__(self, workspace: Path, report: Callable[[OpenProblem], None] | None = None):
        self.workspace = Path(workspace)
        self.report = report or (lambda problem: None)
        self.entries: dict[str, Provenance] = self._load()

    # ---- files ----

    @property
    def index_path(self) -> Path:
        return self.workspace / INDEX

    def picture_path(self, file_name: str) -> Path:
        return self.workspace / PICTURES / file_name

    def _load(self) -> dict[str, Provenance]:
        path = self.index_path
        loaded = read_owned_json(path, self.report, "how the variables were found is forgotten")
        if loaded is None:
            return {}
        entries = {name: entry for name, entry in ((n, _parse(e)) for n, e in loaded.items()) if entry is not None}
        bad = [name for name in loaded if name not in entries]
        if bad:
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            problem = f"entry {bad[0]!r}{more} is not a provenance record"
            self.report(set_aside_problem(path, problem, "the other entries are kept", key=bad[0]))
            self.entries = entries
            self._save()
        return entries

    def _save(self) -> None:
        data = {name: asdict(entry) for name, entry in self.entries.items()}
        try:
            atomic_write_text(self.index_path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        except OSError as exc:  # the workspace is the studio's extra: the variables are saved anyway
            self.report(OpenProblem(self.index_path, describe(exc), consequence="the last change to it is not saved"))

    def _free_file_name(self, name: str) -> str:
        taken = {entry.screenshot for entry in self.entries.values()}
        base = SAFE.sub("_", name).strip("_")[:40] or "variable"
        candidate, n = f"{base}.png", 2
        while candidate in taken or self.picture_path(candidate).exists():
            candidate, n = f"{base}-{n}.png", n + 1
        return candidate

    def _drop_picture(self, entry: Provenance | None) -> None:
        if entry is not None and entry.screenshot:
            self.picture_path(entry.screenshot).unlink(missing_ok=True)

    # ---- records ----

    def record(self, name: str, provenance: Provenance, screenshot: np.ndarray | None = None) -> Provenance:
        """Keeps how ``name`` was found (replacing any earlier record), with the picture of the time.

        Returns:
            The record as kept: ``found_at`` filled in, ``screenshot`` the PNG's file name.
        """
        if not isinstance(provenance.how, str) or not provenance.how.strip():
            raise ValueError(f"say how the variable was found (e.g. {', '.join(HOWS)})")
        kept = Provenance(**{f.name: getattr(provenance, f.name) for f in fields(Provenance)})
        kept.steps = [str(step) for step in provenance.steps]
        kept.frame = None if provenance.frame is None else int(provenance.frame)
        kept.note = str(provenance.note)
        kept.details = json.loads(json.dumps(dict(provenance.details), default=_plain))  # numpy numbers and all
        kept.found_at = provenance.found_at or datetime.now().astimezone().isoformat(timespec="seconds")
        self._drop_picture(self.entries.pop(name, None))
        kept.screenshot = None
        if screenshot is not None:
            kept.screenshot = self._free_file_name(name)
            try:
                atomic_write_bytes(self.picture_path(kept.screenshot), encode_png(screenshot))
            except OSError as exc:
                self.report(OpenProblem(self.picture_path(kept.screenshot), describe(exc),
                                        consequence=f"{name!r} is kept without its picture"))
                kept.screenshot = None
        self.entries[name] = kept
        self._save()
        return kept

    def get(self, name: str) -> Provenance | None:
        return self.entries.get(name)

    def screenshot(self, name: str) -> np.ndarray | None:
        """The picture at discovery; None when there is none or it cannot be read (then set aside)."""
        entry = self.entries.get(name)
        if entry is None or not entry.screenshot:
            return None
        path = self.picture_path(entry.screenshot)
        if not path.exists():
            return None
        try:
            return decode_png(path.read_bytes())
        except (OSError, ValueError) as exc:
            self.report(set_aside_problem(path, exc, f"{name!r} is shown without its picture"))
            return None

    def set_note(self, name: str, text: str) -> None:
        """Sets the user's note (KeyError if nothing is recorded for ``name``)."""
        self.entries[name].note = str(text).strip()
        self._save()

    def set_detail(self, name: str, key: str, value: Any) -> None:
        """Sets one of the record's details (None removes it; KeyError if nothing is recorded for ``name``)."""
        details = self.entries[name].details
        if value is None:
            if details.pop(key, None) is None:
                return
        else:
            details[key] = json.loads(json.dumps(value, default=_plain))
        self._save()

    def rename(self, old: str, new: str) -> None:
        """Moves the record to the variable's new name."""
        if old == new or (old not in self.entries and new not in self.entries):
            return
        self._drop_picture(self.entries.pop(new, None))  # a record left by an earlier variable of that name
        self.entries = {(new if key == old else key): entry for key, entry in self.entries.items()}
        self._save()

    def remove(self, name: str) -> None:
        """Forgets the record and its picture."""
        entry = self.entries.pop(name, None)
        if entry is not None:
            self._drop_picture(entry)
            self._save()

    def tooltip(self, name: str) -> str:
        """A few lines: how and when it was found, the steps in short, the note."""
        entry = self.entries.get(name)
        if entry is None:
            return "How it was found is not recorded (added outside the studio, or before it kept track)."
        when = _when(entry.found_at)
        lines = [("Typed in" if entry.how == "typed in" else f"Found by {entry.how}")
                 + (f" on {when}" if when else "") + ("" if entry.frame is None else f" at frame {entry.frame:,}")]
        if entry.steps:
            steps = entry.steps
            if len(steps) > STEPS_SHOWN:
                steps = [*steps[: STEPS_SHOWN - 2], f"... {len(steps) - STEPS_SHOWN + 1} more ...", steps[-1]]
            lines.append("Steps: " + " \u2192 ".join(steps))
        if entry.note:
            lines.append(f"Note: {entry.note}")
        if entry.provisional:
            lines.append(f"Provisional: {entry.provisional}")
        return "\n".join(lines)


def _plain(value: object) -> object:
    """A JSON-able stand-in: numpy numbers as Python numbers, anything else as its text."""
    item = getattr(value, "item", None)
    return item() if callable(item) else str(value)


def _when(found_at: str) -> str:
    try:
        return datetime.fromisoformat(found_at).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return found_at


def _parse(entry: object) -> Provenance | None:
    """An index entry as :meth:`ProvenanceBook.record` writes it, or None."""
    if not isinstance(entry, dict) or not set(entry) <= {f.name for f in fields(Provenance)}:
        return None
    how, steps, frame, shot = entry.get("how"), entry.get("steps"), entry.get("frame"), entry.get("screenshot")
    ok = (
        isinstance(how, str) and isinstance(steps, list) and all(isinstance(s, str) for s in steps)
        and isinstance(entry.get("found_at", ""), str) and isinstance(entry.get("note", ""), str)
        and isinstance(entry.get("details", {}), dict)
        and (frame is None or (isinstance(frame, int) and not isinstance(frame, bool) and frame >= 0))
        and (shot is None or (isinstance(shot, str) and FILE.match(shot) is not None))  # no path leaves the folder
    )
    return Provenance(**entry) if ok else None
