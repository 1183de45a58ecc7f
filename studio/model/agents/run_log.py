"""TensorBoard logs of the studio's agent runs, where torch and tensorboard are installed.

Each run gets its own folder, ``<studio data>/runs/<game>/<date>-<agent>/`` by default, so
``tensorboard --logdir <studio data>/runs`` shows the runs of every game beside each other, and beside
training runs logged the same way (``python -m emucore.examples.ppo_retro``). Written per episode, as it ends:
``episode/return`` and ``episode/length`` (x: the episode's number); at the end, the run's summary, its
flags and settings as text, and ``run/mean_return``.

This module is Qt-free (import-linter checks it).
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.paths import studio_data_dir

if TYPE_CHECKING:
    from emucore.rollout import EpisodeResult


def tensorboard_available() -> bool:
    """Whether torch and tensorboard are installed (found, not imported: importing torch takes seconds)."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "tensorboard"))


def run_log_folder(game: str, agent: str, now: datetime | None = None) -> Path:
    """A new run's folder under the studio's ``runs/<game>/``, named by the time and the agent."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", agent).strip("-").lower() or "agent"
    return studio_data_dir() / "runs" / Path(game).name / f"{stamp}-{slug}"


class RunLog:
    """One run's TensorBoard log; ImportError naming the packages where torch or tensorboard is missing."""

    def __init__(self, folder: str | Path, settings: Mapping[str, Any]):
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError as exc:
            raise ImportError(f"TensorBoard logs need torch and tensorboard (pip install -e '.[rl]'): {exc}") from exc
        self.folder = Path(folder)
        self._writer = SummaryWriter(str(self.folder))
        self._writer.add_text("run/settings", "\n\n".join(f"**{key}**: {value}" for key, value in settings.items()))
        self._returns: list[float] = []

    def episode(self, result: EpisodeResult) -> None:
        number = result.index + 1
        self._writer.add_scalar("episode/return", result.total, number)
        self._writer.add_scalar("episode/length", result.length, number)
        self._returns.append(result.total)
        self._writer.flush()

    def finish(self, summary: str, flags: list[str]) -> None:
        if self._returns:
            self._writer.add_scalar("run/mean_return", sum(self._returns) / len(self._returns), len(self._returns))
        self._writer.add_text("run/summary", summary or "no episode ended")
        self._writer.add_text("run/flags", "\n\n".join(flags) or "none")
        self._writer.close()
