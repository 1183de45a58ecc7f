"""The findings of replayed play: rewards, done, and the data.json variables.

Each function reads :class:`~emucore.assist.replay.Trace` objects and the integration's parsed
scenario and variables, and returns :class:`~emucore.assist.report.Finding` objects whose messages
name the movie, the frame and the variable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from emucore.assist.replay import Trace
from emucore.assist.report import Finding, number, times
from emucore.host.memory import AddressSpace
from emucore.scenario.explain import describe_test
from emucore.scenario.model import RewardSpec, Scenario

#: A step worth more than this many times the median non-zero |reward| of its movie is a spike.
SPIKE_FACTOR = 100.0
#: At most this many findings of one kind per movie are listed one by one.
LISTED = 3
#: Done firing at most this many frames before an episode's marked game over is the person's
#: reaction time (a second at 60 frames a second: Suggest's margin before a mark), not a problem.
REACTION_FRAMES = 60
LIVES_LIKE = re.compile(r"li(fe|ves?)|heart|health|hp\b", re.IGNORECASE)


def single_delta(spec: RewardSpec) -> tuple[str, Any] | None:
    """(variable, term) when the reward is one variable's change times a multiplier, else None."""
    if spec.script or spec.time is not None or len(spec.variables) != 1:
        return None
    name, term = next(iter(spec.variables.items()))
    if term.measurement != "delta" or term.op:
        return None
    return name, term


def reward_variables(scenario: Scenario) -> list[str]:
    """The variables player 1's reward measures."""
    return list(scenario.rewards[0].variables)


# ---------------------------------------------------------------------------------------------
# Rewards


def reward_findings(traces: Sequence[Trace], scenario: Scenario) -> list[Finding]:
    """Rewards always 0, absurd steps, and rewards at the first step or right after a reset of the game."""
    spec = scenario.rewards[0]
    if spec.empty:
        if not traces:
            return []
        return [Finding("problem", "no-reward", "the scenario defines no reward for player 1: every step is worth 0")]
    any_reward = any(np.any(t.rewards != 0) for t in traces)
    found: list[Finding] = []
    for trace in traces:
        found += _always_zero(trace, spec, any_reward)
        found += _odd_steps(trace, spec)
    return found


def _always_zero(trace: Trace, spec: RewardSpec, any_reward: bool) -> list[Finding]:
    if not trace.steps or np.any(trace.rewards != 0):
        return []
    own = {name: trace.changes(name) for name in spec.variables if name in trace.values}
    moved = {name: n for name, n in own.items() if n}
    where = f"{trace.name}: reward is 0 on every step ({number(trace.steps)} steps)"
    if moved:
        name, count = max(moved.items(), key=lambda item: item[1])
        term = spec.variables[name]
        why = ""
        if not term.reward and not term.penalty:
            why = f": its reward and penalty for {name} are 0"
        elif term.op:
            why = f": its op {term.op!r} on {name} is never above 0"
        return [Finding("problem", "reward-always-zero",
                        f"{where} although {name} changed {times(count)}{why}", trace.index, None, name)]
    others = {name: trace.changes(name) for name in trace.values if name not in spec.variables}
    others = {name: n for name, n in others.items() if n}
    if not others:
        return [Finding("warning", "reward-always-zero",
                        f"{where} and no data.json variable changed: was anything played?", trace.index)]
    ranked = _score_like_first(trace, others, list(spec.variables))
    listed = ", ".join(f"{name} changed {times(n)}" for name, n in ranked[:3])
    still = ", ".join(spec.variables) or "its script"
    severity = "warning" if any_reward else "problem"
    variable = next(iter(spec.variables), None)
    return [Finding(severity, "reward-always-zero",
                    f"{where} although {listed}; the reward's {still} never changed: wrong address, or not reached?",
                    trace.index, None, variable)]


def _score_like_first(trace: Trace, changed: Mapping[str, int], like: Sequence[str]) -> list[tuple[str, int]]:
    """Changed variables, most like the reward's first: a name that holds one of ``like`` (``score_bcd``
    for ``score``), then values that only ever went up without changing on every frame (a score)."""
    def key(item: tuple[str, int]) -> tuple[bool, bool, int]:
        name, count = item
        values = trace.values[name]
        related = any(a and (a in name or name in a) for a in like)
        rising = all(b >= a for a, b in zip(values, values[1:]))
        return not related, not rising, count if count < trace.steps else trace.steps * 2

    return sorted(changed.items(), key=key)


def _moved(trace: Trace, names: Sequence[str], frame: int) -> str:
    """``score went from 990 to 16,778,216`` for the reward variables that changed at ``frame``."""
    parts = []
    for name in names:
        values = trace.values.get(name)
        if values and values[frame] != values[frame - 1]:
            parts.append(f"{name} went from {number(values[frame - 1])} to {number(values[frame])}")
    return "; ".join(parts)


def _moved_name(trace: Trace, names: Sequence[str], frame: int) -> str | None:
    for name in names:
        values = trace.values.get(name)
        if values and values[frame] != values[frame - 1]:
            return name
    return next(iter(names), None)


def _reset_frames(trace: Trace, names: Sequence[str]) -> list[tuple[int, bool]]:
    """Frames where a reward variable went from non-zero back to 0 with a non-zero reward, each with
    whether done fired before it (then training never sees it: it had reset the env already)."""
    resets = []
    done_before = False
    for frame in range(1, trace.steps + 1):
        back = any(
            (values := trace.values.get(name)) and values[frame - 1] != 0 and values[frame] == 0 for name in names
        )
        if back and trace.rewards[frame - 1] != 0:
            resets.append((frame, done_before))
            done_before = False
        if trace.done[frame - 1]:
            done_before = True
    return resets


def _odd_steps(trace: Trace, spec: RewardSpec) -> list[Finding]:
    names = [name for name in spec.variables if name in trace.values]
    rewards = trace.rewards
    found: list[Finding] = []
    resets = _reset_frames(trace, names)
    special = {1} | {frame for frame, _ in resets}
    for frame, excused in resets:
        if excused:
            continue
        reward = rewards[frame - 1]
        found.append(Finding(
            "problem", "reward-at-reset",
            f"{trace.name}: reward {number(reward)} at frame {number(frame)}, right after a reset of the game "
            f"({_moved(trace, names, frame)}): training reads the reset as a {'penalty' if reward < 0 else 'reward'} "
            "(done did not fire before it)",
            trace.index, frame, _moved_name(trace, names, frame)))
    nonzero = np.abs(rewards[rewards != 0])
    if not len(nonzero):
        return found
    first = abs(rewards[0])
    others = np.abs(np.delete(rewards, 0))
    others = others[others != 0]
    if first and len(others) and first > SPIKE_FACTOR * float(np.median(others)):
        found.append(Finding(
            "problem", "reward-at-start",
            f"{trace.name}: reward {number(rewards[0])} at the first step (frame 1), more than "
            f"{SPIKE_FACTOR:g}x the median non-zero reward ({number(float(np.median(others)))}): the start "
            f"state's memory read as a change? ({_moved(trace, names, 1) or 'no reward variable changed'})",
            trace.index, 1, _moved_name(trace, names, 1)))
    elif first and not len(others):
        found.append(Finding(
            "warning", "reward-at-start",
            f"{trace.name}: the only non-zero reward is at the first step (frame 1): {number(rewards[0])} "
            f"({_moved(trace, names, 1) or 'no reward variable changed'}); the start state's memory read as a change?",
            trace.index, 1, _moved_name(trace, names, 1)))
    median = float(np.median(nonzero))
    spikes = [f for f in (np.flatnonzero(np.abs(rewards) > SPIKE_FACTOR * median) + 1).tolist() if f not in special]
    for frame in spikes[:LISTED]:
        found.append(Finding(
            "problem", "reward-spike",
            f"{trace.name}: reward {number(rewards[frame - 1])} at frame {number(frame)} is more than "
            f"{SPIKE_FACTOR:g}x the median non-zero reward ({number(median)})"
            + (f": {_moved(trace, names, frame)}" if _moved(trace, names, frame) else "")
            + " — does the variable's type span more than the score (a wider type, another byte order)?",
            trace.index, frame, _moved_name(trace, names, frame)))
    if len(spikes) > LISTED:
        found.append(Finding("problem", "reward-spike",
                             f"{trace.name}: {len(spikes) - LISTED} more steps are more than {SPIKE_FACTOR:g}x "
                             f"the median non-zero reward, the last at frame {number(spikes[-1])}",
                             trace.index, spikes[-1]))
    return found


# ---------------------------------------------------------------------------------------------
# Done


def rule_text(scenario: Scenario) -> str:
    """The done rule on one line: ``lives == 0 or game_over == 1``; ``no done condition`` without one."""
    if scenario.done_script:
        return f"the script {scenario.done_script}"
    if scenario.done is None:
        return "no done condition"
    tests = [describe_test(name, term) for _, name, term in scenario.done.tests()]
    if not tests:
        return "an empty done condition"
    joint = " and " if scenario.done.condition == "all" and not scenario.done.nodes else " or "
    return joint.join(tests) if not scenario.done.nodes else "; ".join(tests)


def _tested(scenario: Scenario) -> list[str]:
    if scenario.done is None:
        return []
    return list(dict.fromkeys(name for _, name, _ in scenario.done.tests()))


def done_findings(traces: Sequence[Trace], scenario: Scenario, late_frames: int) -> list[Finding]:
    """Episodes: done early, late, never, or at the game over; movies: where done ends the episode."""
    found: list[Finding] = []
    rule = rule_text(scenario)
    tested = _tested(scenario)
    for trace in traces:
        first = trace.first_done
        variable = trace.done_variables[0] if trace.done_variables else next(iter(tested), None)
        if not trace.episode:
            if first is not None:
                found.append(Finding("info", "done-in-movie",
                                     f"{trace.name}: done fires at frame {number(first)} ({trace.done_reason}): "
                                     "training's episode ends there", trace.index, first, variable))
            continue
        over = trace.last_frame
        if first == over:
            found.append(Finding("info", "done-at-game-over",
                                 f"{trace.name}: done fires at the game over (frame {number(over)}): "
                                 f"{trace.done_reason}",
                                 trace.index, over, variable))
        elif first is not None and _reaction_time(trace, first, over):
            found.append(Finding(
                "info", "done-before-mark",
                f"{trace.name}: done fires at frame {number(first)} ({trace.done_reason}), {number(over - first)} "
                f"frames before your mark at frame {number(over)}: your reaction time? (it holds until the mark "
                "and no life was lost in between)", trace.index, first, variable))
        elif first is not None:
            found.append(Finding(
                "problem", "done-early",
                f"{trace.name}: done fires at frame {number(first)} ({trace.done_reason}), {number(over - first)} "
                f"frames before the game over at frame {number(over)}: at an earlier death? Training's episodes "
                "would end there", trace.index, first, variable))
        elif trace.late_done is not None:
            late = trace.late_done
            found.append(Finding(
                "problem", "done-late",
                f"{trace.name}: done fires only at frame {number(late)} ({trace.late_reason}), {number(late - over)} "
                f"frames after the game over at frame {number(over)}: training plays on in a finished game",
                trace.index, late, variable))
        else:
            seen = "; ".join(f"{name} is {number(trace.values[name][over])}" for name in tested if name in trace.values)
            found.append(Finding(
                "problem", "done-never",
                f"{trace.name}: done never fires, not at the game over (frame {number(over)}) nor in the "
                f"{number(late_frames)} frames after it with no button held; the rule is {rule}"
                + (f", and at the game over {seen}" if seen else ""),
                trace.index, over, variable))
    return found


def _reaction_time(trace: Trace, first: int, over: int) -> bool:
    """Whether done firing ``over - first`` frames before an episode's mark is the person's
    reaction time: at most :data:`REACTION_FRAMES` (Suggest leaves as many frames before a
    mark out of its evidence), done holds on every frame from there to the mark, and no
    variable named like lives went down in between (an earlier death)."""
    if over - first > REACTION_FRAMES or not bool(np.all(trace.done[first - 1 : over])):
        return False
    for name, values in trace.values.items():
        if LIVES_LIKE.search(name) and any(b < a for a, b in zip(values[first:over], values[first + 1 : over + 1])):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Variables


def _mapped_text(memory: AddressSpace) -> str:
    spans: list[list[int]] = []
    for block in memory.blocks:
        if spans and spans[-1][1] == block.start:
            spans[-1][1] = block.end
        else:
            spans.append([block.start, block.end])
    return ", ".join(f"{start:#x}-{end - 1:#x}" for start, end in spans) or "nothing"


def mapping_findings(variables: Mapping[str, Any], memory: AddressSpace) -> list[Finding]:
    """data.json variables whose address the game's memory does not hold (or holds only in part)."""
    from emucore.datatypes import parse_type

    found: list[Finding] = []
    for name, variable in variables.items():
        where = f"data.json's {name} ({variable.type} at {variable.address:#x})"
        if not memory.is_mapped(variable.address):
            found.append(Finding("problem", "unmapped",
                                 f"{where} is not in the game's memory (mapped: {_mapped_text(memory)}): it is never "
                                 "read, and a scenario that uses it does not load", None, None, name))
            continue
        width = parse_type(variable.type).width
        if any(place is None for place in memory.places(variable.address, width)):
            found.append(Finding("warning", "unmapped",
                                 f"{where} runs past the end of the game's memory: its last bytes always read 0",
                                 None, None, name))
    return found


def never_changed(traces: Sequence[Trace], variables: Mapping[str, Any]) -> list[Finding]:
    """data.json variables whose value was the same at every replayed frame."""
    frames = sum(t.steps + 1 for t in traces)
    if not traces:
        return []
    found = []
    for name, variable in variables.items():
        seen = {v for t in traces for v in t.values.get(name, ())}
        if len(seen) == 1:
            found.append(Finding(
                "warning", "never-changed",
                f"{name} ({variable.type} at {variable.address:#x}) never changed in {number(frames)} frames of play "
                f"(always {number(next(iter(seen)))}): wrong address, or not reached?", None, None, name))
    return found


__all__ = ["done_findings", "mapping_findings", "never_changed", "reward_findings", "reward_variables", "rule_text",
           "single_delta"]
