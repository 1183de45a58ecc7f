"""A list of moments kept in the game's workspace: a folder of ``<prefix>-NN.state`` files and a
JSON index with the facts of each (find from screen's checkpoints, the lives wizard's labels).
Writes are atomic; an index that cannot be used is set aside and reported. No Qt.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from emucore.fileio import atomic_write_bytes, atomic_write_text
from studio.model.set_aside import OpenProblem, read_owned_json, set_aside_problem

T = TypeVar("T")


@dataclass(frozen=True)
class StateList(Generic[T]):
    """Where one list lives and how its entries are called.

    Attributes:
        folder: The folder of the states and the index.
        index: The index's file name (``screen_values.json``).
        key: The index's key for the entries (``checkpoints``).
        prefix: The states' file name prefix (``checkpoint``).
    """

    folder: Path
    index: str
    key: str
    prefix: str

    def save(self, entries: list[tuple[dict[str, Any], bytes]], **extra: Any) -> None:
        """Writes each entry's state and the index (its facts, and ``extra`` at the top level);
        states no entry refers to any more are removed."""
        self.folder.mkdir(parents=True, exist_ok=True)
        rows = []
        for number, (facts, state) in enumerate(entries):
            file = f"{self.prefix}-{number:02d}.state"
            atomic_write_bytes(self.folder / file, state)
            rows.append({**facts, "state": file})
        atomic_write_text(self.folder / self.index, json.dumps({**extra, self.key: rows}, indent=2) + "\n")
        keep = {row["state"] for row in rows}
        for stale in self.folder.glob(f"{self.prefix}-*.state"):
            if stale.name not in keep:
                stale.unlink(missing_ok=True)

    def load(self, parse: Callable[[dict[str, Any], bytes], T], report: Callable[[OpenProblem], None],
             consequence: str) -> tuple[dict[str, Any], list[T]]:
        """The index's top level and its entries made by ``parse(facts, state)``; ``({}, [])``
        when there is none, or when it cannot be used (then it is set aside and reported)."""
        path = self.folder / self.index
        raw = read_owned_json(path, report, consequence)
        if raw is None:
            return {}, []
        try:
            return raw, [parse(row, (self.folder / Path(str(row["state"])).name).read_bytes())
                         for row in raw[self.key]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            report(set_aside_problem(path, exc, consequence))
            return {}, []
