"""Crash recovery: what was open, and a recent state of it, kept on disk while the studio runs.

A lock file holds the running studio's PID and is removed on a clean exit. At start, a lock
whose process is gone means the last run crashed or was killed: its session can be restored.
A session file or recovery state that cannot be read is set aside (``.bad``) and reported in
:attr:`Recovery.problems`; the studio then starts as if there were nothing to restore.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from emucore.errors import EmucoreError
from emucore.fileio import atomic_write_text, read_json, read_regular, sweep_stale_temps
from emucore.integration import read_state_file, write_state_file
from studio.model.set_aside import OpenProblem, problem_of, set_aside, set_aside_problem

SAVE_EVERY = 10.0  # seconds of wall time between recovery states
MAX_SESSION_BYTES = 1 << 20


@dataclass
class SavedSession:
    game: str  # what was opened (integration folder or ROM path)
    state_file: str | None  # a recent state of the game, or None
    frame: int
    saved_at: float


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False  # 0 and negative numbers name process groups, not a studio
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


class Recovery:
    """The recovery files of one studio data folder."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.lock = self.folder / "running.lock"
        self.session_file = self.folder / "session.json"
        self.state_file = self.folder / "recovery.state"
        self._last_save = 0.0
        #: Recovery files that could not be read (and were set aside), for the window to show.
        self.problems: list[OpenProblem] = []

    def crashed_session(self) -> SavedSession | None:
        """The session of a run that did not exit cleanly, if there is one to restore."""
        if not self.lock.exists():
            return None
        try:
            pid = int(read_regular(self.lock, 64).strip() or 0)
        except (OSError, ValueError):
            pid = 0
        if pid and pid != os.getpid() and _pid_alive(pid):
            return None  # another studio is running
        if not self.session_file.exists():
            return None
        try:
            return _saved_session(read_json(self.session_file, MAX_SESSION_BYTES))
        except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            self.set_aside_session(exc)
            return None

    def set_aside_session(self, problem: str | Exception) -> None:
        """The session cannot be restored: session.json and its state are kept as ``.bad``, and reported."""
        kept = set_aside(self.state_file) if self.state_file.exists() else None
        consequence = "the last session cannot be restored" + (f"; its state is kept as {kept.name}" if kept else "")
        self.problems.append(set_aside_problem(self.session_file, problem, consequence))

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        sweep_stale_temps(self.folder)  # what a killed studio's writes left behind
        atomic_write_text(self.lock, f"{os.getpid()}\n")

    def due(self) -> bool:
        """True when the last save is older than SAVE_EVERY seconds (asking costs no state)."""
        return time.monotonic() - self._last_save >= SAVE_EVERY

    def record(self, game: str, state: bytes | None, frame: int, *, force: bool = False) -> bool:
        """Saves the session (at most every SAVE_EVERY seconds unless forced); True if it wrote."""
        if not force and not self.due():
            return False
        self._last_save = time.monotonic()
        state_path = None
        if state is not None:
            write_state_file(self.state_file, state)
            state_path = str(self.state_file)
        saved = SavedSession(game, state_path, frame, time.time())
        atomic_write_text(self.session_file, json.dumps(asdict(saved), indent=2) + "\n")
        return True

    def load_state(self, saved: SavedSession) -> bytes | None:
        """The saved state; None if there is none, or if it cannot be read (then it is set aside and reported)."""
        if not saved.state_file:
            return None
        try:
            return read_state_file(Path(saved.state_file))
        except EmucoreError as exc:
            self.reject_state(saved, exc)
            return None

    def reject_state(self, saved: SavedSession, exc: EmucoreError) -> None:
        """Sets aside a saved state that cannot be read or that the core refused, and reports it.

        Only the studio's own recovery.state is renamed: session.json may name any file.
        """
        consequence = "the game starts from its usual start"
        if saved.state_file and Path(saved.state_file) == self.state_file:
            self.problems.append(set_aside_problem(self.state_file, exc, consequence))
        elif saved.state_file:
            self.problems.append(problem_of(exc, saved.state_file, consequence))

    def finish(self) -> None:
        """A clean exit: nothing to restore next time."""
        self.lock.unlink(missing_ok=True)


def _saved_session(raw: object) -> SavedSession:
    """session.json's content as a SavedSession; ValueError naming the first field that is unusable."""
    if not isinstance(raw, dict):
        raise ValueError(f"the top level must be an object, not {type(raw).__name__}")
    checks = {
        "game": lambda v: isinstance(v, str) and v != "",
        "state_file": lambda v: v is None or (isinstance(v, str) and v != ""),
        "frame": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62,
        "saved_at": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    }
    for name, check in checks.items():
        if name not in raw:
            raise ValueError(f"no {name!r}")
        if not check(raw[name]):
            raise ValueError(f"{name!r} has a wrong type or value: {str(raw[name])[:60]!r}")
    return SavedSession(**{name: raw[name] for name in checks})
