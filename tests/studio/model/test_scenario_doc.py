"""The scenario document: edits saved in stable-retro's layout, live reward as the env gives it, done and
why, the timeline following rewinds, lint beside the field at fault, Lua syntax errors (its dock:
``tests/studio/qt/test_scenario_editor.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import emucore
from emucore.integration import dump_scenario_json
from studio.model.play.session import Session
from studio.model.scenario.scenario_doc import ScenarioDocument

B, RIGHT = 1 << 0, 1 << 7  # Genesis buttons: B, A, MODE, START, UP, DOWN, LEFT, RIGHT, ...


@pytest.fixture
def session(demo):
    session = Session(*demo)
    yield session
    session.close()


def saved(doc: ScenarioDocument) -> str:
    return doc.path.read_text("utf-8")


def test_edits_are_saved_in_stable_retro_layout(session):
    doc = ScenarioDocument(session)
    doc.set_reward_term("x", reward=0.5, penalty=2.0)
    doc.set_reward_term("lives", measurement="absolute", op="less-than", reference=3, penalty=-1.0)
    doc.remove_reward_term("lives")
    doc.set_time_reward(-0.01)
    doc.remove_done_test((), "game_over")
    doc.set_done_condition((), "all")
    lost = doc.add_done_node((), "lost")
    doc.set_done_test(lost, "y", op="greater-than", reference=200, measurement="delta")
    doc.set_done_condition(lost, "any")
    doc.set_crop([8, 16, 100, 50])
    expected = {
        "done": {
            "condition": "all",
            "variables": {"lives": {"op": "equal", "reference": 0}},  # untouched: kept as the file had it
            "nodes": {"lost": {"variables": {"y": {"measurement": "delta", "op": "greater-than", "reference": 200}}}},
        },
        "reward": {
            "variables": {"score": {"reward": 1.0}, "x": {"reward": 0.5, "penalty": 2.0}},
            "time": {"reward": float(np.float32(-0.01))},
        },
        "crop": [8, 16, 100, 50],
    }
    assert saved(doc) == dump_scenario_json(expected)
    assert ScenarioDocument(session).data == expected  # and it reads back


def test_live_reward_equals_the_env_step_by_step(session, demo, tmp_path):
    session.advance(1)  # env.reset() runs one frame with no button held before its evaluation
    doc = ScenarioDocument(session)
    doc.set_reward_term("x", reward=0.5, penalty=2.0)
    doc.set_time_reward(-0.01)
    inputs = [B] * 30 + [B | RIGHT] * 30 + [0] * 10
    ours = []
    session.events.after_frame.connect(lambda: ours.append((doc.live.reward, doc.live.done)))
    for mask in inputs:
        session.set_buttons(0, mask)
        session.advance(1)
    total = np.float32(0)
    for reward, _ in ours:
        total = np.float32(total + np.float32(reward))
    assert doc.live.cumulative == float(total)  # the totals are float32 sums, as stable-retro's

    emucore.data.Integrations.add_custom_path(str(tmp_path))
    env = emucore.make("StudioDemo-Genesis", inttype=emucore.data.Integrations.CUSTOM_ONLY,
                       scenario=str(doc.path), use_restricted_actions=emucore.Actions.ALL)
    try:
        env.reset(seed=0)
        theirs = []
        for mask in inputs:
            _, reward, done, _, _ = env.step(np.array([(mask >> i) & 1 for i in range(12)], np.uint8))
            theirs.append((reward, done))
    finally:
        env.close()
        emucore.data.Integrations.clear_custom_paths()
    assert ours == theirs
    assert {r for r, _ in ours[:30]} == {float(np.float32(1) + np.float32(-0.01))}  # holding B scores 1 a frame


def test_default_scenario_holding_b_rewards_one_per_frame(session):
    doc = ScenarioDocument(session)
    session.set_buttons(0, B)
    session.advance(10)
    assert [s.reward for s in doc.live.history] == [1.0] * 10
    assert doc.live.cumulative == 10.0 and not doc.live.done


def test_done_fires_and_names_the_condition(session):
    doc = ScenarioDocument(session)
    doc.set_done_test((), "x", op="greater-than", reference=160)
    session.set_buttons(0, RIGHT)
    x = session.emulator.memory.read(0xFF000A, ">u2")
    for _ in range(600):
        session.advance(1)
        if doc.live.done:
            break
    x = session.emulator.memory.read(0xFF000A, ">u2")
    assert doc.live.done and x > 160
    (reason,) = doc.live.done_reasons
    assert (reason.key, reason.name, reason.measured) == ("done.variables.x", "x", x)
    assert reason.text == f"x > 160 (is {x})"
    frames, _, done_events = doc.live.timeline()
    assert list(done_events) == [frames[-1]]


def test_the_timeline_follows_a_rewind(session):
    doc = ScenarioDocument(session)
    session.set_buttons(0, B)
    session.advance(60)
    assert doc.live.cumulative == 60.0 and doc.live.history[-1].frame == 60
    went = session.rewind_frames(20)
    assert went >= 20
    assert doc.live.history[-1].frame == session.frame == 60 - went
    assert doc.live.cumulative == doc.live.history[-1].cumulative == session.frame
    session.advance(5)  # the delta after a rewind is against the rewound memory
    assert [s.reward for s in list(doc.live.history)[-5:]] == [1.0] * 5
    assert doc.live.cumulative == session.frame


def test_lint_points_at_the_broken_field(session):
    doc = ScenarioDocument(session)
    doc.set_reward_term("nonexistent", reward=1.0)
    missing = doc.findings_for("reward.variables.nonexistent")
    assert any(f.level == "error" and "invalid variable" in f.message for f in missing)
    assert "nonexistent" in doc.live.error  # the live evaluation says why it stopped
    data = doc.folder / "data.json"  # the variables dock adds the variable: the finding goes
    data.write_text(data.read_text().replace('"dx": {', '"nonexistent": {"address": 16711694, "type": ">i2"}, "dx": {'))
    assert doc.follow_data_json() and not doc.findings_for("reward.variables.nonexistent") and not doc.live.error
    doc.remove_reward_term("nonexistent")
    assert not doc.live.error and not doc.findings_for("reward.variables.nonexistent")
    doc.set_done_test((), "lives", op="negative")  # lives is |u1: never negative
    assert any("unsigned" in f.message for f in doc.findings_for("done.variables.lives"))
    doc.set_reward_term("lives", measurement="absolute", op="negative", reward=1.0)
    assert any("never applies" in f.message for f in doc.findings_for("reward.variables.lives"))
    start = doc.findings_for("actions")
    assert start and "START" in start[0].message  # the Genesis default groups never press START
    doc.set_actions([[[], ["UP"], ["DOWN"]], [[], ["START"]]])
    assert not doc.findings_for("actions")


def test_lua_syntax_error_reports_the_line(session):
    doc = ScenarioDocument(session)
    doc.set_scripts(["script.lua"])
    error = doc.set_lua_source("script.lua", "function reward()\n  return data.score\nend\nfunction done(\n")
    assert error is not None and error.line == 5  # "<name> expected near '<eof>'"
    assert doc.lua_errors["script.lua"].line == error.line
    assert any(f.file == "script.lua" and f.level == "error" for f in doc.findings)
    assert doc.set_lua_source("script.lua", "function reward()\n  return data.lives * 2\nend\n") is None
    doc.set_script_function("reward", "lua:reward")
    session.set_buttons(0, B)
    session.advance(3)
    lives = session.emulator.memory.read(0xFF0012, "|u1")
    assert doc.live.reward == 2.0 * lives and not doc.live.error
    assert (session.folder / "script.lua").read_text() == "function reward()\n  return data.lives * 2\nend\n"
