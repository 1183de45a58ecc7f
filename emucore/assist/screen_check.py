"""The reward against the number on screen at every change of it: ``check_integration(screen=...)``.

With a :class:`~emucore.assist.ScreenNumber`, the check reads the number off every frame of each
replayed movie. At every change of the number read (from ``before`` to ``after``), the rewards
since the previous change should add up to ``after - before``: the reward multiplier is what
turns the stored score into the shown one, so it is already in the rewards (as for typed
checkpoints, :mod:`emucore.assist.checkpoints`).

A HUD draws the score a few frames after the game counts it (the frame after, or later: some
redraw the HUD only every few frames). So the rewards are summed over the spans between changes
moved back by a lag, the same for the whole movie: the lag of 0 to :data:`MAX_LAG` frames at
which the rewards come when the number changes (and then, the most changes agree), said in the
report ("the screen shows the score 2 frames after the reward"). Frames where the number is not
readable (a blinking score, a transition) are skipped: the change is counted where the number is
next read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emucore.assist.findings import single_delta
from emucore.assist.replay import Trace
from emucore.assist.report import Finding, factor, multiplier, number
from emucore.scenario.model import Scenario

#: The most frames a HUD is taken to lag the score it draws.
MAX_LAG = 30
#: Disagreements listed one by one per movie (the rest are counted).
LISTED = 5
#: Below this share of changes agreeing, the disagreements are problems (else warnings: a lag
#: that varies by a frame can split one award over two changes).
AGREE = 0.9


def changes(shown: Sequence[int | None]) -> list[tuple[int, int, int, int]]:
    """``(since, value before, frame, value after)`` at each change of the number read: ``frame``
    is where the new value is first read, ``since`` where the value before it was (the previous
    change, or the first readable frame), so the spans tile the movie and every reward is in one."""
    out = []
    last: tuple[int, int] | None = None
    for frame, value in enumerate(shown):
        if value is None or (last is not None and value == last[1]):
            continue
        if last is not None:
            out.append((last[0], last[1], frame, value))
        last = (frame, value)
    return out


def _sums(rewards: np.ndarray, spans: list[tuple[int, int, int, int]], lag: int) -> np.ndarray:
    """The rewards of the frames ``(before - lag, after - lag]`` of each change."""
    total = np.concatenate([[0.0], np.cumsum(rewards)])
    last = len(rewards)
    starts = np.clip([b - lag for b, _, _, _ in spans], 0, last)
    ends = np.clip([a - lag for _, _, a, _ in spans], 0, last)
    return total[ends] - total[starts]


def _agree(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return np.abs(got - expected) <= 1e-6 * np.maximum(np.abs(expected), 1.0)


def _fit(got: np.ndarray, expected: np.ndarray) -> tuple[int, int]:
    """How well rewards fit the changes at one lag: first the spans where a reward came exactly when
    the number changed (whatever its size: a wrong multiplier still finds its lag), then the exact ones."""
    timed = int(((got != 0) == (expected != 0)).sum())
    return timed, int(_agree(got, expected).sum())


def screen_findings(traces: Sequence[Trace], scenario: Scenario) -> list[Finding]:
    """For each movie read with a screen reader: how many changes of the number the reward agrees
    with, at the best lag, and where it does not."""
    found: list[Finding] = []
    single = single_delta(scenario.rewards[0])
    for trace in traces:
        if not trace.shown:
            continue
        spans = changes(trace.shown)
        readable = sum(value is not None for value in trace.shown)
        if not spans:
            said = "never changed" if readable else "was never readable"
            found.append(Finding("warning", "screen", f"{trace.name}: the number on screen {said} "
                                 f"({readable:,} of {len(trace.shown):,} frames readable): nothing to compare "
                                 "the reward with", trace.index))
            continue
        expected = np.array([after - before for _, before, _, after in spans], dtype=np.float64)
        best = max(range(MAX_LAG + 1), key=lambda lag: _fit(_sums(trace.rewards, spans, lag), expected) + (-lag,))
        got = _sums(trace.rewards, spans, best)
        agree = _agree(got, expected)
        share = float(agree.mean())
        lag = f"the screen shows the score {best} frame{'s' * (best != 1)} after the reward" if best else (
            "the screen shows the score in the frame of the reward")
        summary = (f"{trace.name}: the reward agrees with the number on screen at {int(agree.sum())} of "
                   f"{len(spans)} changes ({share:.0%}); {lag}; {readable:,} of {len(trace.shown):,} frames readable")
        found.append(Finding("info" if share == 1 else "warning", "screen", summary, trace.index))
        severity = "problem" if share < AGREE else "warning"
        wrong = np.flatnonzero(~agree)
        for k in wrong[:LISTED].tolist():
            _, before, at, after = spans[k]
            found.append(Finding(severity, "screen-reward",
                                 f"{trace.name}: reward {number(got[k])} where the screen went {number(before)} to "
                                 f"{number(after)} at frame {number(at)}", trace.index, at,
                                 single[0] if single else None))
        if len(wrong) > LISTED:
            found.append(Finding(severity, "screen-reward", f"{trace.name}: {len(wrong) - LISTED} more changes "
                                 "where the reward disagrees with the screen", trace.index))
        advice = _scale_advice(got[wrong], expected[wrong], single)
        if advice:
            found.append(Finding(severity, "screen-reward", f"{trace.name}: {advice}", trace.index))
    return found


def _scale_advice(got: np.ndarray, expected: np.ndarray, single: tuple[str, object] | None) -> str:
    """When every disagreement is the same factor off, the multiplier that would match."""
    if single is None or not len(got) or (got == 0).any():
        return ""
    ratios = expected / got
    if not np.allclose(ratios, ratios[0]):
        return ""
    rate = float(getattr(single[1], "reward", 1.0))
    return (f"at every disagreement the screen changed {factor(float(ratios[0]))}x the reward: a reward multiplier "
            f"of {multiplier(rate * float(ratios[0]))} for {single[0]} would match")


__all__ = ["MAX_LAG", "changes", "screen_findings"]
