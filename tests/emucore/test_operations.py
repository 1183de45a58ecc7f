"""One vocabulary of comparisons (emucore.operations): every table derives from Operation."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emucore.assist import done_evidence
from emucore.integration import lint_scenario
from emucore.libretro.native_evaluator import native_operations
from emucore.operations import (
    AMOUNTS,
    MEANINGS,
    OLD_NAMES,
    SEARCH_MEANINGS,
    SEARCH_OPERATIONS,
    VALUE_COMPARISONS,
    Change,
    Operation,
    scenario_operation,
    search_operation,
)
from emucore.scenario import model as scenario
from emucore.scenario.compiled import OP_CODES
from emucore.search import OPS as SEARCH_OPS
from emucore.search import MemorySearch, compare
from emucore.search.movies import _change_op
from emucore.search.ops import describe, renamed_label
from tests.emucore.search.test_search import FakeEmulator

# stable-retro's scenario evaluator (data/data.cpp), as emucore computed it before the enum
STABLE_RETRO = {
    "equal": lambda v, ref: int(v == ref),
    "negative-equal": lambda v, ref: int(v == -ref),
    "not-equal": lambda v, ref: int(v != ref),
    "less-than": lambda v, ref: int(v < ref),
    "greater-than": lambda v, ref: int(v > ref),
    "less-or-equal": lambda v, ref: int(v <= ref),
    "greater-or-equal": lambda v, ref: int(v >= ref),
    "nonzero": lambda v, ref: int(v != 0),
    "zero": lambda v, ref: int(v == 0),
    "positive": lambda v, ref: int(v > 0),
    "negative": lambda v, ref: int(v < 0),
    "sign": lambda v, ref: (v > 0) - (v < 0),
}
VALUES = (-(1 << 63), -300, -2, -1, 0, 1, 2, 3, 255, (1 << 63) - 1)


def test_the_scenario_tables_cover_exactly_the_enum():
    names = [op.value for op in Operation]
    assert names == list(STABLE_RETRO)
    assert [scenario_operation(name) for name in STABLE_RETRO] == list(Operation)
    assert scenario_operation("less") is scenario_operation(3) is None


@pytest.mark.parametrize("op", list(Operation))
def test_the_evaluator_computes_what_stable_retro_does(op):
    for measured, reference in product(VALUES, (-3, 0, 2, 255)):
        term = scenario.Term.parse({"op": op.value, "reference": reference}, "absolute")
        want = STABLE_RETRO[op.value](measured, reference)
        got = term.apply(measured)
        assert got == want and type(got) is type(want), (op, measured, reference)
        assert op.compute(measured, reference) == want
    assert scenario.Term.parse({"op": "lesser"}, "delta").op is None


def test_the_takes_reference_column_matches_what_the_evaluator_reads():
    for op in Operation:
        reads = any(op.compute(v, 0) != op.compute(v, 7) for v in range(-9, 10))
        assert op.takes_reference == reads, op


@pytest.mark.parametrize("op", list(Operation))
def test_can_hold_is_whether_some_value_of_the_range_is_positive(op):
    for reference, low in product(range(-3, 4), range(-3, 4)):
        for high in range(low, 4):
            some = any(op.compute(v, reference) > 0 for v in range(low, high + 1))
            assert op.can_hold(reference, low, high) == some, (op, reference, low, high)
    assert lint_scenario.outcomes(op, 1, -5, 5)[1] == (op == Operation.SIGN)


def test_members_are_their_json_text():
    spec = {"op": Operation.GREATER_OR_EQUAL, "reference": 2}
    assert json.dumps(spec) == '{"op": "greater-or-equal", "reference": 2}'
    assert f"{Operation.LESS_THAN}" == "less-than" and Operation("sign") is Operation.SIGN


def test_the_search_shares_the_scenario_members():
    assert SEARCH_OPS == SEARCH_OPERATIONS == (*VALUE_COMPARISONS, *Change)
    assert SEARCH_OPS[:4] == (Operation.EQUAL, Operation.NOT_EQUAL, Operation.LESS_THAN, Operation.GREATER_THAN)
    assert all(SEARCH_OPS[k] is member for k, member in enumerate(VALUE_COMPARISONS))
    assert not set(Change) & set(Operation)
    assert set(done_evidence.KINDS) | set(done_evidence.OP_RANK) <= set(Operation)
    assert done_evidence.Test(0, "|u1", Operation.ZERO).spec() == {"op": "zero"}
    assert done_evidence.Test(0, "|u1", Operation.LESS_THAN, 5).spec() == {"op": "less-than", "reference": 5}


def test_former_search_names_are_read_and_written_anew():
    assert OLD_NAMES == {"less": Operation.LESS_THAN, "greater": Operation.GREATER_THAN}
    assert search_operation("less") is Operation.LESS_THAN and search_operation("increased") is Change.INCREASED
    with pytest.raises(ValueError, match="unknown refinement"):
        search_operation("less-or-equal")  # a scenario operation the search does not do
    assert describe("greater", 3) == "greater-than 3" and describe("less", None, "first") == "less-than (first)"
    assert renamed_label("less (first)") == "less-than (first)" and renamed_label("greater 7") == "greater-than 7"
    assert renamed_label("less-than 2") == "less-than 2" and renamed_label("lesser") == "lesser"
    assert renamed_label("start = 5") == "start = 5"
    assert _change_op(("greater", 2)) == (Operation.GREATER_THAN, 2) and _change_op("changed")[0] is Change.CHANGED

    emulator = FakeEmulator([(0, 64)], seed=2)
    old, new = MemorySearch(emulator, ("|u1", "<i2")), MemorySearch(emulator, ("|u1", "<i2"))
    emulator.scramble(0.3)
    for name, value in (("less", 100), ("greater", None)):
        old.refine(name, value)
        new.refine(OLD_NAMES[name], value)
        assert old.candidates.records().tolist() == new.candidates.records().tolist()
    assert [h.label for h in old.history] == ["start", "less-than 100", "greater-than"]


# ---- MEANINGS is the one table: what adding an operation needs ----

DTYPES = [np.dtype(f"{kind}{size}") for kind in "iu" for size in (1, 2, 4, 8)]


def by_order(op: Operation) -> bool:
    """Whether ``op(v, ref)`` depends only on whether v is below, at or above ref (sampled)."""
    answers = {sign: {op.compute(ref + d, ref) for ref in (-300, -1, 0, 2, 255) for d in deltas}
               for sign, deltas in ((-1, (-9, -1)), (0, (0,)), (1, (1, 9)))}
    return all(len(found) == 1 for found in answers.values())


def test_every_table_derives_from_the_meanings():
    assert list(MEANINGS) == list(Operation) and all(meaning.c for meaning in MEANINGS.values())
    # the native evaluator's codes and C: generated from Operation and each meaning's c at build time
    assert native_operations() == [op.name for op in Operation]
    assert {op: code for code, op in enumerate(Operation)} == OP_CODES
    # the search's value comparisons: the members with a search meaning, each by its ufunc, and given no value
    # by its change, which compares two snapshots by the same ufunc
    assert VALUE_COMPARISONS == tuple(op for op in Operation if MEANINGS[op].search) == tuple(SEARCH_MEANINGS)
    for op, meaning in SEARCH_MEANINGS.items():
        assert compare._UFUNCS[op] is getattr(np, meaning.ufunc)
        assert compare.PAIR_OP[op] is meaning.change
        assert compare._SNAPSHOT_UFUNCS[meaning.change] is getattr(np, meaning.ufunc)
        assert compare.normalize(op, None) == (meaning.change, None)
    assert set(compare._SNAPSHOT_UFUNCS) | set(AMOUNTS) == set(Change)


@pytest.mark.parametrize("op", list(SEARCH_MEANINGS))
def test_a_search_comparison_compares_by_order_as_its_ufunc_does(op):
    assert by_order(op)  # what outside() relies on
    ufunc = getattr(np, SEARCH_MEANINGS[op].ufunc)
    grid = np.array(VALUES, dtype=np.int64)
    got = ufunc(grid[:, None], grid[None, :])
    want = [[op.compute(int(v), int(ref)) > 0 for ref in grid] for v in grid]
    assert got.tolist() == want


# every operation that compares by order, the search's or not: outside() needs no entry of its own
ORDER_OPERATIONS = [op for op in Operation if op.takes_reference and by_order(op)]
EDGES = st.sampled_from([-(1 << 70), -(1 << 63) - 1, -(1 << 31) - 1, -129, -1, 0, 1, 127, 128, 255, 256,
                         1 << 31, (1 << 32), (1 << 63) - 1, 1 << 63, 1 << 64, 1 << 70])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@settings(max_examples=150, deadline=None, derandomize=True)
@given(value=st.integers(-(1 << 72), 1 << 72) | EDGES)
def test_outside_answers_as_comparing_each_value_would(dtype, value):
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    values = np.array([low, low + 1, (low + high) // 2, high - 1, high, *range(max(low, -3), 4)], dtype=dtype)
    assert {*VALUE_COMPARISONS, Operation.LESS_OR_EQUAL, Operation.GREATER_OR_EQUAL} <= set(ORDER_OPERATIONS)
    for op in ORDER_OPERATIONS:
        each = [op.compute(int(v), value) > 0 for v in values]
        every = compare.outside(op, value, low, high)
        assert (every is None) == (low <= value <= high), (op, value)
        if every is not None:
            assert each == [every] * len(values), (op, dtype, value)
        if op in SEARCH_MEANINGS:
            assert compare.compare_value(values, op, value).tolist() == each, (op, dtype, value)


def test_a_comparison_not_by_order_is_compared_value_by_value(monkeypatch):
    even = replace(MEANINGS[Operation.EQUAL], compute=lambda v, ref: int(v % 2 == 0))
    monkeypatch.setitem(MEANINGS, Operation.EQUAL, even)
    values = np.arange(256, dtype=np.uint8)
    assert compare.outside(Operation.EQUAL, 300, 0, 255) is None  # the ends disagree: no answer for all
    assert compare.compare_value(values, Operation.EQUAL, 300).tolist() == [v % 2 == 0 for v in range(256)]
