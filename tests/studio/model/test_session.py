"""The studio's Session without Qt: slots, named states, rewind, movies, new integrations, reset."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emucore import Emulator
from emucore.movie import Movie
from emucore.paths import integrations_dir
from emucore.systems import get_system
from studio.model.opening import integration_name_for
from studio.model.play.session import Session
from studio.model.settings import Settings
from tests.conftest import NES_ROM

B, RIGHT = 1, 1 << 7


@pytest.fixture
def session(demo):
    rom, state = demo
    s = Session(rom, state)
    yield s
    s.close()


def score(session: Session) -> int:
    return session.emulator.read(0xFF0000, ">u4")


def test_slots_round_trip(session):
    session.set_buttons(0, B)
    session.advance(20)
    session.save_slot(3)
    ram = session.emulator.get_ram().copy()
    session.advance(30)
    assert score(session) == 50
    assert session.load_slot(3)
    assert np.array_equal(session.emulator.get_ram(), ram) and score(session) == 20
    assert not session.load_slot(4)
    info = session.states.slot_info(3)
    assert info.frame == 20 and info.thumbnail is not None and info.thumbnail.shape[2] == 3


def test_named_states_live_in_the_integration(session, tmp_path):
    session.set_buttons(0, B)
    session.advance(7)
    session.save_state("SevenPoints")
    assert (session.folder / "SevenPoints.state").exists()
    session.advance(5)
    session.load_state("SevenPoints")
    assert score(session) == 7
    session.states.rename("SevenPoints", "Seven")
    session.states.set_default("Seven")
    assert json.loads((session.folder / "metadata.json").read_text())["default_state"] == "Seven"
    assert [i.name for i in session.states.infos() if i.is_default] == ["Seven"]
    session.states.delete("Seven")
    assert not (session.folder / "Seven.state").exists()
    session.states.set_default("Start")
    with pytest.raises(ValueError):
        session.save_state("../escape")


def test_rewind_goes_back_exactly(session):
    session.set_buttons(0, B | RIGHT)
    session.advance(60)
    assert score(session) == 60
    went = session.rewind_frames(20)
    assert went == 20 and session.frame == 40 and score(session) == 40
    assert session.emulator.read(0xFF000A, ">u2") == 152 + 40


def test_recorded_movie_replays_identically(session, tmp_path):
    path = tmp_path / "take.bk2"
    session.movies.start_recording(path)
    rng = np.random.default_rng(0)
    rams = []
    for mask in rng.integers(0, 1 << 12, 120):
        session.set_buttons(0, int(mask))
        session.advance(1)
        rams.append(session.emulator.get_ram().copy())
    assert session.movies.status.startswith("recording")
    assert session.movies.stop_recording() == path
    movie = Movie(path)
    assert movie.frame_count == 121 and movie.get_game() == session.name  # line 0: the reset frame
    session.movies.play(path)
    replayed = []
    for _ in range(120):
        session.advance(1)
        replayed.append(session.emulator.get_ram().copy())
    assert len(replayed) == len(rams) and all(np.array_equal(a, b) for a, b in zip(replayed, rams))
    session.advance(1)  # past the end: playback stops and the game pauses
    assert session.movies.player is None and session.paused


def test_a_bare_rom_gets_a_new_integration(tmp_path):
    rom = tmp_path / "super mario bros (world).nes"
    rom.write_bytes(NES_ROM.read_bytes())
    assert integration_name_for(rom, get_system("Nes")) == "SuperMarioBros-Nes"
    session = Session(rom)
    try:
        assert session.created and session.name == "SuperMarioBros-Nes"
        assert (session.folder / "rom.nes").exists() and (session.folder / "rom.sha").exists()
    finally:
        session.close()
    with Emulator(session.folder / "rom.nes") as emu:
        emu.step()


def test_speed_and_pause(session):
    session.set_speed(4.0)
    assert session.speed == 4.0
    session.set_speed(0)
    assert session.speed > 100
    session.set_paused(True)
    assert session.tick() == 0


def test_settings_survive_a_round_trip_and_a_corrupt_file(tmp_path):
    settings = Settings()
    settings.add_recent("a")
    settings.add_recent("b")
    settings.volume = 0.3
    settings.save(tmp_path)
    loaded = Settings.load(tmp_path)
    assert loaded.recent == ["b", "a"] and loaded.volume == 0.3
    (tmp_path / "settings.json").write_text("{broken")
    assert Settings.load(tmp_path) == Settings()
    assert (tmp_path / "settings.json.bad").exists()


def test_studio_movie_replays_in_emucore_and_stable_retro(session, tmp_path):
    from emucore.env import MoviePlayer

    path = tmp_path / "studio.bk2"
    session.set_buttons(0, B)
    session.advance(5)
    session.movies.start_recording(path)
    rams = []
    for mask in np.random.default_rng(4).integers(0, 1 << 12, 90):
        session.set_buttons(0, int(mask))
        session.advance(1)
        rams.append(session.emulator.get_ram().copy())
    session.movies.stop_recording()
    with MoviePlayer(path) as player:
        for step in player:
            assert np.array_equal(player.env.get_ram(), rams[step.index - 1])
    retro = pytest.importorskip("stable_retro")

    retro.data.Integrations.add_custom_path(str(integrations_dir()))
    movie = retro.Movie(str(path))
    movie.step()
    env = retro.make(movie.get_game(), state=retro.State.NONE, use_restricted_actions=retro.Actions.ALL,
                     inttype=retro.data.Integrations.ALL, render_mode=None)
    try:
        env.initial_state = movie.get_state()
        env.reset()
        index = 0
        while movie.step():
            keys = [movie.get_key(i, 0) for i in range(env.num_buttons)]
            env.step(keys)
            assert np.array_equal(env.get_ram(), rams[index])
            index += 1
        assert index == 90
    finally:
        env.close()


def test_episode_recording_writes_one_movie_per_episode(session, tmp_path):
    scenario = {"done": {"variables": {"frame": {"op": "greater-or-equal", "reference": 30}}},
                "reward": {"variables": {"score": {"reward": 1.0}}}}
    (session.folder / "scenario.json").write_text(json.dumps(scenario))
    folder = tmp_path / "episodes"
    session.movies.start_episode_recording(folder)
    session.set_buttons(0, B)
    session.advance(100)
    session.movies.stop_recording()
    movies = sorted(folder.glob("*.bk2"))
    assert [m.name for m in movies][:3] == [f"StudioDemo-Genesis-Start-00000{i}.bk2" for i in range(3)]
    assert len(movies) == 4
    lengths = [Movie(m).frame_count for m in movies]
    assert lengths[:3] == [30, 30, 30]  # the reset frame, then game frames 1..29 (done at 30)


def test_restart_goes_to_the_state_made_default_and_to_the_state_loaded(demo):
    """Ctrl+R (reset_to_start): once a state is made the default it goes there; after States >
    Load, to the state loaded."""
    from studio.model.play.session import Session

    rom, state = demo
    session = Session(rom, state)
    session.advance(40)
    session.save_state("Later")
    later = session.emulator.get_state()
    session.reset_to_start()
    assert session.emulator.get_state() != later
    session.states.set_default("Later")
    assert session.notice == "Ctrl+R now goes back to Later" and session.state_name == "Later"
    session.advance(25)
    session.reset_to_start()
    assert session.emulator.get_state() == later
    session.advance(10)
    session.save_state("Other")
    other = session.emulator.get_state()
    session.advance(10)
    session.load_state("Other")
    session.advance(5)
    session.reset_to_start()
    assert session.emulator.get_state() == other
    session.close()


def test_reset_goes_to_the_state_last_loaded_after_a_bare_rom_start(nes_rom, tmp_path):
    rom = tmp_path / "My Game.nes"
    rom.write_bytes(nes_rom.read_bytes())
    session = Session(rom)  # a bare ROM: power-on
    try:
        session.set_buttons(0, 0x80)  # right
        session.advance(60)
        session.save_state("Walked")
        walked = session.emulator.get_ram().copy()
        session.states.set_default("Walked")
        session.advance(60)
        session.load_state("Walked")
        session.advance(30)
        session.reset_to_start()
        assert np.array_equal(session.emulator.get_ram(), walked) and session.frame == 0
        session.hard_reset()
        session.advance(5)
        session.reset_to_start()  # the console's reset loads nothing: still "Walked"
        assert np.array_equal(session.emulator.get_ram(), walked)
    finally:
        session.close()
