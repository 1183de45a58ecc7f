"""Run-agent sanity checks: agents, episode stats, done conditions, scenario-bug flags, best movie, dialog."""

from __future__ import annotations

import json

import pytest

from emucore.movie import replay
from studio.model.agents import (
    BruteAgent,
    IdleAgent,
    MovieAgent,
    RandomAgent,
    RightBiasedAgent,
    run_episodes,
)
from tests.conftest import ROOT

GAMES = ["StudioDemo-Nes", "StudioDemo-Genesis"]
FRAME_50 = {"variables": {"frame": {"op": "greater-or-equal", "reference": 50}}}
SCORE = {"variables": {"score": {"reward": 1.0}}}


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


def test_policy_agent(tmp_path):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO

    import emucore
    from studio.model.agents import PolicyAgent, algo_of

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


def test_dialog_runs_on_a_worker(qtbot, tmp_path):
    from studio.qt.agent_dialog import AgentDialog

    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    dialog = AgentDialog(ROOT / "integrations" / "StudioDemo-Nes", None, None, scenario=short)
    qtbot.addWidget(dialog)
    dialog.agent_box.setCurrentText("Right-biased")
    dialog.episodes_box.setValue(2)
    dialog.steps_box.setValue(100)
    dialog.run_button.click()
    assert dialog.stop_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=10000)
    assert dialog.table.rowCount() == 2
    assert [dialog.table.item(r, 3).text() for r in range(2)] == ["frame >= 50 (is 50)"] * 2
    assert [dialog.table.item(r, 2).text() for r in range(2)] == ["49", "49"]
    assert dialog.save_button.isEnabled() and dialog.run_button.isEnabled()
    assert len(dialog._curves) == 2
    assert [dialog.flags_list.item(r).text().split(":")[0] for r in range(dialog.flags_list.count())] == [
        "early end", "Checks passed", "Not checked"]
    dialog.report.save_best(tmp_path / "best.bk2")
    assert replay(tmp_path / "best.bk2").total_reward == max(dialog.report.returns)
    dialog.close()
