"""The sanity preset: an agent that plays without pausing or resetting the game; a run in one line. No Qt.

:class:`SanityAgent` presses random buttons, but never START or SELECT (they pause, reset or
open a menu in many games), each choice held for ``hold`` steps as a player holds a button. Played
once until the first done or the step budget, it answers the first questions about a scenario:
does anything happen, does done fire, when, is anything rewarded. :func:`run_summary` says so in
one line, in words when nothing happened.

Being defined in the studio, the agent needs ``studio`` importable where it is unpickled (a Ray
cluster's nodes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.agents import Agent
from emucore.rollout import EpisodeResult

SKIPPED = ("START", "SELECT")
STILL = 0.1  # a screen (or RAM) with at most this share of distinct pictures per step barely changed


class SanityAgent(Agent):
    """Random buttons but START and SELECT, each choice held ``hold`` steps."""

    name = "sanity"

    def __init__(self, seed: int | None = 0, hold: int = 4):
        super().__init__(seed)
        self.hold = max(1, hold)

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        names = [b or "" for b in env.buttons]
        self.allowed = np.array([i for i, b in enumerate(names) if b and b not in SKIPPED], dtype=np.intp)
        self._t = 0
        self._held = np.zeros(env.num_buttons, dtype=np.int8)

    def act(self, obs: np.ndarray) -> np.ndarray:
        if self._t % self.hold == 0:
            self._held = np.zeros(self.env.num_buttons, dtype=np.int8)
            self._held[self.allowed] = self.rng.integers(0, 2, len(self.allowed), dtype=np.int8)
        self._t += 1
        return self._held


def _n(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.4g}"


def _span(values: list[float]) -> str:
    low, high = min(values), max(values)
    return _n(low) if low == high else f"{_n(low)} to {_n(high)}"


def run_summary(episodes: list[EpisodeResult], max_steps: int, *, fps: float = 60.0, frames_per_step: int = 1) -> str:
    """What a run did, in one line: when and why done fired (or that it never did), the returns,
    and "Nothing happened" when no step was rewarded while the screen or the RAM barely changed
    (at most :data:`STILL` as many distinct pictures as steps)."""
    played = [e for e in episodes if e.length]
    if not played:
        return "No episode was played."
    steps = sum(e.length for e in played)
    count = f"{len(played)} episode{'s' if len(played) > 1 else ''}"
    said: list[str] = []
    done = [e for e in played if e.terminated]
    if done:
        lengths = [e.length for e in done]
        reasons = sorted({e.done_reason for e in done})
        seconds = min(lengths) * frames_per_step / fps
        part = "" if len(done) == len(played) else f" in {len(done)} of {len(played)} episodes"
        said.append(f"done fired after {_span(lengths)} steps ({seconds:.1f} s at the earliest){part}, by "
                    + "; ".join(reasons[:2]) + (" ..." if len(reasons) > 2 else ""))
    else:
        said.append(f"done never fired within {max_steps} steps")
    screens = np.concatenate([e.screen_hashes for e in played])
    rams = np.concatenate([e.ram_hashes for e in played])
    if not any(np.any(e.rewards) for e in played):
        if len(screens) == steps and len(rams) == steps:
            distinct_screens, distinct_rams = len(np.unique(screens)), len(np.unique(rams))
            limit = max(2, int(STILL * steps))
            moved = (f"the screen showed {distinct_screens} different pictures in {steps} steps (the RAM "
                     f"{distinct_rams} different contents)")
            if distinct_screens <= limit or distinct_rams <= limit:
                return f"Nothing happened in {count}: no reward, and {moved}; " + said[0] + "."
            said.append(f"no reward in {steps} steps though the game moved ({moved})")
        else:
            said.append(f"no reward in {steps} steps")
    else:
        said.append(f"return {_span([e.total for e in played])}")
    return f"{count}: " + "; ".join(said) + "."
