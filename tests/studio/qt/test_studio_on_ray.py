"""The studio's Run agent dialog sends the episodes to a Ray cluster and shows them as they come back."""

from __future__ import annotations

import json

import pytest

from emucore.paths import integrations_dir

pytestmark = pytest.mark.ray
FRAME_50 = {"variables": {"frame": {"op": "greater-or-equal", "reference": 50}}}


def run_dialog(qtbot, scenario: str, address: str):
    from studio.qt.agents.agent_run_dialog import AgentDialog

    dialog = AgentDialog(integrations_dir() / "StudioDemo-Nes", None, None, scenario=scenario)
    qtbot.addWidget(dialog)
    dialog.agent_box.setCurrentText("Random")
    dialog.episodes_box.setValue(4)
    dialog.steps_box.setValue(120)
    dialog.seed_box.setValue(9)
    dialog.ray_edit.setText(address)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=90_000)
    return dialog


def test_the_dialog_plays_on_the_cluster_what_it_plays_here(qtbot, ray_cluster, tmp_path):
    scenario = tmp_path / "short.json"  # a scenario given by path travels too
    scenario.write_text(json.dumps({"done": FRAME_50, "reward": {"variables": {"score": {"reward": 1.0}}}}))
    here = run_dialog(qtbot, str(scenario), "")
    there = run_dialog(qtbot, str(scenario), ray_cluster.address)
    assert there.status.text().startswith("4 episodes"), there.status.text()
    assert there.table.rowCount() == 4
    rows = [[there.table.item(r, c).text() for c in range(4)] for r in range(4)]
    assert rows == [[here.table.item(r, c).text() for c in range(4)] for r in range(4)]
    assert [row[3] for row in rows] == ["frame >= 50 (is 50)"] * 4
    assert len({there.table.item(r, 4).text() for r in range(4)}) == 2  # the node column: both nodes played
    assert len(there._curves) == 4 and all(len(xs) == 49 for _, xs, _ in there._curves.values())
    assert "frames stay there" in there.game_view.placeholder and here.game_view.placeholder == ""
    assert there.report.best_movie is not None and there.report.returns == here.report.returns
    here.close()
    there.close()
