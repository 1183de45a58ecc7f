"""Why a scenario is done: the tests the evaluator's verdict rests on.

:func:`explain` reads the done tree the way :class:`emucore.scenario.evaluator.Evaluator` evaluates it
(tests before sub-nodes, in file order, stopping where the evaluator stops) and names the tests
that make ``done`` true:

* a true ``any`` node is true by its first true test or sub-node, the one the evaluator stopped
  at; the tests after it are not measured, since the evaluator does not measure them either;
* a true ``all`` node is true by all its tests and sub-nodes: its reasons are all of theirs;
  an ``all`` node with no tests and no sub-nodes is always true, and is its own reason;
* a false node gives no reason, even when some of its tests are true;
* a Lua done script is one reason, ``done.script``.

So the explanation is empty exactly when the verdict is false, and it never raises an error
(an unknown or unmapped variable) that the evaluation did not raise. Each reason has its key in
scenario.json (``done.variables.lives``, ``done.nodes.lost.variables.x``, ``done.script``, or a
node's key for an empty ``all``) and a text such as ``lives == 0 (is 0)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from emucore.integration import scenario_walk
from emucore.integration.jsontext import KeyPath
from emucore.operations import Operation
from emucore.scenario.model import DoneNode, Scenario, Term

Measure = Callable[[str, str], int]
"""``measure(name, measurement)``: a variable's value or delta, as the evaluator measures it."""


@dataclass(frozen=True)
class DoneReason:
    """One test that made done true (or the script, or an ``all`` node with nothing to test)."""

    key: str
    text: str
    name: str | None = None  # the variable tested
    term: Term | None = None
    measured: int | None = None  # its value, or its delta, when it was tested


def describe_test(name: str, term: Term) -> str:
    """A done test as text: ``lives == 0``, ``Δscore > 0`` (true when ``term.apply(measured) > 0``)."""
    subject = f"Δ{name}" if term.measurement == "delta" else name
    if not term.op:
        return f"{subject} > 0"
    return f"{subject} {Operation(term.op).symbol.format(r=term.reference)}"


def reasons_text(reasons: Sequence[DoneReason]) -> str:
    """The reasons on one line: ``lives == 0 (is 0); lost: x > 160 (is 165)``."""
    return "; ".join(reason.text for reason in reasons)


def explain(scenario: Scenario, measure: Measure) -> list[DoneReason]:
    """The reasons ``scenario`` is done now, measured by ``measure``; empty if it is not done.

    For a done script this does not run the script: call it only when the script said done.
    """
    if scenario.done_script:
        key = scenario_walk.key((scenario_walk.DONE, scenario_walk.SCRIPT))
        return [DoneReason(key, f"script {scenario.done_script} returned true")]
    if scenario.done is None:
        return []
    return _node_reasons(scenario.done, (), measure) or []


def _test_reason(name: str, term: Term, at: KeyPath, prefix: str, measure: Measure) -> DoneReason | None:
    measured = measure(name, term.measurement)
    if term.apply(measured) <= 0:
        return None
    text = f"{prefix}{describe_test(name, term)} (is {measured})"
    return DoneReason(scenario_walk.key(scenario_walk.term_path(at, name)), text, name, term, measured)


def _node_reasons(node: DoneNode, path: tuple[str, ...], measure: Measure) -> list[DoneReason] | None:
    """The reasons ``node`` is true, or None when it is false (``Evaluator._node``'s logic)."""
    at = scenario_walk.node_path(path)
    prefix = f"{'.'.join(path)}: " if path else ""
    if node.condition == "all":
        reasons: list[DoneReason] = []
        for name, term in node.variables.items():
            reason = _test_reason(name, term, at, prefix, measure)
            if reason is None:
                return None
            reasons.append(reason)
        for child_name, child in node.nodes.items():
            found = _node_reasons(child, (*path, child_name), measure)
            if found is None:
                return None
            reasons.extend(found)
        return reasons or [DoneReason(scenario_walk.key(at), f"{prefix}all with no tests is always true")]
    for name, term in node.variables.items():
        reason = _test_reason(name, term, at, prefix, measure)
        if reason is not None:
            return [reason]
    for child_name, child in node.nodes.items():
        found = _node_reasons(child, (*path, child_name), measure)
        if found is not None:
            return found
    return None
