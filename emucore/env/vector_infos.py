"""RetroVectorEnv's batched infos (Gymnasium's dict of arrays with ``_key`` masks) and its action-batch check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def merge_infos(infos: list[dict], num_envs: int, add_info: Callable[[dict, dict, int], dict]) -> dict:
    """Gymnasium's batched info of ``infos`` (a row each): an array per key plus a ``_key`` mask of who has it;
    ``add_info`` is the vector env's ``_add_info`` (arrays of ``num_envs`` rows)."""
    keys = infos[0].keys()
    if all(info.keys() == keys for info in infos) and all(
        type(value) is int for info in infos for value in info.values()
    ):  # the usual case, built in one go
        merged: dict = {}
        present = np.ones(len(infos), dtype=np.bool_)
        for key in keys:
            merged[key] = np.array([info[key] for info in infos])
            merged[f"_{key}"] = present.copy()
        return merged
    merged = {}
    for index, info in enumerate(infos):
        if info:
            merged = add_info(merged, info, index)
    return merged if len(infos) == num_envs else _rows(merged, np.arange(len(infos)))


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
