"""Evaluator.explain_done: the tests the done verdict rests on, agreeing with is_done() every frame."""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace

import numpy as np
import pytest

from emucore.host.memory import AddressSpace, Block
from emucore.scenario.actions import ActionGroups
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.model import DoneNode, Scenario

NAMES = ("a", "b", "c")


def game_data(raw: dict, ram: np.ndarray, scripts=()) -> Evaluator:
    variables = {name: SimpleNamespace(address=i, type="|u1", mask=None) for i, name in enumerate(NAMES)}
    memory = AddressSpace([Block(0, ram)])
    return Evaluator(variables, Scenario.parse(raw), lambda: memory, ActionGroups([], []), scripts)


def spec(op: str, reference: int = 0, measurement: str = "absolute") -> dict:
    return {"op": op, "reference": reference, "measurement": measurement}


SCENARIOS = {
    "any": {"variables": {"a": spec("equal", 1), "b": spec("greater-than", 0)}},
    "all": {"condition": "all", "variables": {"a": spec("equal", 1), "b": spec("greater-than", 0)}},
    "nested": {
        "variables": {"c": spec("equal", 1)},
        "nodes": {
            "both": {"condition": "all", "variables": {"a": spec("nonzero"), "b": spec("nonzero")}},
            "either": {"nodes": {"deep": {"variables": {"a": spec("greater-than", 0, "delta")}}}},
        },
    },
    "all of nodes": {
        "condition": "all",
        "nodes": {
            "one": {"variables": {"a": {}}},
            "two": {"variables": {"b": {}, "c": {}}},
            "free": {"condition": "all"},
        },
    },
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_explanation_agrees_with_is_done_on_every_memory(name):
    ram = np.zeros(3, np.uint8)
    data = game_data({"done": SCENARIOS[name]}, ram)
    data.reset()
    seen = set()
    for values in product(range(2), repeat=3):
        ram[:] = values
        data.update_ram()
        reasons = data.explain_done()
        assert bool(reasons) == data.is_done()
        seen.add(data.is_done())
        for reason in reasons:
            assert reason.key.startswith("done") and reason.text
            if reason.name is not None:  # each test named is true, as measured
                assert reason.term.apply(reason.measured) > 0
                assert reason.measured == data.measure(reason.name, reason.term.measurement)
    assert seen == {True, False}  # both verdicts were explained


def explained(raw_done: dict, values) -> list[tuple[str, str]]:
    ram = np.array(values, np.uint8)
    data = game_data({"done": raw_done}, ram)
    data.reset()
    data.update_ram()
    return [(r.key, r.text) for r in data.explain_done()]


def test_an_any_node_is_done_by_its_first_true_test():
    assert explained(SCENARIOS["any"], [1, 5, 0]) == [("done.variables.a", "a == 1 (is 1)")]
    assert explained(SCENARIOS["any"], [0, 5, 0]) == [("done.variables.b", "b > 0 (is 5)")]


def test_an_all_node_is_done_by_all_its_tests():
    assert explained(SCENARIOS["all"], [1, 5, 0]) == [
        ("done.variables.a", "a == 1 (is 1)"), ("done.variables.b", "b > 0 (is 5)")]


def test_a_false_all_node_gives_no_reason_even_with_true_tests():
    assert explained(SCENARIOS["all"], [1, 0, 0]) == []
    # c is false, and the sub-node "both" is false though a is nonzero: the deep delta is 0 on the first frame
    assert explained(SCENARIOS["nested"], [1, 0, 0]) == []


def test_sub_node_reasons_carry_their_keys_and_node_path():
    assert explained(SCENARIOS["nested"], [1, 2, 0]) == [
        ("done.nodes.both.variables.a", "both: a != 0 (is 1)"), ("done.nodes.both.variables.b", "both: b != 0 (is 2)")]
    assert explained(SCENARIOS["all of nodes"], [3, 0, 4]) == [
        ("done.nodes.one.variables.a", "one: a > 0 (is 3)"), ("done.nodes.two.variables.c", "two: c > 0 (is 4)"),
        ("done.nodes.free", "free: all with no tests is always true")]


def test_a_delta_test_deep_in_the_tree():
    ram = np.array([0, 0, 0], np.uint8)
    data = game_data({"done": SCENARIOS["nested"]}, ram)
    data.reset()
    data.update_ram()
    ram[0] = 3
    data.update_ram()
    (reason,) = data.explain_done()
    assert (reason.key, reason.text, reason.measured) == (
        "done.nodes.either.nodes.deep.variables.a", "either.deep: Δa > 0 (is 3)", 3)


def test_an_empty_all_is_always_done_and_says_so():
    assert explained({"condition": "all"}, [0, 0, 0]) == [("done", "all with no tests is always true")]
    assert explained({}, [1, 1, 1]) == []  # an empty any is never done


def test_tests_after_the_deciding_one_are_not_measured():
    # "missing" is no variable: the evaluator never reaches it, and neither does the explanation
    done = {"variables": {"a": spec("equal", 1), "missing": spec("equal", 1)}}
    assert explained(done, [1, 0, 0]) == [("done.variables.a", "a == 1 (is 1)")]


def test_a_done_script_is_its_own_reason():
    script = ("done.lua", "function over() return data.a == 1 end")
    ram = np.array([0, 0, 0], np.uint8)
    data = game_data({"done": {"script": "lua:over"}, "scripts": ["done.lua"]}, ram, [script])
    data.reset()
    data.update_ram()
    assert data.explain_done() == []
    ram[0] = 1
    data.update_ram()
    assert [(r.key, r.text) for r in data.explain_done()] == [("done.script", "script lua:over returned true")]


def test_walk_and_tests_visit_the_tree_in_file_order():
    tree = DoneNode.parse(SCENARIOS["nested"])
    assert [path for path, _ in tree.walk()] == [(), ("both",), ("either",), ("either", "deep")]
    assert [key for key, _, _ in tree.tests()] == [
        "done.variables.c", "done.nodes.both.variables.a", "done.nodes.both.variables.b",
        "done.nodes.either.nodes.deep.variables.a"]
    assert Scenario.parse({"done": SCENARIOS["nested"]}).variable_names() == {"a", "b", "c"}


def test_a_reward_script_that_undoes_the_tested_value_is_said_so():
    script = ("reward.lua", "function clear() data.a = 0 return 0 end")
    ram = np.array([1, 0, 0], np.uint8)
    raw = {"done": {"variables": {"a": spec("equal", 1)}}, "reward": {"script": "lua:clear"}, "scripts": ["reward.lua"]}
    data = game_data(raw, ram, [script])
    data.reset()
    data.update_ram()
    assert data.is_done() and ram[0] == 0  # done was decided on a == 1, then the reward script cleared it
    assert [r.key for r in data.explain_done()] == ["done"]
