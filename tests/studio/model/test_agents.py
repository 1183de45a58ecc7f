"""Run-agent sanity checks: agents, episode stats, done conditions, scenario-bug flags, best movie (the dialog:
``tests/studio/qt/test_agent_dialog.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from emucore.env import replay
from emucore.paths import integrations_dir
from studio.model.agents.agent_run import (
    SANITY,
    BruteAgent,
    IdleAgent,
    MovieAgent,
    RandomAgent,
    RightBiasedAgent,
    SanityAgent,
    make_agent,
    run_episodes,
)

GAMES = ["StudioDemo-Nes", "StudioDemo-Genesis"]
FRAME_50 = {"variables": {"frame": {"op": "greater-or-equal", "reference": 50}}}
SCORE = {"variables": {"score": {"reward": 1.0}}}
LIVES_0 = {"variables": {"lives": {"op": "equal", "reference": 0}}}
FIRST_DEATH = {"variables": {"lives": {"op": "less-than", "reference": 3}}}  # the NES demo starts with 3
WIDE = {"variables": {"score_wide": {"reward": 1.0}}}


def scenario(tmp_path, name: str, done=None, reward=None) -> str:
    raw: dict = {}
    if done is not None:
        raw["done"] = done
    if reward is not None:
        raw["reward"] = reward
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(raw))
    return str(path)


@pytest.mark.parametrize("game", GAMES)
def test_random_agent_stats(game, tmp_path):
    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    report = run_episodes(game, scenario=short, agent=RandomAgent(0), episodes=3, max_steps=500)
    assert report.lengths == [49, 49, 49]
    assert [e.done_reason for e in report.episodes] == ["frame >= 50 (is 50)"] * 3
    assert all(e.terminated for e in report.episodes)
    assert all(r >= 0 for r in report.returns) and max(report.returns) > 0
    assert report.flag_names == ["early end"]  # done on the frame counter, 0.8 s in: what the flag is for
    assert "frame >= 50 (is 50)" in report.flags[0].detail and "less than 3 s" in report.flags[0].detail
    assert report.best_index == report.returns.index(max(report.returns))
    assert report.episodes[0].keys(len(report.buttons)).shape == (49, len(report.buttons))
    again = run_episodes(game, scenario=short, agent=RandomAgent(0), episodes=3, max_steps=500)
    assert again.returns == report.returns  # seeded agent, deterministic emulation


def test_default_scenario_ends_on_lives(tmp_path):
    report = run_episodes("StudioDemo-Nes", agent=RightBiasedAgent(1), episodes=1, max_steps=1200)
    (episode,) = report.episodes
    assert episode.terminated and episode.done_reason == "lives == 0 (is 0)" and 850 < episode.length < 950
    assert episode.total > 0 and report.flags == []


def test_never_done_is_flagged(tmp_path):
    never = scenario(tmp_path, "never", {"variables": {"lives": {"op": "equal", "reference": 99}}}, SCORE)
    report = run_episodes("StudioDemo-Nes", scenario=never, agent=RandomAgent(0), episodes=2, max_steps=60)
    assert report.lengths == [60, 60] and [e.done_reason for e in report.episodes] == ["max steps"] * 2
    assert report.flag_names == ["all at max steps"]


def test_done_on_first_step_is_flagged(tmp_path):
    empty_all = scenario(tmp_path, "all", {"condition": "all"}, SCORE)
    report = run_episodes("StudioDemo-Genesis", scenario=empty_all, agent=RandomAgent(0), episodes=2, max_steps=60)
    assert report.lengths == [1, 1] and report.episodes[0].done_reason == "all with no tests is always true"
    assert "done on first step" in report.flag_names
    assert "all with no tests" in next(f.detail for f in report.flags if f.name == "done on first step")


def test_reward_always_zero_is_flagged(tmp_path):
    static = scenario(tmp_path, "static", FRAME_50, {"variables": {"game_over": {"reward": 1.0}}})
    report = run_episodes("StudioDemo-Nes", scenario=static, agent=RandomAgent(0), episodes=2, max_steps=500)
    assert report.returns == [0.0, 0.0]
    assert report.flag_names == ["early end", "reward always zero"]


@pytest.mark.parametrize("game", GAMES)
def test_reward_farming_is_flagged(game, tmp_path):
    # reward on the frame counter: the idle player earns 1 a step while the screen never changes
    farm = scenario(tmp_path, "farm", {"variables": {"frame": {"op": "greater-or-equal", "reference": 200}}},
                    {"variables": {"frame": {"reward": 1.0}}})
    report = run_episodes(game, scenario=farm, agent=IdleAgent(), episodes=1, max_steps=500)
    assert report.returns == [199.0]
    assert report.flag_names == ["reward farming"]
    # the same scenario with a player who moves: the game does not stall, no flag (a documented limit)
    moving = run_episodes(game, scenario=farm, agent=RandomAgent(0), episodes=1, max_steps=500)
    assert moving.flag_names == []


@pytest.mark.parametrize("game", GAMES)
def test_best_episode_replays_to_its_return(game, tmp_path):
    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    report = run_episodes(game, scenario=short, agent=RightBiasedAgent(3), episodes=3, max_steps=500)
    path = report.save_best(tmp_path / "best.bk2")
    summary = replay(path)  # the integration's own scenario: the same score reward
    best = report.episodes[report.best_index]
    assert summary.steps == best.length and summary.total_reward == best.total > 0
    again = run_episodes(game, scenario=short, agent=MovieAgent(path), episodes=1, max_steps=500)
    assert again.returns == [best.total] and again.lengths == [best.length]


def test_brute_keeps_and_replays_its_best(tmp_path):
    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    brute = BruteAgent(0, explore=0.0)
    report = run_episodes("StudioDemo-Nes", scenario=short, agent=brute, episodes=3, max_steps=500)
    assert brute.best_total == max(report.returns) == report.returns[0]
    assert report.returns == [report.returns[0]] * 3  # no exploration: the best is replayed exactly
    explorer = BruteAgent(0, explore=0.2)
    explored = run_episodes("StudioDemo-Nes", scenario=short, agent=explorer, episodes=6, max_steps=500)
    assert explorer.best_total == max(explored.returns) >= explored.returns[0]
    assert len(set(explored.returns)) > 1


@pytest.mark.slow  # Stable-Baselines3
def test_policy_agent(tmp_path):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO

    import emucore
    from studio.model.agents.agent_run import PolicyAgent, algo_of

    env = emucore.make("StudioDemo-Nes", obs_type=emucore.Observations.RAM,
                       use_restricted_actions=emucore.Actions.DISCRETE, inttype=emucore.data.Integrations.ALL)
    model = PPO("MlpPolicy", env, n_steps=16, batch_size=16, device="cpu", seed=0)
    model.save(tmp_path / "ppo.zip")
    env.close()
    assert algo_of(tmp_path / "ppo.zip") in (None, "PPO")
    agent = PolicyAgent(tmp_path / "ppo.zip")
    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    report = run_episodes("StudioDemo-Nes", scenario=short, agent=agent, episodes=1, max_steps=100)
    assert report.lengths == [49] and report.episodes[0].done_reason == "frame >= 50 (is 50)"


def logged_scalars(folder: Path) -> dict[str, list[float]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder))
    events.Reload()
    return {tag: [event.value for event in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


def test_a_run_writes_its_tensorboard_log(tmp_path):
    pytest.importorskip("torch.utils.tensorboard")
    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    report = run_episodes("StudioDemo-Nes", scenario=short, agent=RandomAgent(0), episodes=3, max_steps=100,
                          log_dir=tmp_path / "run")
    assert report.log_dir == tmp_path / "run"
    scalars = logged_scalars(report.log_dir)
    assert scalars["episode/return"] == report.returns and scalars["episode/length"] == report.lengths
    assert scalars["run/mean_return"] == [pytest.approx(sum(report.returns) / 3)]


# ---- the sanity agent and the flags on real play ----


@pytest.mark.slow  # long runs of the agent
@pytest.mark.parametrize("game", GAMES)
def test_sanity_agent_never_presses_start_or_select(game, tmp_path):
    # a scenario whose action set lets START (and SELECT, on the NES) through: the random agent sends them
    face = [[], ["A"], ["B"], ["START"], ["A", "B"]] + ([["SELECT"]] if game.endswith("Nes") else [])
    path = tmp_path / "start.json"
    path.write_text(json.dumps({"done": LIVES_0, "reward": SCORE,
                                "actions": [[[], ["UP"], ["DOWN"]], [[], ["LEFT"], ["RIGHT"]], face]}))
    random = run_episodes(game, scenario=str(path), agent=RandomAgent(2), episodes=1, max_steps=1200)
    assert random.episodes[0].keys(len(random.buttons))[:, random.buttons.index("START")].any()
    agent = make_agent(SANITY, seed=2)
    assert isinstance(agent, SanityAgent) and agent.seed == 2
    report = run_episodes(game, scenario=str(path), agent=agent, episodes=1, max_steps=1200)
    (episode,) = report.episodes
    sent = dict(zip(report.buttons, episode.keys(len(report.buttons)).T, strict=True))  # what reached the game
    assert not sent["START"].any() and not sent.get("SELECT", sent["START"]).any()  # the Genesis pad has no SELECT
    assert all(sent[name].mean() > 0.15 for name in ("A", "B", "LEFT", "RIGHT", "UP", "DOWN"))
    assert (episode.keys(len(report.buttons)) == episode.actions.astype(bool)).all()  # nothing FILTERED dropped
    runs = held_runs(episode.actions)  # each choice held 8 to 30 steps (two alike in a row make a longer run)
    assert min(runs[:-1]) >= 8 and len(runs) >= 899 // 60 and sorted(runs)[len(runs) // 2] <= 30
    assert episode.terminated and episode.length == 899  # the demo's game lasts 900 play frames
    assert report.summary == (f"1 episode: done fired after 899 steps (15.0 s at the earliest), by "
                              f"{episode.done_reason}; return {episode.total:,.0f}.")


def held_runs(actions) -> list[int]:
    """The lengths of the runs of equal actions, in order (the last one cut by the episode's end)."""
    changes = [0] + [i for i in range(1, len(actions)) if (actions[i] != actions[i - 1]).any()] + [len(actions)]
    return [b - a for a, b in zip(changes, changes[1:])]


def test_sanity_agent_without_an_action_set():
    import emucore

    env = emucore.make("StudioDemo-Nes", use_restricted_actions=emucore.Actions.ALL,
                       inttype=emucore.data.Integrations.ALL)
    choices = SanityAgent.choices_for(env)  # B, -, SELECT, START, UP, DOWN, LEFT, RIGHT, A
    env.close()
    assert choices == [[0, 1 << 4, 1 << 5], [0, 1 << 6, 1 << 7], [0, 1 << 0], [0, 1 << 8]]


def test_idle_play_is_said_to_do_nothing(tmp_path):
    never = scenario(tmp_path, "never", {"variables": {"lives": {"op": "equal", "reference": 99}}},
                     {"variables": {"game_over": {"reward": 1.0}}})
    report = run_episodes("StudioDemo-Nes", scenario=never, agent=IdleAgent(), episodes=1, max_steps=200)
    assert report.flag_names == ["all at max steps", "reward always zero"]
    assert report.summary.startswith("Nothing happened in 1 episode: no reward, and the screen showed ")
    assert report.summary.endswith("done never fired within 200 steps.")
    moving = run_episodes("StudioDemo-Nes", scenario=never, agent=SanityAgent(0), episodes=1, max_steps=200)
    assert "though the game moved" in moving.summary


@pytest.mark.slow  # long runs of the agent
def test_done_at_the_first_death_is_an_early_end(tmp_path):
    first = scenario(tmp_path, "first", FIRST_DEATH, SCORE)
    report = run_episodes("StudioDemo-Nes", scenario=first, agent=RandomAgent(0), episodes=2, max_steps=4500)
    assert report.lengths == [299, 299] and report.flag_names == ["early end"]
    text = report.flags[0].detail
    assert "all 2 episodes were done between steps 299 and 299 (5.0 s) though they played different keys" in text
    assert "lives < 3" in text and "first death" in text
    whole = scenario(tmp_path, "whole", LIVES_0, SCORE)  # the game over: 899 steps, a fifth of the budget
    assert run_episodes("StudioDemo-Nes", scenario=whole, agent=RandomAgent(0), episodes=2,
                        max_steps=3000).flag_names == []


def wide_score_copy(tmp_path: Path) -> Path:
    """The NES demo with ``score_wide``: the score read 4 bytes wide (``<u4`` at $20), taking in the
    first two of the digits that follow it - a width mistake that makes the reward jump."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    data = json.loads((folder / "data.json").read_text())
    data["info"]["score_wide"] = {"address": 32, "type": "<u4"}
    (folder / "data.json").write_text(json.dumps(data))
    return folder


def type_the_score(folder: Path) -> None:
    """Find from screen as the integrator uses it: hold B (+10 a frame), type the score the HUD shows."""
    from studio.model.opening import resolve_game
    from studio.model.play.session import Session
    from studio.model.search.screen_values import ScreenValueFinder

    session = Session(*resolve_game(str(folder), None))
    finder = ScreenValueFinder(session)
    b = 1 << session.system.buttons.index("B")
    for _ in range(2):
        session.set_buttons(0, b)
        session.advance(30)
        finder.add(f"{session.emulator.memory.read(0x20, '<u2'):05d}")  # SCORE ddddd
    session.set_buttons(0, 0)
    session.close()
    assert [(c.frame, c.shown) for c in finder.checkpoints] == [(30, "00300"), (60, "00600")]


def test_implausible_return_against_the_score_typed_on_screen(tmp_path):
    folder = wide_score_copy(tmp_path)
    type_the_score(folder)
    wide = scenario(tmp_path, "wide", LIVES_0, WIDE)
    report = run_episodes(folder, scenario=wide, agent=RandomAgent(0), episodes=1, max_steps=1200)
    (episode,) = report.episodes
    limit = 10 * 10 * 899  # 10x margin, 10 points a frame typed, 899 steps
    assert report.plausibility.limit(899) == limit and episode.total > 100 * limit
    assert "implausible return" in report.flag_names and "reward spike" in report.flag_names
    text = next(f.detail for f in report.flags if f.name == "implausible return")
    assert f"episode 1 returned {episode.total:,.0f} in 899 steps" in text
    assert "2 score checkpoint(s) typed in Find from screen (highest 600, rising at most 10 points a frame" in text
    assert f"make at most {limit:,} plausible" in text
    right = scenario(tmp_path, "right", LIVES_0, SCORE)  # the score as it is: 4,000-odd in 899 steps
    fine = run_episodes(folder, scenario=right, agent=RandomAgent(0), episodes=1, max_steps=1200)
    assert fine.flag_names == [] and fine.unchecked == []
    assert "returns within what the score checkpoints make plausible" in fine.checks
