"""The Run agent flags on episodes built by hand: each flag's threshold from both sides, the plausibility
bound from typed score checkpoints and reward terms, the checks listed as passed, and the run's one-line summary."""

from __future__ import annotations

import numpy as np
import pytest

from emucore.rollout import EpisodeResult
from studio.model.agents.agent_flags import (
    EARLY_SECONDS,
    SPIKE_RATIO,
    checks_passed,
    checks_skipped,
    scenario_flags,
)
from studio.model.agents.sanity_agent import run_summary
from studio.model.search.plausibility import Plausibility, plausibility_of

LIVES_0 = "lives == 0 (is 0)"
SCORE = {"reward": {"variables": {"score": {"reward": 1.0}}}}


def episode(index: int, rewards, *, reason: str = LIVES_0, terminated: bool = True, keys: int | None = None,
            still: bool = False) -> EpisodeResult:
    """An episode of ``len(rewards)`` steps; each episode presses other keys unless ``keys`` says;
    ``still``: the same screen and RAM every step."""
    rewards = np.asarray(rewards, dtype=np.float64)
    n = len(rewards)
    hashes = np.zeros(n, np.uint64) if still else np.arange(n, dtype=np.uint64)
    return EpisodeResult(index, float(rewards.sum()), n, reason, terminated, rewards,
                         np.full(n, index if keys is None else keys, np.uint16),
                         screen_hashes=hashes, ram_hashes=hashes.copy())


def cut(index: int, steps: int, reason: str = "max steps") -> EpisodeResult:
    return episode(index, np.ones(steps), reason=reason, terminated=False)


def names(flags) -> list[str]:
    return [f.name for f in flags]


def detail(flags, name: str) -> str:
    return next(f.detail for f in flags if f.name == name)


# ---- the step budget ----


def test_all_at_max_steps():
    flags = scenario_flags([cut(0, 600), cut(1, 600, "truncated")], 600)
    assert names(flags) == ["all at max steps"]
    assert "all 2 episodes ran to the step budget (600 steps; 1200 steps in all)" in detail(flags, "all at max steps")
    assert names(scenario_flags([cut(0, 600), cut(1, 42, "stopped")], 600)) == ["all at max steps"]  # stopped: left out
    assert names(scenario_flags([cut(0, 600), episode(1, np.ones(900))], 4500)) == []  # one was done
    assert names(scenario_flags([cut(0, 600), cut(1, 80, "agent finished")], 600)) == ["never done"]


# ---- early ends ----


def test_early_end_within_seconds_of_the_start():
    quick = int(EARLY_SECONDS * 60) - 1  # 179 frames: 2.98 s
    flags = scenario_flags([episode(0, np.ones(quick))], 4500)
    assert names(flags) == ["early end"]
    text = detail(flags, "early end")
    assert "episode 1 of 1 was done less than 3 s" in text and f"{quick} steps, 2.98 s, by {LIVES_0}" in text
    assert "first death" in text
    assert names(scenario_flags([episode(0, np.ones(quick + 1))], 4500)) == []  # 3.0 s: not early
    assert names(scenario_flags([episode(0, np.ones(quick))], 4500, fps=50.0)) == []  # 3.58 s at 50 fps
    assert names(scenario_flags([episode(0, np.ones(60))], 4500, frames_per_step=4)) == []  # 240 frames: 4 s
    assert names(scenario_flags([episode(0, np.ones(30))], 4500, frames_per_step=4)) == ["early end"]
    assert names(scenario_flags([episode(0, np.ones(quick), reason="max steps", terminated=False)], quick)) == [
        "all at max steps"]  # cut by the budget, not done
    assert names(scenario_flags([episode(0, [1.0])], 4500)) == ["done on first step"]  # said once


def test_early_end_all_at_about_the_same_step():
    same = [episode(i, np.ones(n)) for i, n in enumerate((600, 630, 660))]  # spread 60 <= 10% of 630
    flags = scenario_flags(same, 4500)
    assert names(flags) == ["early end"]
    assert "all 3 episodes were done between steps 600 and 660 (10.5 s) though they played different keys" in \
        detail(flags, "early end")
    spread = [episode(i, np.ones(n)) for i, n in enumerate((600, 630, 670))]  # 70 > 63
    assert names(scenario_flags(spread, 4500)) == []
    assert names(scenario_flags(same, 2400)) == []  # mean 630 > 25% of the budget: not early
    replayed = [episode(i, np.ones(600), keys=5) for i in range(3)]  # the same keys: the same end is no news
    assert names(scenario_flags(replayed, 4500)) == []
    assert names(scenario_flags([*same[:2], cut(2, 4500)], 4500)) == []  # one was not done
    assert names(scenario_flags(same[:1], 4500)) == []  # one episode is no pattern


# ---- rewards ----


def test_reward_always_zero():
    flags = scenario_flags([episode(0, np.zeros(900)), episode(1, np.zeros(1200))], 4500)
    assert names(flags) == ["reward always zero"] and detail(flags, "reward always zero") == "no reward in 2100 steps"


def test_reward_spike():
    rewards = np.zeros(900)
    rewards[::10] = 10.0  # 90 steps of 10
    rewards[455] = 10.0 * SPIKE_RATIO + 500  # 150x
    flags = scenario_flags([episode(0, np.full(1200, 10.0)), episode(1, rewards)], 4500)
    assert names(flags) == ["reward spike"]
    assert detail(flags, "reward spike").startswith("episode 2, step 456: reward 1,500, 150\u00d7 the median")
    assert "BCD" in detail(flags, "reward spike")
    rewards[455] = 10.0 * SPIKE_RATIO  # 100x: not above
    assert names(scenario_flags([episode(0, rewards)], 4500)) == []
    rewards[455] = -5000.0  # a penalty (a death): a design, not a spike
    assert names(scenario_flags([episode(0, rewards)], 4500)) == []
    few = np.zeros(900)
    few[[10, 500]] = [1.0, 5000.0]  # two rewarded steps: no median to speak of
    assert names(scenario_flags([episode(0, few)], 4500)) == []


def test_implausible_return():
    typed = Plausibility(((0, 0.0), (600, 1500.0)), per_point=1.0, terms="score \u00d7 1")
    assert typed.rate == 2.5 and typed.limit(96) == 15000.0  # 10 x max(2.5 x 96, 1500)
    rewards = np.zeros(96)
    rewards[1::2] = 577_500 / 48
    flags = scenario_flags([episode(0, np.ones(900)), episode(1, rewards)], 4500, typed)
    assert "implausible return" in names(flags)
    text = detail(flags, "implausible return")
    assert text.startswith("episode 2 returned 577,500 in 96 steps where 2 score checkpoint(s) typed")
    assert "make at most 15,000 plausible" in text and "highest 1,500, rising at most 2.5 points a frame" in text
    twice = detail(scenario_flags([episode(0, rewards), episode(1, rewards * 2)], 4500, typed), "implausible return")
    assert twice.startswith("episodes 1, 2 returned more than is plausible; episode 2 returned 1,155,000 in 96 steps")
    assert names(scenario_flags([episode(0, np.full(96, 14_000 / 96))], 4500, typed)) == ["early end"]  # 1.6 s
    long = np.full(4500, 20.0)  # 90,000 in 4500 steps: under 10 x 2.5 x 4500 = 112,500
    assert names(scenario_flags([episode(0, long, reason="max steps", terminated=False)], 4500, typed)) == [
        "all at max steps"]
    for unknown in (None, Plausibility(), Plausibility(((0, 0.0), (600, 1500.0)), 1.0, "x", unknown="a Lua reward")):
        assert "implausible return" not in names(scenario_flags([episode(1, rewards)], 4500, unknown))


def test_old_callers_keep_working():
    flags = scenario_flags([cut(0, 60), cut(1, 60)], 60)
    assert names(flags) == ["all at max steps"] and scenario_flags([], 60) == []


# ---- the plausibility bound ----


def test_plausibility_from_checkpoints_and_terms():
    p = plausibility_of([(120, "00 300"), (0, "000000"), (600, "001500")], SCORE)
    assert p.max_shown == 1500 and p.rate == 2.5 and p.per_point == 1.0 and p.why_unchecked == ""
    assert p.terms == "score \u00d7 1"
    # a variable found from screen as stored x 10, rewarded x 10: a shown point is worth 1
    scaled = {"reward": {"variables": {"score": {"reward": 10.0}, "lives": {"penalty": 100.0}}}}
    assert plausibility_of([(0, "0"), (60, "600")], scaled, {"score": 10.0}).per_point == 1.0
    assert plausibility_of([(0, "0"), (60, "600")], scaled).limit(10) == 10 * 10 * 600  # lives only penalizes
    assert plausibility_of([(0, "0")], SCORE).why_unchecked == "every score typed in Find from screen is 0"
    assert plausibility_of([], SCORE).limit(100) is None
    assert plausibility_of([], SCORE).why_unchecked == "no score was typed in Find from screen"
    assert plausibility_of([(0, "500")], SCORE).limit(100) == 5000.0  # one checkpoint: the score reached


@pytest.mark.parametrize("scenario, why", [
    ({"reward": {"variables": {"score": {"reward": 1.0}, "x": {"reward": 1.0}}}}, "x are not the score"),
    ({"reward": {"variables": {"score": {"reward": 1.0, "measurement": "absolute"}}}}, "not the score's increase"),
    ({"reward": {"variables": {"score": {"reward": 1.0, "op": "greater-than"}}}}, "not the score's increase"),
    ({"reward": {"variables": {"score": {"reward": 1.0}}, "time": {"reward": 0.1}}}, "positive time term"),
    ({"reward": {"script": "lua:reward"}}, "Lua function"),
    ({"reward": {"variables": {"lives": {"penalty": 1.0}}}}, "no reward term rewards a rising value"),
    (None, "no reward term rewards a rising value"),
])
def test_plausibility_unknown_when_the_score_does_not_bound_the_reward(scenario, why):
    p = plausibility_of([(0, "0"), (600, "1500")], scenario, {"score": 1.0})
    assert why in p.why_unchecked and p.limit(100) is None


# ---- the checks listed ----


def test_checks_passed_and_skipped():
    typed = Plausibility(((0, 0.0), (600, 1500.0)), 1.0, "score \u00d7 1")
    every = checks_passed([], typed)
    assert len(every) == 7 and "returns within what the score checkpoints make plausible" in every
    assert checks_skipped([], typed) == []
    flags = scenario_flags([cut(0, 60), cut(1, 60)], 60, typed)
    passed = checks_passed(flags, typed)
    assert "not every episode cut by the step budget" not in passed and "some reward" in passed
    assert len(passed) == 6
    untyped = checks_passed([], Plausibility())
    assert len(untyped) == 6 and not any("plausible" in c for c in untyped)
    assert checks_skipped([], Plausibility()) == ["return plausibility (no score was typed in Find from screen)"]


# ---- the one-line summary ----


def test_summary_says_when_nothing_happened():
    still = [episode(0, np.zeros(600), reason="max steps", terminated=False, still=True)]
    line = run_summary(still, 600)
    assert line.startswith("Nothing happened in 1 episode: no reward, and the screen showed 1 different pictures "
                           "in 600 steps")
    assert line.endswith("done never fired within 600 steps.")
    moving = run_summary([episode(0, np.zeros(600), reason="max steps", terminated=False)], 600)
    assert moving.startswith("1 episode: done never fired within 600 steps; no reward in 600 steps though the game "
                             "moved")
    played = run_summary([episode(0, np.ones(899)), episode(1, np.full(950, 2.0))], 4500)
    assert played == (f"2 episodes: done fired after 899 to 950 steps (15.0 s at the earliest), by {LIVES_0}; "
                      "return 899 to 1,900.")
    assert run_summary([], 600) == "No episode was played."
