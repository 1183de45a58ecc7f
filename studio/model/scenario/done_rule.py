"""A suggested done rule against the integration: its preview on the regression movies, and
writing it into data.json and scenario.json. No Qt.

:func:`preview_rule` replays each movie of ``regression.json`` as
:func:`studio.model.scenario.regression.replay` does (same frames, same evaluator) with the rule as the
only ``done``, and its new variables added to data.json's. :func:`accept_rule` saves through the
open :class:`~studio.model.variables.watch.Watch` and :class:`~studio.model.scenario.scenario_doc.ScenarioDocument`
when given (their views reload), else atomically through :mod:`emucore.integration`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.assist import DoneRule
from emucore.integration import (
    DATA_FILE,
    SCENARIO_FILE,
    Variable,
    read_data_file,
    read_scenario_json,
    write_data_file,
    write_scenario_json,
)
from emucore.integration.datafile import data_entry
from emucore.scenario.loader import GameDataSources
from studio.model.scenario.regression import RegressionSuite, replay_lines
from studio.model.variables.provenance import Provenance

if TYPE_CHECKING:
    from studio.model.scenario.scenario_doc import ScenarioDocument
    from studio.model.variables.watch import Watch

NOTHING_SAVED = "nothing was saved"


@dataclass(frozen=True)
class Preview:
    """One regression movie under a rule: the first line where it fires, and the expected done line."""

    movie: str
    fires_at: int | None
    expected: int | None
    error: str | None = None

    @property
    def same(self) -> bool:
        return self.error is None and self.fires_at == self.expected


@dataclass(frozen=True)
class Accepted:
    """What :func:`accept_rule` wrote."""

    variables: dict[str, dict[str, Any]]  # added to data.json
    done: dict[str, Any]  # scenario.json's done now
    previous: Any  # scenario.json's done before, or None

    def describe(self) -> str:
        added = ", ".join(f"{name} ({spec['address']:#x} {spec['type']})" for name, spec in self.variables.items())
        text = f"data.json: added {added}; " if added else "data.json: unchanged; "
        return text + f"scenario.json: done is now {json.dumps(self.done, sort_keys=True)}" + (
            " (replacing the previous done)" if self.previous else "")


def _with_rule(folder: Path, rule: DoneRule) -> dict[str, Variable]:
    variables = read_data_file(folder / DATA_FILE, missing_ok=True).variables
    for name, spec in rule.variables.items():
        variables[name] = Variable(spec["address"], spec["type"], spec.get("mask"))
    return variables


def first_fire(folder: Path, movie_path: Path, rule: DoneRule) -> int | None:
    """The first movie line at which ``rule`` is true (None if never), counted as the regression does."""
    sources = GameDataSources(variables=_with_rule(folder, rule), scenario={"done": rule.done})
    for line, data in replay_lines(folder, movie_path, sources):
        if data.is_done():
            return line
    return None


def preview_rule(folder: Path, rule: DoneRule) -> list[Preview]:
    """Every attached regression movie under ``rule`` (an unreadable regression.json raises
    IntegrationError, a ValueError; a movie that cannot be replayed is a row with its error)."""
    folder = Path(folder)
    rows = []
    for expectation in RegressionSuite(folder).expectations():
        try:
            rows.append(Preview(expectation.movie, first_fire(folder, folder / expectation.movie, rule),
                                expectation.done_frame))
        except Exception as exc:  # noqa: BLE001 - a broken movie is a row to show, not a crash
            rows.append(Preview(expectation.movie, None, expectation.done_frame, f"{type(exc).__name__}: {exc}"))
    return rows


def _check_against(rule: DoneRule, current: dict[str, Variable]) -> dict[str, dict[str, Any]]:
    """The rule's variables data.json lacks; ValueError if data.json changed under the rule."""
    new = {}
    for name, spec in rule.variables.items():
        if name not in current:
            new[name] = spec
        elif data_entry(current[name]) != spec:
            raise ValueError(f"data.json has another variable named {name!r} now: suggest again ({NOTHING_SAVED})")
    for name, test in zip(rule.done["variables"], rule.tests):
        if name in rule.variables:
            continue
        variable = current.get(name)
        if variable is None or (variable.address, variable.type) != (test.address, test.type):
            raise ValueError(f"data.json's variable {name!r} changed since the suggestion: suggest again "
                             f"({NOTHING_SAVED})")
    return new


def rule_terms(rule: DoneRule, data: dict[str, Any]) -> list[str]:
    """One line per test: ``gameover (new, 0x12 |u1) nonzero`` or ``lives (data.json) equal 0``."""
    lines = []
    names = list(rule.done["variables"])
    for name, test in zip(names, rule.tests):
        spec = rule.done["variables"][name]
        where = f"{test.address:#x} {test.type}" + (f" mask {test.mask:#x}" if test.mask is not None else "")
        origin = "new variable" if name in rule.variables else ("data.json" if name in data else "variable")
        reference = f" {spec['reference']}" if "reference" in spec else ""
        lines.append(f"{name} ({origin}, {where}) {spec['op']}{reference}")
    return lines



NEIGHBOURS = 8  # bytes apart that a one-test rule on another byte counts as the same finding


@dataclass(frozen=True)
class RuleGroup:
    """A rule and the same test on neighbouring bytes (a table of enemies cleared at the game
    over gives one rule per byte: one finding, shown on one line)."""

    rule: DoneRule
    neighbours: tuple[DoneRule, ...] = ()

    def suffix(self) -> str:
        """``"  (and 9 neighbours: 0x301-0x309)"`` or ``""``."""
        if not self.neighbours:
            return ""
        addresses = sorted(r.tests[0].address for r in self.neighbours)
        count = len(addresses)
        return (f"  (and {count} neighbour{'s' if count != 1 else ''}: "
                f"{addresses[0]:#x}{'-' + format(addresses[-1], '#x') if count > 1 else ''})")


def group_neighbours(rules: list[DoneRule]) -> list[RuleGroup]:
    """The rules in their order, a one-test rule on a new byte joined to the first such rule with
    the same test (op and reference) on a byte at most :data:`NEIGHBOURS` from one of its group."""
    groups: list[RuleGroup] = []
    for rule in rules:
        test = rule.tests[0]
        single = len(rule.tests) == 1 and test.name is None and test.type in ("|u1", "|i1")
        joined = False
        for k, group in enumerate(groups):
            first = group.rule.tests[0]
            members = [group.rule, *group.neighbours]
            if (single and len(group.rule.tests) == 1 and first.name is None and first.type == test.type
                    and (first.op, first.reference) == (test.op, test.reference)
                    and any(abs(m.tests[0].address - test.address) <= NEIGHBOURS for m in members)):
                groups[k] = RuleGroup(group.rule, (*group.neighbours, rule))
                joined = True
                break
        if not joined:
            groups.append(RuleGroup(rule))
    return groups


def accept_rule(folder: Path, rule: DoneRule, *, doc: ScenarioDocument | None = None,
                watch: Watch | None = None) -> Accepted:
    """Adds the rule's new variables to data.json, then sets scenario.json's ``done`` to the rule's.

    Raises:
        ValueError: data.json or scenario.json cannot be read (nothing is saved over them), or
            data.json changed since the rule was suggested.
    """
    folder = Path(folder)
    data_path, scenario_path = folder / DATA_FILE, folder / SCENARIO_FILE
    if doc is not None and doc.load_error:
        raise ValueError(f"{doc.load_error} (fix scenario.json first; {NOTHING_SAVED})")
    if watch is not None and watch.load_error is not None:
        raise ValueError(f"{watch.load_error} (fix data.json first; {NOTHING_SAVED})")
    scenario = read_scenario_json(scenario_path) if scenario_path.exists() else {}
    data = read_data_file(data_path, missing_ok=True)
    new = _check_against(rule, data.variables)
    if watch is not None:
        for name, spec in new.items():
            found = Provenance("done suggestion", [f"the rule {rule.describe()}"],
                               details={"type": spec["type"], "rule": rule.done})
            watch.add(name, spec["address"], spec["type"], spec.get("mask"), provenance=found)
    elif new:
        data.variables.update({name: Variable(s["address"], s["type"], s.get("mask")) for name, s in new.items()})
        write_data_file(data_path, data)
    previous = scenario.get("done")
    scenario["done"] = rule.done
    write_scenario_json(scenario_path, scenario)
    if doc is not None:
        doc.reload()
    return Accepted(new, rule.done, previous)


__all__ = ["Accepted", "Preview", "RuleGroup", "accept_rule", "first_fire", "group_neighbours", "preview_rule",
           "rule_terms"]
