"""Integrations the studio creates are first-class: found by name, listed, and run by folder."""

from __future__ import annotations

import pytest

import emucore
from emucore import data
from studio.model.agents import BruteAgent, RandomAgent, run_episodes
from studio.model.play.session import Session


def test_a_bare_rom_becomes_a_game_emucore_finds(ale_rom, tmp_path):
    session = Session(ale_rom("pong", "Video Olympics (1977).a26"))
    session.emulator.close()
    assert session.created and session.folder == tmp_path / "data" / "integrations" / "VideoOlympics-Atari2600"
    assert "VideoOlympics-Atari2600" in data.list_games()
    env = emucore.make("VideoOlympics-Atari2600")
    assert env.reset(seed=0)[0].shape == (210, 160, 3)
    env.close()
    listed = {g.name: g for g in data.find_games()}
    assert listed["VideoOlympics-Atari2600"].has_rom and listed["VideoOlympics-Atari2600"].system == "Atari2600"


def test_make_takes_a_game_folder(ale_rom, tmp_path):
    session = Session(ale_rom("breakout", "Breakout.a26"))
    session.emulator.close()
    env = emucore.make(session.folder)
    assert env.gamename == "Breakout-Atari2600" and env.reset(seed=0)[0].shape == (210, 160, 3)
    env.close()
    with pytest.raises(FileNotFoundError, match="Nope-Atari2600"):
        emucore.make(str(tmp_path / "data" / "integrations" / "Nope-Atari2600"))


def test_agents_run_a_studio_created_integration_by_folder(ale_rom):
    session = Session(ale_rom("pong", "Pong.a26"))
    session.emulator.close()
    for agent in (RandomAgent(0), BruteAgent(seed=0)):
        report = run_episodes(session.folder, agent=agent, episodes=1, max_steps=40)
        assert report.game == "Pong-Atari2600" and report.lengths == [40]


def test_the_game_list_shows_studio_created_integrations(qtbot, ale_rom):
    from PySide6.QtCore import Qt

    from studio.qt.game_list import GameListDialog

    Session(ale_rom("pong", "Pong.a26")).emulator.close()
    dialog = GameListDialog()
    qtbot.addWidget(dialog)
    dialog.search.setText("Pong-Atari2600")
    names = [dialog.proxy.index(r, 0).data() for r in range(dialog.proxy.rowCount())]
    assert "Pong-Atari2600" in names
    row = names.index("Pong-Atari2600")
    assert dialog.proxy.index(row, 2).data() == "yes"
    assert dialog.proxy.index(row, 0).data(Qt.ItemDataRole.UserRole).endswith("Pong-Atari2600")


def test_the_agent_dialog_runs_the_open_integration(qtbot, ale_rom):
    from studio.qt.agent_dialog import AgentDialog

    session = Session(ale_rom("pong", "Pong.a26"))
    session.close()
    dialog = AgentDialog(session.folder, None)
    qtbot.addWidget(dialog)
    dialog.agent_box.setCurrentText("Brute")
    assert dialog.agent_box.currentText() == "Brute"
    dialog.episodes_box.setValue(1)
    dialog.steps_box.setValue(30)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=20000)
    assert dialog.report.game == "Pong-Atari2600" and dialog.report.lengths == [30]
    dialog.close()
