"""The shown score against the reward: checkpoints typed from the screen.

A checkpoint ``(frame, shown)`` says that after movie frame ``frame`` the screen showed the score
``shown``. Between two checkpoints of one movie the rewards of the frames after the first up to
the second should add up to the shown difference itself: the reward multiplier is what turns the
stored score into the shown one (a game that stores the score / 10 and shows it x10 needs a
multiplier of 10), so it is already in the rewards and is not applied to the screen again. When
the reward is one variable's change, a mismatch says by what factor, and which multiplier would
match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from emucore.assist.findings import single_delta
from emucore.assist.replay import Trace
from emucore.assist.report import Finding, factor, multiplier, number
from emucore.errors import EmucoreError
from emucore.scenario.model import Scenario

#: Rewards within this fraction of the expected sum agree (a frame of lag on a long span).
TOLERANCE = 0.01

Checkpoints = Mapping[int, Sequence[tuple[int, int]]]


class CheckpointError(EmucoreError, ValueError):
    """Checkpoints that do not fit the movies (an index or a frame out of range, a value not an int)."""


def validate(checkpoints: Checkpoints | None, last_frames: Sequence[int]) -> dict[int, list[tuple[int, int]]]:
    """The checkpoints, each movie's sorted by frame, checked against the movies' lengths.

    Args:
        checkpoints: ``{movie index: [(frame, shown), ...]}``.
        last_frames: Each movie's last frame, in index order.

    Raises:
        CheckpointError: naming the index and the frame.
    """
    if not checkpoints:
        return {}
    if not isinstance(checkpoints, Mapping):
        raise CheckpointError("checkpoints must be a dict {movie index: [(frame, shown), ...]}")
    checked: dict[int, list[tuple[int, int]]] = {}
    for index, points in checkpoints.items():
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(last_frames):
            count = len(last_frames)
            have = "no movies" if not count else (
                f"{count} movie{'s' * (count != 1)} (0 to {count - 1}, movies first, then episodes)")
            raise CheckpointError(f"checkpoint index {index!r}: there {'is' if count == 1 else 'are'} {have}")
        rows: dict[int, int] = {}
        for point in points:
            frame, shown = _pair(index, point)
            if not 0 <= frame <= last_frames[index]:
                raise CheckpointError(f"checkpoint {index}:{frame}={shown}: movie {index} has frames 0 to "
                                      f"{last_frames[index]}")
            if rows.get(frame, shown) != shown:
                raise CheckpointError(f"checkpoint {index}:{frame}: two shown values, {rows[frame]} and {shown}")
            rows[frame] = shown
        checked[index] = sorted(rows.items())
    return checked


def _pair(index: int, point: Any) -> tuple[int, int]:
    try:
        frame, shown = point
    except (TypeError, ValueError):
        raise CheckpointError(f"checkpoint of movie {index}: {point!r} is not a (frame, shown) pair") from None
    for value in (frame, shown):
        if not isinstance(value, int) or isinstance(value, bool):
            raise CheckpointError(f"checkpoint of movie {index}: {point!r}: frame and shown must be ints")
    return frame, shown


def checkpoint_findings(traces: Sequence[Trace], scenario: Scenario,
                        checkpoints: Mapping[int, Sequence[tuple[int, int]]]) -> list[Finding]:
    """For each two consecutive checkpoints of a movie: the rewards between them against the screen."""
    found: list[Finding] = []
    by_index = {trace.index: trace for trace in traces}
    single = single_delta(scenario.rewards[0])
    for index, points in checkpoints.items():
        trace = by_index.get(index)
        if trace is None:
            continue
        total = [0.0]
        for reward in trace.rewards.tolist():
            total.append(total[-1] + reward)
        ratios = []
        for (start, before), (end, after) in zip(points, points[1:]):
            got = total[end] - total[start]
            if single is None:
                ratios.append(_ratio(found, trace, (start, before), (end, after), got))
            else:
                found.append(_compare(trace, single, (start, before), (end, after), got))
        known = [r for r in ratios if r is not None]
        if known and max(known) - min(known) > TOLERANCE * max(abs(r) for r in known):
            found.append(Finding("warning", "reward-ratio",
                                 f"{trace.name}: the reward per shown point differs between checkpoints (from "
                                 f"{factor(min(known))} to {factor(max(known))}): the reward does not follow the "
                                 "shown score", trace.index))
    return found


def _span(trace: Trace, start: int, end: int, got: float) -> str:
    return f"{trace.name}: reward between frames {number(start)} and {number(end)} is {number(got)}"


def _compare(trace: Trace, single: tuple[str, Any], first: tuple[int, int], second: tuple[int, int],
             got: float) -> Finding:
    (start, before), (end, after) = first, second
    name, term = single
    shown = after - before
    rate = float(term.reward if shown >= 0 else term.penalty)
    # The rewards already carry the multiplier (reward = stored change x rate); they should add up
    # to the shown change. Multiplying the shown change by the rate too counted it twice: a score
    # shown x10 with a x10 reward was called "10x too small".
    expected = float(shown)
    head = _span(trace, start, end, got)
    screen = f"the screen went from {number(before)} to {number(after)} ({name} x{multiplier(rate)})"
    if abs(got - expected) <= TOLERANCE * max(abs(expected), 1.0) and (got == 0) == (expected == 0):
        return Finding("info", "reward-scale", f"{head} and {screen}: they agree", trace.index, end, name)
    if shown == 0:
        return Finding("problem", "reward-scale",
                       f"{head} but the screen stayed at {number(before)}: the reward counts something the "
                       f"shown score does not ({name})", trace.index, end, name)
    if got == 0:
        why = "the reward multiplier is 0" if rate == 0 else "wrong address, or the score is kept elsewhere?"
        return Finding("problem", "reward-scale", f"{head} but {screen}: {why}", trace.index, end, name)
    ratio = expected / got
    if ratio < 0:
        advice = f"the reward has the opposite sign: a reward multiplier of {multiplier(rate * ratio)} would match"
    elif ratio > 1:
        advice = (f"the reward is {factor(ratio)}x too small — is the shown score {factor(ratio)}x the stored value? "
                  f"a reward multiplier of {factor(rate * ratio)} would match")
    else:
        advice = (f"the reward is {factor(1 / ratio)}x too large — is the stored value {factor(1 / ratio)}x the "
                  f"shown score? a reward multiplier of {factor(rate * ratio)} would match")
    return Finding("problem", "reward-scale", f"{head} but {screen}: {advice}", trace.index, end, name)


def _ratio(found: list[Finding], trace: Trace, first: tuple[int, int], second: tuple[int, int],
           got: float) -> float | None:
    (start, before), (end, after) = first, second
    shown = after - before
    head = _span(trace, start, end, got)
    if shown == 0:
        severity = "info" if got == 0 else "warning"
        found.append(Finding(severity, "reward-ratio", f"{head} while the screen stayed at {number(before)}",
                             trace.index, end))
        return None
    ratio = got / shown
    found.append(Finding("info", "reward-ratio",
                         f"{head} while the screen went from {number(before)} to {number(after)}: "
                         f"{factor(ratio)} per shown point (the reward is not one variable's change, so no "
                         "multiplier is checked)", trace.index, end))
    return ratio


__all__ = ["CheckpointError", "Checkpoints", "TOLERANCE", "checkpoint_findings", "validate"]
