"""Where things are in a scenario file and what each place is called: the one walker of scenario.json.

The checker (:mod:`~emucore.integration.scenariofile`), lint
(:mod:`~emucore.integration.lint_scenario`), :meth:`emucore.scenario.model.Scenario.parse` and
the studio's scenario editor all find a scenario's rewards, terms, done nodes and tests here, and
name them by the same key paths (``rewards[0].variables.score``, ``done.nodes.lost.variables.lives``,
formatted by :func:`key`). The JSON Schema (``resources/schemas/scenario.schema.json``) lists the
same fields, which ``tests/emucore/integration/test_scenario_walk.py`` checks.

The walker decides, once per place, what a container of the wrong type means: a ``variables``,
``nodes`` or ``rewards`` that is not of its type (an array, null, a number) holds nothing, a reward
or done node that is not an object is still yielded (lint warns about it, the others skip it) but
has no terms, tests or children. :func:`container` tells the checker which wrong types stable-retro
refuses to load.

Adding a field:

- a term field (beside ``op``, ``measurement``, ...): add it to :data:`TERM_FIELDS` (and to
  :data:`NUMBER_FIELDS` if it is a number) and to the schema's ``term``; then teach its meaning
  where it is used (``Term.parse`` in the model, a lint rule, the studio's editor); the checker,
  lint and the studio find it, and name its key, through the walker;
- a value of ``measurement`` or ``condition``: :data:`MEASUREMENTS` or :data:`CONDITIONS`, and
  the schema's enum;
- a field of a reward or a done node: add it to :data:`REWARD_FIELDS` or :data:`NODE_FIELDS` and
  to the schema;
- a new place holding terms (a second kind of node): add a walker function here yielding
  ``(KeyPath, value)`` pairs, so every consumer finds it, and its keys, the same way.

>>> scenario = {"reward": {"variables": {"score": {"reward": 1}}},
...             "done": {"nodes": {"lost": {"variables": {"lives": {"op": "zero"}}}}}}
>>> [(key(path), spec) for path, spec in reward_specs(scenario)]
[('reward', {'variables': {'score': {'reward': 1}}})]
>>> [key(path) for _, path, _ in reward_terms(scenario["reward"], ("reward",))]
['reward.variables.score']
>>> [(key(path), top) for path, _, top in done_nodes(scenario)]
[('done', True), ('done.nodes.lost', False)]
>>> key(term_path(node_path(("lost",)), "lives"))
'done.nodes.lost.variables.lives'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from emucore.integration.jsontext import KeyPath, format_key

# The top level.
REWARD: Final = "reward"  # player 1's reward
REWARDS: Final = "rewards"  # the per-player rewards, an array
DONE: Final = "done"  # the top done node
CROP: Final = "crop"
CROPS: Final = "crops"  # refused by stable-retro; the model reads it
ACTIONS: Final = "actions"
SCRIPTS: Final = "scripts"
SCENARIO_KEYS: Final = (REWARD, REWARDS, DONE)  # a JSON file with one of these is a scenario
TOP_LEVEL_KEYS: Final = (REWARD, REWARDS, DONE, ACTIONS, CROP, SCRIPTS)
PLAYERS: Final = 2  # stable-retro reads the first 2 entries of rewards

# A reward object and a done node.
VARIABLES: Final = "variables"  # variable name -> term (a reward) or test (a done node)
TIME: Final = "time"  # a reward's time term
SCRIPT: Final = "script"  # a Lua function that decides instead
NODES: Final = "nodes"  # a done node's sub-nodes by name
CONDITION: Final = "condition"  # a done node's "any" or "all"
REWARD_FIELDS: Final = (VARIABLES, TIME, SCRIPT)
NODE_FIELDS: Final = (CONDITION, VARIABLES, NODES, SCRIPT)

# A term (of a reward) or a test (of a done node).
MEASUREMENT: Final = "measurement"
OP: Final = "op"
REFERENCE: Final = "reference"
TERM_REWARD: Final = "reward"
PENALTY: Final = "penalty"
TERM_FIELDS: Final = (MEASUREMENT, OP, REFERENCE, TERM_REWARD, PENALTY)
NUMBER_FIELDS: Final = (REFERENCE, TERM_REWARD, PENALTY)  # stable-retro reads 0 for a non-number
MEASUREMENTS: Final = ("delta", "absolute")  # a reward term's default first, then a done test's
CONDITIONS: Final = ("any", "all")  # the default first


class _NotAMapping:
    def __repr__(self) -> str:
        return "NOT_A_MAPPING"


NOT_A_MAPPING: Final = _NotAMapping()


def key(path: KeyPath) -> str:
    """The name of a place, as every message and finding writes it: ``rewards[0].variables.score``."""
    return format_key(path)


def container(value: Any) -> dict | None | _NotAMapping:
    """A ``variables`` or ``nodes`` value as stable-retro loads it: the object, None for null or an
    empty array (accepted, holding nothing), or :data:`NOT_A_MAPPING` (refused by stable-retro)."""
    if value is None or value == []:
        return None
    return value if isinstance(value, dict) else NOT_A_MAPPING


def entries(owner: Any, field: str) -> dict:
    """``owner[field]`` (itself, not a copy) when both are objects, else an empty object: what the walker iterates."""
    value = owner.get(field) if isinstance(owner, dict) else None
    return value if isinstance(value, dict) else {}


def reward_specs(scenario: Any) -> Iterator[tuple[KeyPath, Any]]:
    """``reward`` (when present, whatever its value) and each entry of a ``rewards`` array, in
    stable-retro's order (``reward`` is merged first, so its terms win)."""
    if not isinstance(scenario, dict):
        return
    if REWARD in scenario:
        yield (REWARD,), scenario[REWARD]
    rewards = scenario.get(REWARDS)
    if isinstance(rewards, list):
        for i, spec in enumerate(rewards):
            yield (REWARDS, i), spec


def player(path: KeyPath) -> int | None:
    """The player whose reward is at ``path`` (0 for ``reward``), None for ``rewards`` entries stable-retro ignores."""
    if path == (REWARD,):
        return 0
    index = path[1] if len(path) == 2 and path[0] == REWARDS else None
    return index if isinstance(index, int) and index < PLAYERS else None


def edited_reward(scenario: Any) -> KeyPath:
    """Where player 1's reward is edited: ``reward``, or ``rewards[0]`` in a per-player scenario without ``reward``."""
    if isinstance(scenario, dict) and REWARD not in scenario and isinstance(scenario.get(REWARDS), list):
        return (REWARDS, 0)
    return (REWARD,)


def term_path(owner: KeyPath, name: str) -> KeyPath:
    """The place of the term on variable ``name`` of the reward at ``owner``, or of the test of the done node there."""
    return (*owner, VARIABLES, name)


def reward_terms(spec: Any, path: KeyPath) -> Iterator[tuple[str, KeyPath, Any]]:
    """``(variable name, place, term as written)`` for each of a reward's ``variables``."""
    for name, term in entries(spec, VARIABLES).items():
        yield name, term_path(path, name), term


def time_term(spec: Any, path: KeyPath) -> tuple[KeyPath, dict] | None:
    """A reward's ``time`` term and its place, when it is an object (stable-retro ignores it otherwise)."""
    time = spec.get(TIME) if isinstance(spec, dict) else None
    return ((*path, TIME), time) if isinstance(time, dict) else None


def node_path(names: Sequence[str]) -> KeyPath:
    """The place of the done node reached by ``names`` from the top: ``("lost",)`` -> ``done.nodes.lost``."""
    path: KeyPath = (DONE,)
    for name in names:
        path = (*path, NODES, name)
    return path


def done_tests(node: Any, path: KeyPath) -> Iterator[tuple[str, KeyPath, Any]]:
    """``(variable name, place, test as written)`` for each of a done node's ``variables``."""
    return reward_terms(node, path)


def done_children(node: Any, path: KeyPath) -> Iterator[tuple[str, KeyPath, Any]]:
    """``(name, place, node as written)`` for each of a done node's ``nodes``, in file order."""
    for name, child in entries(node, NODES).items():
        yield name, (*path, NODES, name), child


def done_nodes(scenario: Any) -> Iterator[tuple[KeyPath, Any, bool]]:
    """``(place, node as written, is the top)``: ``done`` (when present, whatever its value) and every
    node below it, depth first in file order; each node is yielded before its children are looked at."""
    if not isinstance(scenario, dict) or DONE not in scenario:
        return
    stack: list[tuple[KeyPath, Any]] = [((DONE,), scenario[DONE])]
    while stack:
        path, node = stack.pop()
        yield path, node, path == (DONE,)
        stack.extend((child_path, child) for _, child_path, child in reversed(list(done_children(node, path))))
