"""Run agent's default preset shows a working integration on the first try (pytest-qt, offscreen).

Ground truth: the homebrew games' READMEs: a game lasts 900 play frames whatever the player does
(three lives, one lost every 300 frames; done when they are gone), and the score rises while a
face button is held (A or B on the NES, B or C on the Genesis). Airstriker (stable-retro's) ends
when the ship's lives are gone; its score rises when an enemy is shot.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from emucore.paths import integrations_dir
from studio.model.agents.agent_run import SANITY, RunChoices, SanityAgent, run_episodes
from studio.model.settings import Settings
from studio.qt.agents.agent_run_dialog import AgentDialog

GAMES = ["StudioDemo-Nes", "StudioDemo-Genesis"]
DIRECTIONS = ("UP", "DOWN", "LEFT", "RIGHT")


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def type_into(qtbot, spin, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def longest_press(pressed) -> int:
    """The most steps in a row a button was held."""
    best = now = 0
    for down in pressed:
        now = now + 1 if down else 0
        best = max(best, now)
    return best


def run(qtbot, dialog: AgentDialog) -> None:
    click(qtbot, dialog.run_button)
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=60000)


@pytest.mark.parametrize("game", GAMES)
def test_the_default_preset_reaches_a_reward_and_an_ended_episode(qtbot, game):
    dialog = AgentDialog(integrations_dir() / game, None, None, settings=Settings())
    qtbot.addWidget(dialog)
    assert (dialog.agent_box.currentText(), dialog.episodes_box.value(), dialog.steps_box.value()) == (SANITY, 1, 4500)
    run(qtbot, dialog)
    report = dialog.report
    (episode,) = report.episodes
    assert episode.terminated and episode.length == 899 and report.extended_from is None
    assert np.count_nonzero(episode.rewards) > 50 and episode.total > 0  # the score changed, many times
    assert dialog.table.item(0, 3).text() == episode.done_reason
    assert dialog.summary.text().startswith("1 episode: done fired after 899 steps")
    sent = dict(zip(report.buttons, episode.keys(len(report.buttons)).T, strict=True))
    assert not sent["START"].any() and not sent.get("SELECT", sent["START"]).any()
    for direction in DIRECTIONS:  # every direction held, Down too, for at least 8 steps in a row
        assert longest_press(sent[direction]) >= 8, direction
    shot(dialog, f"preset-{game}")
    dialog.close()


def test_the_budget_is_extended_once_and_said(qtbot):
    dialog = AgentDialog(integrations_dir() / "StudioDemo-Nes", None, None, settings=Settings())
    qtbot.addWidget(dialog)
    type_into(qtbot, dialog.steps_box, 500)  # the game lasts 899 steps: not enough
    said: list[str] = []
    dialog._bridge.extended.connect(lambda _budget: said.append(dialog.status.text()))
    run(qtbot, dialog)
    assert said == ["No episode ended within 500 steps: playing again with the budget extended once, to 1,000 steps..."]
    report = dialog.report
    assert report.extended_from == 500 and report.max_steps == 1000
    assert dialog.summary.text() == (
        "No episode ended within 500 steps: the budget was extended once, to 1,000 steps. 1 episode: done fired "
        f"after 899 steps (15.0 s at the earliest), by lives == 0 (is 0); return {report.episodes[0].total:,.0f}.")
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, 2).text() == "899"  # the first try's row went
    shot(dialog, "preset-extended")
    dialog.close()
    # extended once only: 300 steps become 600, still short of the game's end, and the run says both
    short = run_episodes("StudioDemo-Nes", agent=SanityAgent(0), max_steps=300)
    assert short.extended_from == 300 and short.lengths == [600] and not short.episodes[0].terminated
    assert short.summary.startswith("No episode ended within 300 steps: the budget was extended once, to 600 "
                                    "steps. 1 episode: done never fired within 600 steps; return ")
    assert "all at max steps" in short.flag_names
    # another agent plays the budget asked for
    assert run_episodes("StudioDemo-Nes", agent=SanityAgent(0), max_steps=300, extend=False).lengths == [300]


def test_the_dialog_reopens_with_the_last_choices(qtbot, window, tmp_path):
    """Through the window's Tools > Run an agent (a modal dialog, answered from a timer)."""
    opened: list[tuple[str, int, int, int]] = []

    def answer(change: bool) -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, AgentDialog)
        opened.append((dialog.agent_box.currentText(), dialog.episodes_box.value(), dialog.steps_box.value(),
                       dialog.seed_box.value()))
        if change:
            dialog.agent_box.setFocus()
            dialog.agent_box.setCurrentText("Idle")
            type_into(qtbot, dialog.episodes_box, 2)
            type_into(qtbot, dialog.steps_box, 120)
            type_into(qtbot, dialog.seed_box, 7)
            run(qtbot, dialog)
            assert dialog.report.lengths == [120, 120]
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    QTimer.singleShot(100, lambda: answer(True))
    window.menu_actions["run_agent"].trigger()
    QTimer.singleShot(100, lambda: answer(False))
    window.menu_actions["run_agent"].trigger()
    assert opened == [(SANITY, 1, 4500, 0), ("Idle", 2, 120, 7)]
    window.settings.save(tmp_path)  # and after a restart
    again = RunChoices.from_dict(Settings.load(tmp_path).agent_run)
    assert (again.agent, again.episodes, again.max_steps, again.seed) == ("Idle", 2, 120, 7)
    (tmp_path / "settings.json").write_text(json.dumps({"agent_run": {"agent": "Nope", "max_steps": True,
                                                                      "episodes": 10**30, "seed": 3}}))
    edited = RunChoices.from_dict(Settings.load(tmp_path).agent_run)  # a hand-edited file: what is wrong is the default
    assert (edited.agent, edited.episodes, edited.max_steps, edited.seed) == (SANITY, 1, 4500, 3)
    dialog = AgentDialog(window.session.folder, None, window, settings=Settings.load(tmp_path))
    qtbot.addWidget(dialog)
    assert (dialog.agent_box.currentText(), dialog.episodes_box.value(), dialog.seed_box.value()) == (SANITY, 1, 3)
    dialog.close()


def test_the_preset_on_airstriker(qtbot, airstriker):
    """A real game: stable-retro's Airstriker, with the dialog's defaults."""
    dialog = AgentDialog(airstriker, None, None, settings=Settings())
    qtbot.addWidget(dialog)
    run(qtbot, dialog)
    (episode,) = dialog.report.episodes
    assert episode.terminated and "gameover == 1" in episode.done_reason and episode.total > 0
    dialog.close()


def shot(dialog: AgentDialog, name: str) -> None:
    """Screenshots of the dialog at two sizes, when SHOTS names a folder."""
    folder = os.environ.get("SHOTS")
    if not folder:
        return
    for width, height in ((900, 560), (1300, 760)):
        dialog.resize(width, height)
        dialog.show()
        QApplication.processEvents()
        dialog.grab().save(str(Path(folder) / f"{name}-{width}.png"))
