"""The one walker of scenario.json (emucore.integration.scenario_walk): its places, their keys, what an
ill-typed container holds, and the JSON Schema listing the same fields."""

from __future__ import annotations

import json

from emucore.integration import scenario_walk as walk
from emucore.paths import schemas_dir

SCENARIO = {
    "reward": {"variables": {"score": {"reward": 1}}, "time": {"reward": -0.01}},
    "rewards": [
        {"variables": {"score": {"reward": 2}, "lives": {"penalty": 1}}},
        {"script": "lua:reward"},
        {"variables": {"ignored": {}}},
    ],
    "done": {
        "condition": "any",
        "variables": {"gameover": {"op": "equal", "reference": 1}},
        "nodes": {
            "lost": {"condition": "all", "variables": {"lives": {"op": "zero"}, "timer": {"op": "zero"}},
                     "nodes": {"deep": {"variables": {"x": {}}}}},
            "won": {"variables": {"level": {"op": "equal", "reference": 9}}},
        },
    },
}


def keyed(items):
    return [(name, walk.key(path)) for name, path, _ in items]


def test_reward_specs_in_stable_retros_order_with_their_players():
    specs = list(walk.reward_specs(SCENARIO))
    assert [walk.key(path) for path, _ in specs] == ["reward", "rewards[0]", "rewards[1]", "rewards[2]"]
    assert [walk.player(path) for path, _ in specs] == [0, 0, 1, None]
    assert specs[1][1] is SCENARIO["rewards"][0]


def test_reward_terms_and_time():
    path, spec = next(walk.reward_specs(SCENARIO))
    assert keyed(walk.reward_terms(spec, path)) == [("score", "reward.variables.score")]
    time = walk.time_term(spec, path)
    assert time is not None and walk.key(time[0]) == "reward.time" and time[1] == {"reward": -0.01}
    player1 = SCENARIO["rewards"][0]
    assert keyed(walk.reward_terms(player1, ("rewards", 0))) == [
        ("score", "rewards[0].variables.score"), ("lives", "rewards[0].variables.lives")]
    assert walk.time_term(player1, ("rewards", 0)) is None


def test_done_nodes_depth_first_in_file_order():
    nodes = [(walk.key(path), top) for path, _, top in walk.done_nodes(SCENARIO)]
    assert nodes == [("done", True), ("done.nodes.lost", False), ("done.nodes.lost.nodes.deep", False),
                     ("done.nodes.won", False)]
    tests = [test for path, node, _ in walk.done_nodes(SCENARIO) for test in keyed(walk.done_tests(node, path))]
    assert tests == [
        ("gameover", "done.variables.gameover"),
        ("lives", "done.nodes.lost.variables.lives"),
        ("timer", "done.nodes.lost.variables.timer"),
        ("x", "done.nodes.lost.nodes.deep.variables.x"),
        ("level", "done.nodes.won.variables.level"),
    ]
    assert walk.node_path(("lost", "deep")) == ("done", "nodes", "lost", "nodes", "deep")
    assert walk.key(walk.term_path(walk.node_path(("won",)), "level")) == "done.nodes.won.variables.level"


def test_edited_reward():
    assert walk.edited_reward(SCENARIO) == ("reward",)
    assert walk.edited_reward({"rewards": []}) == ("rewards", 0)
    assert walk.edited_reward({"rewards": None}) == ("reward",)
    assert walk.edited_reward({}) == ("reward",)


def test_ill_typed_containers_hold_nothing():
    for bad in ([], None, [1], 3, "x"):
        assert list(walk.reward_terms({"variables": bad}, ("reward",))) == []
        assert list(walk.done_tests({"variables": bad}, ("done",))) == []
        assert list(walk.done_children({"nodes": bad}, ("done",))) == []
        assert walk.time_term({"time": bad}, ("reward",)) is None
        assert [walk.key(p) for p, _ in walk.reward_specs({"rewards": bad})] == (["rewards[0]"] if bad == [1] else [])
    # a reward or node that is not an object is still a place (lint warns), with nothing inside
    assert list(walk.reward_specs({"reward": None, "rewards": [3]})) == [(("reward",), None), (("rewards", 0), 3)]
    assert list(walk.reward_terms(3, ("rewards", 0))) == []
    assert list(walk.done_nodes({"done": None})) == [(("done",), None, True)]
    assert [walk.key(p) for p, _, _ in walk.done_nodes({"done": {"nodes": {"a": [], "b": {"nodes": {"c": 1}}}}})] == [
        "done", "done.nodes.a", "done.nodes.b", "done.nodes.b.nodes.c"]
    assert list(walk.done_nodes({})) == [] and list(walk.reward_specs([])) == [] and list(walk.done_nodes(None)) == []


def test_container_says_what_stable_retro_refuses():
    assert walk.container({"a": 1}) == {"a": 1}
    assert walk.container(None) is None and walk.container([]) is None
    for bad in ([1], 0, "x", True):
        assert walk.container(bad) is walk.NOT_A_MAPPING


def test_the_schema_lists_the_walkers_fields():
    schema = json.loads((schemas_dir() / "scenario.schema.json").read_text())
    defs = schema["$defs"]
    assert tuple(defs["term"]["properties"]) == walk.TERM_FIELDS
    assert tuple(defs["term"]["properties"]["measurement"]["enum"]) == walk.MEASUREMENTS
    assert tuple(defs["done"]["properties"]["condition"]["enum"]) == walk.CONDITIONS
    assert set(defs["reward"]["properties"]) == set(walk.REWARD_FIELDS)
    assert set(defs["done"]["properties"]) == set(walk.NODE_FIELDS)
    assert set(schema["properties"]) == set(walk.TOP_LEVEL_KEYS)
    assert set(walk.SCENARIO_KEYS) <= set(walk.TOP_LEVEL_KEYS)
