"""The sanity preset: an agent that plays without pausing or resetting the game; a run in one line. No Qt.

:class:`SanityAgent` presses random buttons, but never START or SELECT (they pause, reset or
open a menu in many games), in combinations the game's action set takes (every direction, Down
too), each choice held for a random 8 to 30 steps as a player holds a button: long enough to
walk somewhere, climb, duck or charge, so that a game's things happen (a score, a death) where
a choice a frame only jitters in place. Played once until the first done or the step budget
(which the run extends once when no episode ended: ``run_episodes(extend=...)``), it answers the
first questions about a scenario: does anything happen, does done fire, when, is anything
rewarded. :func:`run_summary` says so in one line, in words when nothing happened.

Being defined in the studio, the agent needs ``studio`` importable where it is unpickled (a Ray
cluster's nodes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from emucore.enums import Actions
from emucore.rollout import EpisodeResult
from emucore.rollout.agents import Agent

SKIPPED = ("START", "SELECT", "RUN", "PAUSE", "RESET")  # START and SELECT, and their kin on other pads
AXES = (("UP", "DOWN"), ("LEFT", "RIGHT"))
STILL = 0.1  # a screen (or RAM) with at most this share of distinct pictures per step barely changed
HOLD = (8, 30)  # each choice is held this many steps (both included), drawn anew for each choice


class SanityAgent(Agent):
    """Random buttons but START and SELECT, each choice held ``hold`` steps: a number, or a
    ``(low, high)`` range a length is drawn from for each choice.

    START and SELECT (and RUN, PAUSE, RESET: the PC Engine's, the Master System's and the Atari
    2600's) pause, reset or open menus in many games, and some systems' action sets let them
    through. With FILTERED actions (the default) each action group of the game (a direction pad
    axis, the face buttons) gets one of its combinations at random, those with a skipped button
    left out: what FILTERED would drop is never sent. Otherwise each direction pad axis is
    pressed one way or not at all and each other button with probability 1/2.
    """

    name = "sanity"
    extends_budget = True  # a run of it plays once more with twice the steps when no episode ended

    def __init__(self, seed: int | None = 0, hold: int | tuple[int, int] = HOLD):
        super().__init__(seed)
        low, high = (hold, hold) if isinstance(hold, int) else hold
        if not 1 <= low <= high:
            raise ValueError(f"hold is a number of steps >= 1 or a (low, high) range of them, not {hold!r}")
        self.hold = (int(low), int(high))

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        self.choices = self.choices_for(env)
        self._left = 0  # steps the held choice still lasts
        self._held = np.zeros(env.num_buttons, dtype=np.int8)

    @staticmethod
    def choices_for(env: Any) -> list[list[int]]:
        """Per group, the button masks it is drawn from."""
        names = [b or "" for b in env.buttons]
        skipped = sum(1 << i for i, b in enumerate(names) if b in SKIPPED)
        groups = getattr(getattr(getattr(env, "data", None), "actions", None), "groups", None)
        if env.use_restricted_actions is Actions.FILTERED and groups:
            return [kept for kept in ([c for c in combos if not c & skipped] for combos in groups) if kept]
        axes = [(names.index(a), names.index(b)) for a, b in AXES if a in names and b in names]
        on_axes = {i for pair in axes for i in pair}
        return [[0, 1 << a, 1 << b] for a, b in axes] + [
            [0, 1 << i] for i, b in enumerate(names) if b and b not in SKIPPED and i not in on_axes]

    def act(self, obs: np.ndarray) -> np.ndarray:
        if self._left <= 0:
            mask = 0
            for masks in self.choices:
                mask |= masks[int(self.rng.integers(len(masks)))]
            self._held = np.array([(mask >> i) & 1 for i in range(self.env.num_buttons)], dtype=np.int8)
            self._left = int(self.rng.integers(self.hold[0], self.hold[1] + 1))
        self._left -= 1
        return self._held


def _n(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.4g}"


def _span(values: Sequence[float]) -> str:
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
