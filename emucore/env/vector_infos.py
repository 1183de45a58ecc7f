"""RetroVectorEnv's infos and its action-batch check.

A step's infos are rows, one per env: dicts (each env's own info, as the single env gives it), or
:class:`InfoColumns` (the variables C read for each env, one array). :func:`batched_infos` is the one builder
of Gymnasium's batched dict (an array per key plus a ``_key`` mask of who has it) from rows; the list form
(``step_wait_each``, ``reset_each``, which emucore.sb3 adapts) is the rows as dicts, :func:`as_dicts`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class InfoColumns:
    """Rows of infos as C leaves them: ``columns[k]`` holds variable ``names[k]`` of every row, and only the rows
    ``present`` have an info (the others' is empty)."""

    names: Sequence[str]
    columns: np.ndarray  # (len(names), rows)
    present: np.ndarray  # (rows,) bool

    def dicts(self) -> list[dict]:
        """Each row's info as the single env gives it (Python ints, in the info's order)."""
        names = self.names
        return [dict(zip(names, row)) if present else {}
                for row, present in zip(self.columns.T.tolist(), self.present.tolist())]


Rows = Sequence[dict] | InfoColumns


def as_dicts(rows: Rows) -> list[dict]:
    """The rows as a list of each env's info (the list form)."""
    return rows.dicts() if isinstance(rows, InfoColumns) else list(rows)


def batched_infos(rows: Rows, num_envs: int, add_info: Callable[[dict, dict, int], dict]) -> dict:
    """Gymnasium's batched info of ``rows``: an array per key plus a ``_key`` mask of who has it; ``add_info``
    is the vector env's ``_add_info`` (arrays of ``num_envs`` rows, for rows of mixed keys or types)."""
    if isinstance(rows, InfoColumns):
        present, columns = rows.present, rows.columns
        if not present.any():
            return {}
        if present.all():
            masks = np.ones(columns.shape, dtype=np.bool_)  # one array: each key's mask is a row of it
        else:
            columns = columns * present
            masks = np.broadcast_to(present, columns.shape).copy()
        merged: dict[str, np.ndarray] = {}
        for name, column, mask in zip(rows.names, columns, masks):
            merged[name] = column
            merged[f"_{name}"] = mask
        return merged
    keys = rows[0].keys() if rows else {}.keys()
    if all(info.keys() == keys for info in rows) and all(
        type(value) is int for info in rows for value in info.values()
    ):  # the usual case, built in one go
        merged = {}
        mask = np.ones(len(rows), dtype=np.bool_)
        for key in keys:
            merged[key] = np.array([info[key] for info in rows])
            merged[f"_{key}"] = mask.copy()
        return merged
    merged = {}
    for index, info in enumerate(rows):
        if info:
            merged = add_info(merged, info, index)
    return merged if len(rows) == num_envs else _rows(merged, np.arange(len(rows)))


def _rows(merged: dict, ids: np.ndarray) -> dict:
    """A merged info dict's rows ``ids`` (in that order), nested dicts too."""
    return {key: _rows(value, ids) if isinstance(value, dict) else value[ids] for key, value in merged.items()}


def check_batch(actions: Any, count: int, method: str) -> None:
    """A ValueError unless ``actions`` holds one row per env (a wrong length would fail deep in a worker)."""
    try:
        rows = len(actions)
    except TypeError:
        raise ValueError(f"{method} takes a batch of actions, one row per env ({count}), "
                         f"not {type(actions).__name__}") from None
    if rows != count:
        raise ValueError(f"{method} got {rows} action rows for {count} envs: the batch needs one row per env")
