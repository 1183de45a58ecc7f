"""The likely scenario bugs a run of episodes shows: heuristics on returns, lengths, per-step rewards. No Qt.

Each :class:`Flag` says what was seen, with numbers, and what to check in the integration.
Lengths are in steps; a step is ``frames_per_step`` frames and a second ``fps`` frames.

* ``all at max steps`` - every episode was cut by the step budget (or the env's truncation):
  done never fired;
* ``never done`` - no episode was done, some hit ``max_steps`` and the others were stopped or ran
  out of actions (a movie);
* ``done on first step`` - an episode was done after its first step (an ``all`` with no tests,
  a test that is true at the start state, ...);
* ``early end`` - an episode (longer than one step) was done less than :data:`EARLY_SECONDS`
  seconds of game time after the start state, or every episode was done at about the same step:
  at least two episodes that played different keys, all done, the longest at most
  :data:`SAME_SPREAD` of the mean longer than the shortest, the mean at most
  :data:`EARLY_FRACTION` of ``max_steps``. That is done firing at the first death, or at a fixed
  moment (a timer, a frame counter);
* ``reward always zero`` - not one step of any episode was rewarded;
* ``reward spike`` - a step rewarded more than :data:`SPIKE_RATIO` times the median size of the
  nonzero step rewards (over every episode; at least :data:`SPIKE_MIN_REWARDED` of them). Only a
  positive step counts: a large penalty (a death) is a common design;
* ``implausible return`` - an episode returned more than the score checkpoints typed in Find from
  screen and the reward terms make plausible (:mod:`studio.model.search.plausibility`; not checked
  without checkpoints, when only a spike can show a runaway reward);
* ``reward farming`` - within some window of :data:`FARM_WINDOW` steps (or the whole episode
  when shorter, at least :data:`FARM_MIN_WINDOW`), at least :data:`FARM_REWARDED` of the steps
  were rewarded and the cumulative reward grew linearly (R^2 >= :data:`FARM_LINEAR`), while the
  game stalled: the window shows at most :data:`FARM_DISTINCT` distinct screens, or distinct
  RAM contents (both hashed per step). Reward that keeps coming while nothing on screen moves
  is what a reward on a timer or a frame counter looks like.

:func:`checks_passed` lists, in words, the checks that found nothing, :func:`checks_skipped` those
that could not be made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from emucore.rollout import EpisodeResult
from emucore.rollout.episode import MAX_STEPS, STOPPED, TRUNCATED
from studio.model.search.plausibility import PLAUSIBLE_FACTOR, Plausibility

DEFAULT_FPS = 60.0
EARLY_SECONDS = 3.0
SAME_SPREAD = 0.1
EARLY_FRACTION = 0.25
SPIKE_RATIO = 100.0
SPIKE_MIN_REWARDED = 3
FARM_WINDOW = 300
FARM_MIN_WINDOW = 30
FARM_REWARDED = 0.8
FARM_DISTINCT = 0.1
FARM_LINEAR = 0.95


@dataclass
class Flag:
    name: str  # "all at max steps", "early end", "reward spike", "implausible return", ...
    detail: str  # what was seen, with numbers, and what to check


def _n(value: float) -> str:
    """A number for a sentence: 577,500 or 0.25."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.4g}"


def _episodes(indexes: list[int]) -> str:
    shown = ", ".join(str(i + 1) for i in indexes[:8]) + (", ..." if len(indexes) > 8 else "")
    return f"episode{'s' if len(indexes) > 1 else ''} {shown}"


# ---- farming ----


def _linear_r2(values: np.ndarray) -> float:
    x = np.arange(len(values), dtype=np.float64)
    if np.ptp(values) == 0:
        return 0.0
    r = np.corrcoef(x, values)[0, 1]
    return float(r * r)


def farming_window(episode: EpisodeResult) -> tuple[int, int] | None:
    """The first ``(start, stop)`` window in which ``episode`` farms reward (see the module doc)."""
    n = episode.length
    window = min(FARM_WINDOW, n)
    if window < FARM_MIN_WINDOW:
        return None
    rewarded = episode.rewards > 0
    stride = max(1, window // 4)
    for start in range(0, n - window + 1, stride):
        stop = start + window
        if rewarded[start:stop].mean() < FARM_REWARDED:
            continue
        limit = max(2, int(FARM_DISTINCT * window))
        stalled = (
            len(np.unique(episode.screen_hashes[start:stop])) <= limit
            or len(np.unique(episode.ram_hashes[start:stop])) <= limit
        )
        if stalled and _linear_r2(np.cumsum(episode.rewards[start:stop])) >= FARM_LINEAR:
            return start, stop
    return None


def _farming(episodes: list[EpisodeResult]) -> Flag | None:
    for e in episodes:
        found = farming_window(e)
        if found is not None:
            start, stop = found
            rewarded = int((e.rewards[start:stop] > 0).sum())
            return Flag("reward farming", f"episode {e.index + 1}: reward on {rewarded} of steps {start + 1}-{stop} "
                        "while the game stalled (screen or RAM repeating)")
    return None


# ---- ends ----


def _budget(episodes: list[EpisodeResult], max_steps: int) -> Flag | None:
    played = [e for e in episodes if e.done_reason != STOPPED]
    cut = [e for e in played if e.done_reason in (MAX_STEPS, TRUNCATED)]
    if not cut or any(e.terminated for e in episodes):
        return None
    if len(cut) == len(played):
        steps = sum(e.length for e in cut)
        which = "the episode" if len(cut) == 1 else f"all {len(cut)} episodes"
        return Flag("all at max steps", f"{which} ran to the step budget ({max_steps} steps; "
                    f"{steps} steps in all) and done never fired: check the done condition - its variable may "
                    "never reach the reference (a wrong address or type, an op the wrong way round), or raise "
                    "Max steps if the game lasts longer")
    return Flag("never done", f"no episode was done within {max_steps} steps")


def _early(episodes: list[EpisodeResult], max_steps: int, fps: float, frames_per_step: int) -> Flag | None:
    done = [e for e in episodes if e.terminated and e.length > 1]  # one step: "done on first step" says it
    seconds = {e.index: e.length * frames_per_step / fps for e in done}
    quick = [e for e in done if seconds[e.index] < EARLY_SECONDS]
    said: list[str] = []
    if quick:
        first = min(quick, key=lambda e: e.length)
        said.append(f"{_episodes([e.index for e in quick])} of {len(episodes)} {'were' if len(quick) > 1 else 'was'} "
                    f"done less than {EARLY_SECONDS:g} s of game time after the start state (episode "
                    f"{first.index + 1}: {first.length} steps, {seconds[first.index]:.2f} s, by {first.done_reason})")
    played = [e for e in episodes if e.done_reason != STOPPED]
    lengths = np.array([e.length for e in played], dtype=np.float64)
    distinct_play = len({e.masks.tobytes() for e in played}) > 1  # the same keys end the same way: no news
    if (len(played) >= 2 and len(done) == len(played) and distinct_play
            and np.ptp(lengths) <= SAME_SPREAD * lengths.mean() and lengths.mean() <= EARLY_FRACTION * max_steps):
        reasons = sorted({e.done_reason for e in played})
        said.append(f"all {len(played)} episodes were done between steps {int(lengths.min())} and "
                    f"{int(lengths.max())} ({lengths.mean() * frames_per_step / fps:.1f} s) though they played "
                    f"different keys, by {'; '.join(reasons[:3])}")
    if not said:
        return None
    return Flag("early end", "; ".join(said) + ": done may fire at the first death (lives decreasing rather than "
                "lives == 0), at a fixed moment (a timer, a frame counter) or on a value the start state already "
                "nearly has - check the done condition's variables and references (a game that always lasts "
                "as long needs no change)")


# ---- rewards ----


def _spike(episodes: list[EpisodeResult]) -> Flag | None:
    played = [e for e in episodes if e.length]
    if not played:
        return None
    rewards = np.concatenate([e.rewards for e in played])
    nonzero = np.abs(rewards[rewards != 0])
    if len(nonzero) < SPIKE_MIN_REWARDED:
        return None
    median = float(np.median(nonzero))
    over = int((rewards > SPIKE_RATIO * median).sum())
    if not over:
        return None
    e = max(played, key=lambda x: float(x.rewards.max()))
    step = int(e.rewards.argmax())
    value = float(e.rewards[step])
    return Flag("reward spike", f"episode {e.index + 1}, step {step + 1}: reward {_n(value)}, "
                f"{value / median:,.0f}\u00d7 the median nonzero step reward ({_n(median)} over {len(nonzero)} "
                f"rewarded steps; {over} step(s) above {SPIKE_RATIO:g}\u00d7 it): check the reward variable's type and "
                "byte order (a BCD score read as binary, a width that takes in the next byte), a value that wraps "
                "or is reset, and the reward multiplier")


def _implausible(episodes: list[EpisodeResult], plausibility: Plausibility | None,
                 frames_per_step: int) -> Flag | None:
    if plausibility is None:
        return None
    over = []
    for e in episodes:
        limit = plausibility.limit(e.length, frames_per_step)
        if limit is not None and e.total > limit:
            over.append((e, limit))
    if not over:
        return None
    e, limit = max(over, key=lambda pair: pair[0].total / pair[1])
    others = f"{_episodes([x.index for x, _ in over])} returned more than is plausible; " if len(over) > 1 else ""
    return Flag("implausible return", f"{others}episode {e.index + 1} returned {_n(e.total)} in {e.length} steps "
                f"where {plausibility.describe()} make at most {_n(limit)} plausible (a {PLAUSIBLE_FACTOR:g}\u00d7 "
                "margin included): check the score variable's type, byte order and width against the screen, and "
                "the reward multiplier")


# ---- all of them ----


def scenario_flags(episodes: list[EpisodeResult], max_steps: int, plausibility: Plausibility | None = None, *,
                   fps: float = DEFAULT_FPS, frames_per_step: int = 1) -> list[Flag]:
    """The likely scenario bugs these episodes show (see the module doc).

    Args:
        episodes: The episodes played.
        max_steps: The step budget they were played with.
        plausibility: What the score checkpoints and reward terms make plausible (None: the
            ``implausible return`` check is not made).
        fps: Frames a second of the game (for ``early end``).
        frames_per_step: Frames an env step lasts.
    """
    flags: list[Flag] = []
    if not episodes:
        return flags
    flags.extend(f for f in [_budget(episodes, max_steps)] if f is not None)
    first = [e for e in episodes if e.terminated and e.length == 1]
    if first:
        verb = "were" if len(first) > 1 else "was"
        flags.append(Flag("done on first step", f"{_episodes([e.index for e in first])} {verb} done after one step "
                          f"(episode {first[0].index + 1}: {first[0].done_reason}): check the done condition - an "
                          "all with no tests, or a test already true at the start state"))
    found = [_early(episodes, max_steps, fps, frames_per_step)]
    if all(not np.any(e.rewards) for e in episodes):
        steps = sum(e.length for e in episodes)
        found.append(Flag("reward always zero", f"no reward in {steps} steps"))
    found += [_spike(episodes), _implausible(episodes, plausibility, frames_per_step), _farming(episodes)]
    flags.extend(f for f in found if f is not None)
    return flags


CHECKS = {
    "done": "not every episode cut by the step budget",
    "done on first step": "not done on the first step",
    "early end": f"no early end (none under {EARLY_SECONDS:g} s, lengths not all alike)",
    "reward always zero": "some reward",
    "reward spike": f"no step over {SPIKE_RATIO:g}\u00d7 the median reward",
    "implausible return": "returns within what the score checkpoints make plausible",
    "reward farming": "no reward while the game stalls",
}
"""The checks :func:`scenario_flags` makes, by the flag each raises, in words."""


def checks_passed(flags: list[Flag], plausibility: Plausibility | None = None) -> list[str]:
    """The checks that were made and raised no flag, in words."""
    raised = {"done" if f.name in ("all at max steps", "never done") else f.name for f in flags}
    skipped = bool(checks_skipped(flags, plausibility))
    return [text for name, text in CHECKS.items()
            if name not in raised and not (skipped and name == "implausible return")]


def checks_skipped(flags: list[Flag], plausibility: Plausibility | None = None) -> list[str]:
    """The checks that could not be made, each with why."""
    if any(f.name == "implausible return" for f in flags):
        return []
    why = "no plausibility was given" if plausibility is None else plausibility.why_unchecked
    return [f"return plausibility ({why})"] if why else []
