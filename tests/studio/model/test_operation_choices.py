"""The done tests the studio describes use the operations' symbols, from emucore.operations (one vocabulary; the
views' op lists: ``tests/studio/qt/test_operation_choices.py``)."""

from __future__ import annotations

from emucore.operations import Operation
from emucore.scenario.explain import describe_test
from emucore.scenario.model import Term


def test_done_tests_are_described_by_the_operations_symbols():
    described = {op: describe_test("lives", Term.parse({"op": op.value, "reference": 3}, "absolute"))
                 for op in Operation}
    assert described[Operation.LESS_THAN] == "lives < 3"
    assert described[Operation.NEGATIVE_EQUAL] == "lives == -3"
    assert described[Operation.ZERO] == "lives == 0"
    assert described[Operation.SIGN] == "lives sign"
    assert all(("3" in text) == op.takes_reference for op, text in described.items())
    assert describe_test("score", Term.parse({"op": "positive"}, "delta")) == "Δscore > 0"
    assert describe_test("lives", Term.parse({}, "absolute")) == "lives > 0"  # no op: the value itself, > 0
