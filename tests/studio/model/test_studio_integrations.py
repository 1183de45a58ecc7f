"""Integrations the studio creates are first-class: found by name, listed, and run by folder (in the game list
and the Run agent dialog: ``tests/studio/qt/test_studio_integrations.py``)."""

from __future__ import annotations

import pytest

import emucore
from emucore import data
from studio.model.agents.agent_run import BruteAgent, RandomAgent, run_episodes
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
