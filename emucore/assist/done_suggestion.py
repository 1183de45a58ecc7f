"""Propose a done rule from examples: ``suggest_done(emulator, alive=[...], over=[...])``.

For example (not run: it needs a game's states or movies)::

    variables, done = suggest_done(emulator, alive=alive_states, over=game_over_states, data=info)
    done     # {"variables": {"lives": {"op": "zero"}}}

A rule is one to three tests on memory (each byte as ``|u1``, or as ``|i1`` for ``negative``,
and every variable of ``data``), joined by ``all``. It is true on every over example and
false on every alive one. Among the rules that are, :func:`done_rules` ranks first the one
most likely to hold in episodes it has not seen:

1. **Robust values**: flags and counters that take few values while alive (a game-over flag, a
   lives count) before a test on a value that takes many (a timer, a position), and an
   ``equal`` on such a value (a score equal to what it was at the one game over seen) last.
2. **Few terms**: one test, else two, else three.
3. **The integrator's own variables**: tests on a variable already in ``data`` (its name is
   reused) before tests on new ones.
4. **Stable values**: a value that seldom changed while alive before one that changed often.
5. **Exact ops**: ``zero``, ``negative``, ``nonzero``, ``equal``, ``not-equal``, then the
   thresholds ``less-than`` and ``greater-than``.

``episodes`` are the recorded play: movies (or lists of states) that each end at a game over.
Every frame before the game over is an alive example, the deaths before the last life
included, so a rule that would fire at an earlier death is never offered. ``alive`` and
``over`` add marked examples. With ``margin``, the frames just before each game over are
neither: a rule true there fires early, ranks after the ones that do not, and says so in its
``warnings``; so does a rule on a value that takes many values while alive. The result's
``warnings`` say when the evidence is thin (a single game over). Examples are state bytes or
:class:`~emucore.search.Snapshot`\\ s; alive examples are read a second time when no single
test separates the examples (a one-shot iterator is kept in a list for that).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from emucore.assist.done_evidence import (
    KINDS,
    MANY_VALUES,
    OP_RANK,
    Evidence,
    Kept,
    Test,
    TestedVariable,
    Values,
    data_variables,
)
from emucore.assist.done_examples import DoneExamples, episode_examples
from emucore.operations import Operation
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import StateLike, same_layout, snapshots_of

POOL = 768  # the tests combined into rules of two terms: half the most stable, half the rarest alive
TRIPLE_POOL = 48  # the first of those combined into rules of three
MAX_TERMS = 3


@dataclass(frozen=True)
class DoneRule:
    """Tests joined by ``all``: the new data.json variables they need and the ``done`` object."""

    tests: tuple[Test, ...]
    variables: dict[str, dict[str, Any]] = field(default_factory=dict)
    done: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    early: int = 0  # the most frames before an episode's marked game over that it fires (in the margin)

    def describe(self) -> str:
        """``"lives zero and gameover equal 1"``."""
        return " and ".join(f"{name} {spec['op']}" + (f" {spec['reference']}" if "reference" in spec else "")
                            for name, spec in self.done["variables"].items())


class DoneRules(list[DoneRule]):
    """The rules, best first, with the ``warnings`` that hold for all of them and the ``notes``
    on how the evidence was read (a game over found before its mark)."""

    def __init__(self, rules: Iterable[DoneRule] = (), warnings: Iterable[str] = (), notes: Iterable[str] = ()):
        super().__init__(rules)
        self.warnings: list[str] = list(warnings)
        self.notes: list[str] = list(notes)


class DoneSuggestion(tuple[dict[str, dict[str, Any]], dict[str, Any]]):
    """``(variables, done)`` of the best rule, with that ``rule`` and its ``warnings`` (the
    result's and the rule's)."""

    rule: DoneRule
    warnings: list[str]

    def __new__(cls, rule: DoneRule, warnings: Iterable[str]) -> DoneSuggestion:
        made = super().__new__(cls, (dict(rule.variables), dict(rule.done)))
        made.rule = rule
        made.warnings = list(warnings) + list(rule.warnings)
        return made


@dataclass(frozen=True)
class _Chain:
    parts: tuple[Iterable[Any], ...]

    def __iter__(self) -> Iterator[Any]:
        for part in self.parts:
            yield from part


def _reusable(alive: Iterable[StateLike]) -> Iterable[StateLike]:
    if isinstance(alive, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError("alive is a list of states, not one state")
    return list(alive) if isinstance(alive, Iterator) else alive


def _key(tests: tuple[Test, ...]) -> tuple:
    """The rank of a rule (rules 1-5 of the module docstring)."""
    return (max(t.tier for t in tests), len(tests), sum(t.name is None for t in tests), max(t.changes for t in tests),
            sum(OP_RANK[t.op] for t in tests), [t.address for t in tests])


def done_rules(emulator: Any, alive: Iterable[StateLike] = (), over: Iterable[StateLike] = (), *,
               episodes: Any = None, margin: int = 0, data: Mapping[str, Any] | None = None,
               max_terms: int = MAX_TERMS, limit: int = 20) -> DoneRules:
    """Rules true on every over example and false on every alive one, best first (see the
    module docstring). Empty when none separates them. Arguments as for :func:`suggest_done`."""
    if isinstance(over, (bytes, bytearray, memoryview, Snapshot)):
        raise ValueError("over is a list of states, not one state")
    if isinstance(max_terms, bool) or not isinstance(max_terms, int) or not 1 <= max_terms <= MAX_TERMS:
        raise ValueError(f"max_terms must be 1 to {MAX_TERMS}, not {max_terms!r}")
    variables = data_variables(data)
    alive = _reusable(alive)
    over_snaps = list(snapshots_of(emulator, over, "over state"))
    near: list[list[Snapshot]] = []
    if episodes is not None:
        examples = episodes if isinstance(episodes, DoneExamples) else episode_examples(emulator, episodes,
                                                                                          margin=margin)
        alive = _Chain((alive, examples.alive))
        over_snaps += examples.over
        near = examples.near
    if not over_snaps:
        raise ValueError("suggest_done needs at least one over state (or an episode)")
    same_layout(over_snaps, "over state")
    values = Values(over_snaps[0].layout, variables)
    evidence = Evidence(values, np.stack([values.read(s) for s in over_snaps]))
    alive = Kept(emulator, alive, over_snaps[0].layout)
    for snap in alive:
        evidence.add_alive(values.read(snap))
    if not evidence.alive:
        raise ValueError("suggest_done needs at least one alive state")
    evidence.finish()
    found: list[tuple[Test, ...]] = [(evidence.test(int(i), kind),) for kind in KINDS
             for i in np.flatnonzero(evidence.on_over[kind] & (evidence.true_alive[kind] == 0))]
    if max_terms > 1 and not any(_key(tests)[0] == 0 for tests in found):
        found += _combined(alive, evidence, max_terms)
    found.sort(key=_key)
    near_values = [[values.read(snap) for snap in frames] for frames in near]
    rules = [_checked(_rule(tests, variables), evidence, near_values) for tests in found[: 4 * limit]]
    rules.sort(key=lambda rule: (_key(rule.tests)[0], rule.early > 0, _key(rule.tests)))
    return DoneRules(rules[:limit], _warnings(len(over_snaps), evidence.alive, episodes is not None))


def _warnings(overs: int, alive: int, episodes: bool) -> list[str]:
    out = []
    if overs == 1:
        out.append("one game over seen: record another episode that ends in a game over")
    if not episodes and alive < 60:
        out.append(f"only {alive} alive frames were tested: give the recorded episodes, so that every frame "
                   "before the game over (earlier deaths included) is tested")
    return out


def _true(test: Test, evidence: Evidence, now: np.ndarray) -> bool:
    """``test`` on one frame's values (a byte's ``negative`` reads it as ``|i1``)."""
    value = int(now[test.index])
    if test.type == "|i1" and evidence.values.is_byte[test.index] and value >= 128:
        value -= 256
    return bool(Operation(test.op).compute(value, test.reference))


def _checked(rule: DoneRule, evidence: Evidence, near: list[list[np.ndarray]]) -> DoneRule:
    """The rule with what it does on the frames just before each game over (their values), and
    its warnings."""
    warnings, early = [], 0
    for episode, frames in enumerate(near):
        for k, now in enumerate(frames):
            if all(_true(t, evidence, now) for t in rule.tests):
                early = max(early, len(frames) - k)
                warnings.append(f"true {len(frames) - k} frame(s) before the marked game over of episode {episode}")
                break
    for test in rule.tests:
        if test.tier:
            many = f"{test.values}" if test.values <= MANY_VALUES else f"more than {MANY_VALUES}"
            warnings.append(f"{test.label()} took {many} values while alive: a test of it may hold by chance")
    return DoneRule(rule.tests, rule.variables, rule.done, tuple(warnings), early)


def _combined(alive: Iterable[Snapshot], evidence: Evidence, max_terms: int) -> list[tuple[Test, ...]]:
    """Rules of two (else three) tests, from the tests true on every over example and on some
    alive ones (at most :data:`POOL`: half the most stable, half the rarest while alive), such
    that no alive example makes all of them true."""
    candidates: list[tuple[int, Operation]] = [(int(i), kind) for kind in KINDS if kind != Operation.NOT_EQUAL
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
    return sorted((tuple(evidence.test(*pool[k]) for k in combo) for combo in found), key=_key)


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


def _rule(tests: tuple[Test, ...], data: list[TestedVariable]) -> DoneRule:
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


def suggest_done(emulator: Any, alive: Iterable[StateLike] = (), over: Iterable[StateLike] = (), *,
                 episodes: Any = None, margin: int = 0, data: Mapping[str, Any] | None = None,
                 max_terms: int = MAX_TERMS) -> DoneSuggestion:
    """A done rule that is true on every game over and false on every alive frame.

    Args:
        emulator: The :class:`~emucore.host.emulator.Emulator` the states belong to (left as it was).
        alive: Marked states (or snapshots) where the game is running.
        over: Marked states at the frame the episode should end (one or more game overs).
        episodes: The recorded play: episodes that each end at a game over, each a
            :class:`~emucore.movie.Movie`, a ``.bk2`` path or a list of states in time order
            (:func:`~emucore.assist.episode_examples`), or what that function gave (episodes
            taken with different margins, added together). Every frame before the game over is
            alive, the last one is over.
        margin: Frames just before each episode's game over that are neither alive nor over.
        data: The integration's data.json variables (``{"lives": {"address": .., "type": ..}}``
            or data.json's whole object); a rule on one of them uses its name.
        max_terms: At most this many tests joined by ``all`` (1 to 3).

    Returns:
        ``(variables, done)``: the data.json variables the rule needs that ``data`` does not
        have (e.g. ``{"gameover": {"address": 163, "type": "|u1"}}``), and the scenario.json
        ``done`` object (``{"variables": {"gameover": {"op": "nonzero"}}}``, or with
        ``"condition": "all"`` for two or three tests); with ``.rule`` and ``.warnings``
        (one game over seen, a rule that fires in the margin, a test of a many-valued value).

    Raises:
        ValueError: no example on either side, a state the core rejects, bad ``data``, or no
            rule of up to ``max_terms`` tests separates the examples.
    """
    rules = done_rules(emulator, alive, over, episodes=episodes, margin=margin, data=data, max_terms=max_terms,
                       limit=1)
    if not rules:
        raise ValueError(f"no rule of up to {max_terms} tests is true on every over state and false on every "
                         "alive state: are some over states also among the alive ones?")
    return DoneSuggestion(rules[0], rules.warnings)


__all__ = ["DoneRule", "DoneRules", "DoneSuggestion", "Test", "done_rules", "suggest_done"]
