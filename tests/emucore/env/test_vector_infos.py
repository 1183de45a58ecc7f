"""The one builder of Gymnasium's batched info: rows held as C's arrays and the same rows as dicts give the same
dict, and the list form is the rows themselves."""

from __future__ import annotations

import numpy as np
from gymnasium.vector import VectorEnv

from emucore.env.vector_infos import InfoColumns, as_dicts, batched_infos


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[key], b[key]) for key in a)


def test_columns_and_their_dicts_batch_alike():
    vector = VectorEnv()
    vector.num_envs = 3
    add_info = vector._add_info  # Gymnasium's, as RetroVectorEnv has it
    columns = InfoColumns(["score", "lives"], np.array([[10, 20, 30], [3, 2, 1]]), np.array([True, True, True]))
    assert as_dicts(columns) == [{"score": 10, "lives": 3}, {"score": 20, "lives": 2}, {"score": 30, "lives": 1}]
    assert type(as_dicts(columns)[0]["score"]) is int  # as the single env gives it
    assert _same(batched_infos(columns, 3, add_info), batched_infos(as_dicts(columns), 3, add_info))

    some = InfoColumns(["score"], np.array([[10, 20, 30]]), np.array([True, False, True]))
    assert as_dicts(some) == [{"score": 10}, {}, {"score": 30}]
    assert _same(batched_infos(some, 3, add_info), batched_infos(as_dicts(some), 3, add_info))
    none = InfoColumns(["score"], np.array([[10, 20, 30]]), np.array([False, False, False]))
    assert batched_infos(none, 3, add_info) == {} == batched_infos(as_dicts(none), 3, add_info)
