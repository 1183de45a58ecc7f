"""The Run agent dialog: a run on a worker thread, its table, curves and flags, the checks it lists.

The runs themselves (agents, episodes, flags) are tested without Qt in ``tests/studio/model/test_agents.py``.
"""

from __future__ import annotations

from emucore.env import replay
from emucore.paths import integrations_dir
from studio.model.agents.agent_run import SANITY
from tests.studio.model.test_agents import (
    FIRST_DEATH,
    FRAME_50,
    SCORE,
    WIDE,
    logged_scalars,
    scenario,
    type_the_score,
    wide_score_copy,
)


def test_dialog_runs_on_a_worker(qtbot, tmp_path):
    from studio.qt.agents.agent_run_dialog import AgentDialog

    short = scenario(tmp_path, "short", FRAME_50, SCORE)
    dialog = AgentDialog(integrations_dir() / "StudioDemo-Nes", None, None, scenario=short)
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
    if dialog.tensorboard_box.isChecked():  # torch and tensorboard are there: the run's log is too
        log = dialog.report.log_dir
        assert log is not None and log.parent.name == "StudioDemo-Nes" and str(log.parent) in dialog.status.text()
        assert logged_scalars(log)["episode/return"] == dialog.report.returns
    dialog.close()


def test_dialog_shows_the_new_flags_and_the_checks(qtbot, tmp_path):
    from studio.qt.agents.agent_run_dialog import AgentDialog

    folder = wide_score_copy(tmp_path)
    type_the_score(folder)
    dialog = AgentDialog(folder, None, None, scenario=scenario(tmp_path, "first", FIRST_DEATH, WIDE))
    qtbot.addWidget(dialog)
    assert dialog.agent_box.currentText() == SANITY  # the default
    dialog.agent_box.setCurrentText("Random")
    dialog.episodes_box.setValue(5)
    dialog.agent_box.setCurrentText(SANITY)
    assert dialog.episodes_box.value() == 1  # the preset: one episode until the first done
    dialog.episodes_box.setValue(2)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=20000)
    items = [dialog.flags_list.item(r).text() for r in range(dialog.flags_list.count())]
    assert [item.split(":")[0] for item in items] == [
        "early end", "reward spike", "implausible return", "Checks passed"]
    assert "between steps 299 and 299" in items[0] and "highest 600" in items[2]
    assert items[3] == "Checks passed: not every episode cut by the step budget; not done on the first step; " \
        "some reward; no reward while the game stalls"
    assert dialog.summary.text().startswith("2 episodes: done fired after 299 steps (5.0 s at the earliest), by lives")
    dialog.close()


def test_dialog_says_what_was_checked_when_no_flag_fires(qtbot):
    from studio.qt.agents.agent_run_dialog import AgentDialog

    dialog = AgentDialog(integrations_dir() / "StudioDemo-Nes", None, None)
    qtbot.addWidget(dialog)
    dialog.agent_box.setCurrentText("Right-biased")
    dialog.episodes_box.setValue(1)
    dialog.steps_box.setValue(1200)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=20000)
    items = [dialog.flags_list.item(r).text() for r in range(dialog.flags_list.count())]
    assert items == [
        "No likely scenario bug found. Checks passed: not every episode cut by the step budget; not done on the "
        "first step; no early end (none under 3 s, lengths not all alike); some reward; no step over 100\u00d7 the "
        "median reward; no reward while the game stalls",
        "Not checked: return plausibility (no score was typed in Find from screen)",
    ]
    assert dialog.summary.text().startswith("1 episode: done fired after 899 steps")
    dialog.close()
