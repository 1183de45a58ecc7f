"""Crash recovery: what was open, and a recent state of it, kept on disk while the studio runs.

A lock file holds the running studio's PID and is removed on a clean exit. At start, a lock
whose process is gone means the last run crashed or was killed: its session can be restored.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from emucore.fileio import atomic_write_text
from emucore.integration import read_state_file, write_state_file

SAVE_EVERY = 10.0  # seconds of wall time between recovery states


@dataclass
class SavedSession:
    game: str  # what was opened (integration folder or ROM path)
    state_file: str | None  # a recent state of the game, or None
    frame: int
    saved_at: float


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
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

    def crashed_session(self) -> SavedSession | None:
        """The session of a run that did not exit cleanly, if there is one to restore."""
        if not self.lock.exists():
            return None
        try:
            pid = int(self.lock.read_text().strip() or 0)
        except (OSError, ValueError):
            pid = 0
        if pid and pid != os.getpid() and _pid_alive(pid):
            return None  # another studio is running
        try:
            raw = json.loads(self.session_file.read_text("utf-8"))
            return SavedSession(**raw)
        except (OSError, ValueError, TypeError):
            return None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
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
        return read_state_file(Path(saved.state_file)) if saved.state_file else None

    def finish(self) -> None:
        """A clean exit: nothing to restore next time."""
        self.lock.unlink(missing_ok=True)
