"""scenario.json as data: reward terms, the done tree, actions, crop and scripts.

Parsing follows stable-retro (integration-format.md §5): unknown or ill-typed values fall back
to their defaults rather than failing; only ``crop`` and ``actions`` must have the right shape.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emucore.errors import EmucoreError
from emucore.integration import scenario_walk
from emucore.integration.jsontext import KeyPath, is_number
from emucore.operations import EVALUATE, Operation, scenario_operation

MEASUREMENTS = scenario_walk.MEASUREMENTS
ZERO = np.float32(0)
FLOAT32_MAX = float(np.finfo(np.float32).max)


class ScenarioError(EmucoreError, ValueError):
    """A scenario value stable-retro would reject or could not represent."""


def _f32(value: Any, what: str) -> np.float32:
    if not is_number(value):
        return np.float32(0)
    if not abs(value) <= FLOAT32_MAX:
        raise ScenarioError(f"{what} {value!r} is not a number within float32's range")
    return np.float32(value)


def _int(value: Any, what: str) -> int:
    if not is_number(value):
        return 0
    if not abs(value) < 2.0**63:
        raise ScenarioError(f"{what} {value!r} is not a number within int64's range")
    return int(value)  # JSON floats are truncated


@dataclass(frozen=True)
class Term:
    """One variable's measurement: ``op(measured)`` with ``measured`` its value or its delta."""

    measurement: str = "delta"
    op: Operation | None = None
    reference: int = 0
    reward: np.float32 = np.float32(0)
    penalty: np.float32 = np.float32(0)

    def apply(self, measured: int) -> int:
        op = EVALUATE.get(self.op) if self.op else None
        return op(measured, self.reference) if op else measured

    def value(self, measured: int) -> np.float32:
        """The reward of this term in float32, as stable-retro computes it."""
        m = self.apply(measured)
        if m > 0:
            return np.float32(m) * self.reward
        if m < 0:
            return np.float32(m) * self.penalty
        return ZERO

    @classmethod
    def parse(cls, spec: Any, default_measurement: str) -> Term:
        if not isinstance(spec, dict):
            spec = {}
        measurement = spec.get(scenario_walk.MEASUREMENT)
        return cls(
            measurement=measurement if measurement in MEASUREMENTS else default_measurement,
            op=scenario_operation(spec.get(scenario_walk.OP)),
            reference=_int(spec.get(scenario_walk.REFERENCE, 0), scenario_walk.REFERENCE),
            reward=_f32(spec.get(scenario_walk.TERM_REWARD, 0.0), scenario_walk.TERM_REWARD),
            penalty=_f32(spec.get(scenario_walk.PENALTY, 0.0), scenario_walk.PENALTY),
        )


@dataclass
class RewardSpec:
    """One player's reward: variable terms plus a time term, or a Lua function."""

    variables: dict[str, Term] = field(default_factory=dict)
    time: Term | None = None
    script: str | None = None

    def merge(self, raw: Any, path: KeyPath = (scenario_walk.REWARD,)) -> None:
        """Adds what ``raw`` (the reward at ``path``) defines that is not defined yet (the first definition wins)."""
        if not isinstance(raw, dict):
            return
        for name, _, spec in scenario_walk.reward_terms(raw, path):
            self.variables.setdefault(name, Term.parse(spec, "delta"))
        timed = scenario_walk.time_term(raw, path)
        if self.time is None and timed is not None:
            self.time = Term.parse(timed[1], "delta")
        if self.script is None and isinstance(raw.get(scenario_walk.SCRIPT), str) and raw[scenario_walk.SCRIPT]:
            self.script = raw[scenario_walk.SCRIPT]

    @property
    def empty(self) -> bool:
        return not self.variables and self.time is None and self.script is None


def done_key(path: Sequence[str]) -> str:
    """Where the done node at ``path`` (node names from the top) is in scenario.json: ``done.nodes.lost``."""
    return scenario_walk.key(scenario_walk.node_path(path))


@dataclass
class DoneNode:
    """A done condition: variable tests and sub-nodes combined with ``any`` or ``all``."""

    condition: str = "any"
    variables: dict[str, Term] = field(default_factory=dict)
    nodes: dict[str, DoneNode] = field(default_factory=dict)

    def walk(self, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], DoneNode]]:
        """This node and every node below it, depth first in file order, each with its path of node names."""
        stack = [(path, self)]
        while stack:
            at, node = stack.pop()
            yield at, node
            stack.extend(((*at, name), child) for name, child in reversed(node.nodes.items()))

    def tests(self) -> Iterator[tuple[str, str, Term]]:
        """Every test of the tree as ``(key, variable name, term)``, key as ``done.nodes.lost.variables.lives``."""
        for path, node in self.walk():
            at = scenario_walk.node_path(path)
            for name, term in node.variables.items():
                yield scenario_walk.key(scenario_walk.term_path(at, name)), name, term

    @classmethod
    def parse(cls, raw: Any, path: KeyPath = (scenario_walk.DONE,)) -> DoneNode:
        """The done node ``raw``, at ``path`` in the file (``done`` for the top)."""
        if not isinstance(raw, dict):
            return cls()
        return cls(
            condition="all" if raw.get(scenario_walk.CONDITION) == "all" else "any",
            variables={name: Term.parse(spec, "absolute") for name, _, spec in scenario_walk.done_tests(raw, path)},
            nodes={name: cls.parse(node, at) for name, at, node in scenario_walk.done_children(raw, path)},
        )


@dataclass
class Scenario:
    rewards: list[RewardSpec] = field(default_factory=lambda: [RewardSpec(), RewardSpec()])
    done: DoneNode | None = None
    done_script: str | None = None
    actions: list | None = None
    crops: list[tuple[int, int, int, int]] = field(default_factory=lambda: [(0, 0, 0, 0)])
    scripts: list[str] = field(default_factory=list)

    @classmethod
    def parse(cls, raw: dict | None) -> Scenario:
        """A scenario from scenario.json's object (None: no scenario, reward 0, never done)."""
        scenario = cls()
        if not raw:
            return scenario
        for path, spec in scenario_walk.reward_specs(raw):  # reward first: its terms win
            player = scenario_walk.player(path)
            if player is not None:
                scenario.rewards[player].merge(spec, path)
        done = raw.get(scenario_walk.DONE)
        if isinstance(done, dict):
            if isinstance(done.get(scenario_walk.SCRIPT), str) and done[scenario_walk.SCRIPT]:
                scenario.done_script = done[scenario_walk.SCRIPT]
            scenario.done = DoneNode.parse(done)
        actions = raw.get(scenario_walk.ACTIONS)
        if actions:
            if not (isinstance(actions, list) and all(
                isinstance(g, list) and all(isinstance(c, list) and all(isinstance(b, str) for b in c) for c in g)
                for g in actions
            )):
                raise ScenarioError("actions must be a list of groups of button-name lists")
            scenario.actions = actions
        if isinstance(raw.get(scenario_walk.CROPS), list):
            scenario.crops = [cls._crop(c) for c in raw[scenario_walk.CROPS]] or [(0, 0, 0, 0)]
        elif scenario_walk.CROP in raw:
            scenario.crops = [cls._crop(raw[scenario_walk.CROP])]
        scripts = raw.get(scenario_walk.SCRIPTS)
        if isinstance(scripts, list):
            scenario.scripts = [s for s in scripts if isinstance(s, str)]
        return scenario

    @staticmethod
    def _crop(value: Any) -> tuple[int, int, int, int]:
        if not isinstance(value, list) or len(value) != 4 or not all(
            is_number(v) and abs(v) < 2**31 for v in value
        ):
            raise ScenarioError(f"crop must be four 32-bit integers [x, y, w, h], not {value!r}")
        x, y, w, h = (int(v) for v in value)
        return x, y, w, h

    def crop(self, player: int = 0) -> tuple[int, int, int, int]:
        return self.crops[player] if player < len(self.crops) else self.crops[0]

    def variable_names(self, measurement: str | None = None) -> set[str]:
        """Every variable a reward term or done test refers to (only those measured so, given ``measurement``:
        ``"absolute"`` or ``"delta"``)."""
        names: set[str] = set()
        for reward in self.rewards:
            names.update(name for name, term in reward.variables.items()
                         if measurement is None or term.measurement == measurement)
        if self.done is not None:
            names.update(name for _, name, term in self.done.tests()
                         if measurement is None or term.measurement == measurement)
        return names
