"""Propose a done rule from examples: ``suggest_done(emulator, alive=[...], over=[...])``.

>>> variables, done = suggest_done(emulator, alive=alive_states, over=game_over_states, data=info)
>>> done     # {"variables": {"lives": {"op": "zero"}}}

A rule is one to three tests on memory (each byte as ``|u1``, or as ``|i1`` for ``negative``,
and every variable of ``data``), joined by ``all``. It is true on every ``over`` example and
false on every ``alive`` one. Among the rules that are, :func:`done_rules` ranks first the one
most likely to hold in episodes it has not seen:

1. **Few terms**: one test, else two, else three.
2. **The integrator's own variables**: tests on a variable already in ``data`` (its name is
   reused) before tests on new ones.
3. **Stable values**: a value that seldom changed while alive (a game-over flag, a lives count)
   before one that changed often (a timer, a position): a volatile byte that happened to take a
   value only at the over examples is a coincidence that will not hold in other episodes.
4. **Exact ops**: ``zero``, ``negative``, ``nonzero``, ``equal``, ``not-equal``, then the
   thresholds ``less-than`` and ``greater-than``.

``alive`` should hold every frame of a few episodes up to the one before the game ends: the
frames just before a game over keep a rule from firing early. :func:`~emucore.search.episodes.
episode_examples` makes both lists from recorded episodes. Examples are state bytes or
:class:`~emucore.search.Snapshot`\\ s; ``alive`` is read a second time when no single test
separates the examples (a one-shot iterator is kept in a list for that).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from emucore.operations import Operation
from emucore.search.checkpoints import StateLike, same_layout, snapshots_of
from emucore.search.done_evidence import KINDS, OP_RANK, Evidence, Kept, Test, Values, Variable, data_variables
from emucore.search.snapshot import Snapshot

POOL = 768  # the tests combined into rules of two terms: half the most stable, half the rarest alive
TRIPLE_POOL = 48  # the first of those combined into rules of three
MAX_TERMS = 3


@dataclass(frozen=True)
class DoneRule:
    """Tests joined by ``all``: the new data.json variables they need and the ``done`` object."""

    tests: tuple[Test, ...]
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    done: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """``"lives zero and gameover equal 1"``."""
        return " and ".join(f"{name} {spec['op']}" + (f" {spec['reference']}" if "reference" in spec else "")
                            for name, spec in self.done["variables"].items())


def _reusable(alive: Iterable[StateLike]) -> Iterable[StateLike]:
    if isinstance(alive, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError("alive is a list of states, not one state")
    return list(alive) if isinstance(alive, Iterator) else alive


def done_rules(emulator: Any, alive: Iterable[StateLike], over: Iterable[StateLike], *,
               data: Mapping[str, Any] | None = None, max_terms: int = MAX_TERMS,
               limit: int = 20) -> list[DoneRule]:
    """Rules true on every ``over`` example and false on every ``alive`` one, best first (see
    the module docstring): the single tests when there are any, else the best combinations of
    two, else of three tests. Empty when none separates them. Arguments as for
    :func:`suggest_done`."""
    if isinstance(over, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError("over is a list of states, not one state")
    if isinstance(max_terms, bool) or not isinstance(max_terms, int) or not 1 <= max_terms <= MAX_TERMS:
        raise ValueError(f"max_terms must be 1 to {MAX_TERMS}, not {max_terms!r}")
    variables = data_variables(data)
    alive = _reusable(alive)
    over_snaps = list(snapshots_of(emulator, over, "over state"))
    if not over_snaps:
        raise ValueError("suggest_done needs at least one over state")
    same_layout(over_snaps, "over state")
    values = Values(over_snaps[0].layout, variables)
    evidence = Evidence(values, np.stack([values.read(s) for s in over_snaps]))
    alive = Kept(emulator, alive, over_snaps[0].layout)
    for snap in alive:
        evidence.add_alive(values.read(snap))
    if not evidence.alive:
        raise ValueError("suggest_done needs at least one alive state")
    evidence.finish()
    singles = [evidence.test(int(i), kind) for kind in KINDS
               for i in np.flatnonzero(evidence.on_over[kind] & (evidence.true_alive[kind] == 0))]
    if singles:
        return [_rule((t,), variables) for t in sorted(singles, key=evidence.rank)[:limit]]
    if max_terms == 1:
        return []
    combined = _combined(alive, evidence, max_terms)
    return [_rule(tests, variables) for tests in combined[:limit]]


def _combined(alive: Iterable[Snapshot], evidence: Evidence, max_terms: int) -> list[tuple[Test, ...]]:
    """Rules of two (else three) tests, from the tests true on every over example and on some
    alive ones (at most :data:`POOL`: half the most stable, half the rarest while alive), such
    that no alive example makes all of them true."""
    candidates = [(int(i), kind) for kind in KINDS if kind != Operation.NOT_EQUAL
                  for i in np.flatnonzero(evidence.on_over[kind] & (evidence.true_alive[kind] < evidence.alive))]
    stable = sorted(candidates, key=lambda ik: evidence.rank(evidence.test(*ik)))
    rare = sorted(candidates, key=lambda ik: (evidence.true_alive[ik[1]][ik[0]], evidence.rank(evidence.test(*ik))))
    pool = list(dict.fromkeys(stable[: POOL // 2] + rare[: POOL // 2] + stable[POOL // 2 : POOL]))[:POOL]
    if len(pool) < 2:
        return []
    table = _truth_table(alive, evidence, pool)
    variable = np.array([i for i, _ in pool])
    together = _co_true(table, table)
    found: list[tuple[int, ...]] = [
        (int(a), int(b)) for a, b in np.argwhere(np.triu(together == 0, 1)) if variable[a] != variable[b]]
    if not found and max_terms == 3:
        position = {test: k for k, test in enumerate(pool)}
        small = sorted({position[t] for t in stable[: TRIPLE_POOL // 2] + rare[: TRIPLE_POOL // 2]})
        pairs = [(a, b) for a, b in combinations(small, 2) if variable[a] != variable[b]]
        if pairs:
            both = np.stack([table[:, a] & table[:, b] for a, b in pairs], axis=1)
            all_three = _co_true(both, table[:, small])
            for p, c in np.argwhere(all_three == 0):
                a, b = pairs[p]
                c = small[c]
                if c > b and variable[c] != variable[a] and variable[c] != variable[b]:
                    found.append((a, b, c))
    rules = [tuple(evidence.test(*pool[k]) for k in combo) for combo in found]
    rules.sort(key=lambda tests: (sum(t.name is None for t in tests), max(t.changes for t in tests),
                                  sum(OP_RANK[t.op] for t in tests), [t.address for t in tests]))
    return rules


def _truth_table(alive: Iterable[Snapshot], evidence: Evidence, pool: list[tuple[int, Operation]]) -> np.ndarray:
    """``(alive examples, tests)``: whether each test of ``pool`` is true on each alive example."""
    kinds = sorted({kind for _, kind in pool})
    where = {kind: np.array([k for k, (_, c) in enumerate(pool) if c == kind]) for kind in kinds}
    index = {kind: np.array([i for i, c in pool if c == kind]) for kind in kinds}
    rows = []
    for snap in alive:
        now = evidence.values.read(snap)
        row = np.empty(len(pool), dtype=bool)
        for kind in kinds:
            row[where[kind]] = evidence.truth(kind, now)[index[kind]]
        rows.append(row)
    return np.stack(rows)


def _co_true(left: np.ndarray, right: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """How many rows have both column i of ``left`` and column j of ``right`` true (float32
    products by chunks of rows: exact for counts below 2**24)."""
    out = np.zeros((left.shape[1], right.shape[1]), dtype=np.float32)
    for start in range(0, len(left), chunk):
        out += left[start : start + chunk].T.astype(np.float32) @ right[start : start + chunk].astype(np.float32)
    return out


def _rule(tests: tuple[Test, ...], data: list[Variable]) -> DoneRule:
    """Names the tests' variables (``data``'s names, else ``lives`` or ``gameover``) and writes them."""
    taken = {v.name for v in data if v.name}
    variables: dict[str, dict[str, Any]] = {}
    specs: dict[str, dict[str, Any]] = {}
    for test in tests:
        name = test.name
        if name is None:
            counts_down = test.op in (Operation.ZERO, Operation.NEGATIVE) and test.changes and test.alive_high <= 9
            base = "lives" if counts_down else "gameover"
            name, n = base, 2
            while name in taken or name in variables:
                name, n = f"{base}_{n}", n + 1
            variables[name] = {"address": test.address, "type": test.type}
            if test.mask is not None:
                variables[name]["mask"] = test.mask
        taken.add(name)
        specs[name] = test.spec()
    done: dict[str, Any] = {"variables": specs}
    if len(tests) > 1:
        done = {"condition": "all", "variables": specs}
    return DoneRule(tests, variables, done)


def suggest_done(emulator: Any, alive: Iterable[StateLike], over: Iterable[StateLike], *,
                 data: Mapping[str, Any] | None = None,
                 max_terms: int = MAX_TERMS) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """A done rule that is true on every ``over`` example and false on every ``alive`` one.

    Args:
        emulator: The :class:`~emucore.emulator.Emulator` the states belong to (left as it was).
        alive: States (or snapshots) where the game is running, including the frames just
            before it ends.
        over: States at the frame the episode should end (one or more game overs).
        data: The integration's data.json variables (``{"lives": {"address": .., "type": ..}}``
            or data.json's whole object); a rule on one of them uses its name.
        max_terms: At most this many tests joined by ``all`` (1 to 3).

    Returns:
        ``(variables, done)``: the data.json variables the rule needs that ``data`` does not
        have (e.g. ``{"gameover": {"address": 163, "type": "|u1"}}``), and the scenario.json
        ``done`` object (``{"variables": {"gameover": {"op": "nonzero"}}}``, or with
        ``"condition": "all"`` for two or three tests).

    Raises:
        ValueError: no example on either side, a state the core rejects, bad ``data``, or no
            rule of up to ``max_terms`` tests separates the examples.
    """
    rules = done_rules(emulator, alive, over, data=data, max_terms=max_terms, limit=1)
    if not rules:
        raise ValueError(f"no rule of up to {max_terms} tests is true on every over state and false on every "
                         "alive state: are some over states also among the alive ones?")
    return dict(rules[0].variables), dict(rules[0].done)


__all__ = ["DoneRule", "Test", "done_rules", "suggest_done"]
