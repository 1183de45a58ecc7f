"""Interop with stable-retro 1.0.1: its movies play in emucore, ours in stable-retro, and the bytes match.

stable-retro keeps one emulator per process: each test closes its stable-retro env before making another.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.env import MoviePlayer
from emucore.host.emulator import Emulator
from emucore.movie import Movie, MovieRecorder
from emucore.paths import integrations_dir
from tests.conftest import GENESIS_ROM
from tests.emucore.movie import entries, record_with_env

retro = pytest.importorskip("stable_retro")


@pytest.fixture(autouse=True)
def _our_integrations() -> None:
    retro.data.Integrations.add_custom_path(str(integrations_dir()))


def _theirs(game: str, **kwargs):
    return retro.make(game, inttype=retro.data.Integrations.ALL, render_mode=None, **kwargs)


def _play_in_stable_retro(path: Path) -> tuple[np.ndarray, float, int]:
    """stable-retro's playback_movie loop (without its video): final RAM, total reward, steps."""
    movie = retro.Movie(str(path))
    movie.step()
    env = _theirs(movie.get_game(), state=retro.State.NONE, use_restricted_actions=retro.Actions.ALL,
                  players=movie.players)
    try:
        env.initial_state = movie.get_state()
        env.reset()
        total, steps = 0.0, 0
        while movie.step():
            keys = [movie.get_key(i, p) for p in range(movie.players) for i in range(env.num_buttons)]
            _, reward, _, _, _ = env.step(keys)
            total += float(reward[0] if isinstance(reward, (list, tuple)) else reward)
            steps += 1
        return env.get_ram().copy(), total, steps
    finally:
        env.close()


def test_stable_retro_recording_replays_in_emucore(airstriker: Path, tmp_path: Path) -> None:
    env = _theirs("Airstriker-Genesis-v0", record=str(tmp_path))
    rng = np.random.default_rng(2)
    try:
        env.reset(seed=0)
        total = 0.0
        for _ in range(300):
            _, reward, _, _, _ = env.step(rng.integers(0, 2, env.num_buttons, dtype=np.int8))
            total += float(reward)
        final_ram = env.get_ram().copy()
    finally:
        env.stop_record()  # writes the movie
        env.close()
    (path,) = tmp_path.glob("*.bk2")
    with MoviePlayer(path) as player:
        ours = sum(float(step.reward) for step in player)
        assert player.steps == 300
        assert np.array_equal(player.env.get_ram(), final_ram)
    assert ours == total


@pytest.mark.parametrize(("game", "players"), [("Airstriker-Genesis-v0", 1), ("StudioDemo-Nes", 2)])
def test_emucore_recording_replays_in_stable_retro(airstriker: Path, tmp_path: Path, game: str, players: int) -> None:
    rec = record_with_env(game, tmp_path, 250, seed=4, players=players, keep_frames=False)
    ram, total, steps = _play_in_stable_retro(rec.path)
    assert steps == 250
    assert np.array_equal(ram, rec.rams[-1])
    assert total == rec.total_reward


def test_recorder_power_on_movie_plays_in_stable_retro(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    path = tmp_path / "take.bk2"
    with Emulator(GENESIS_ROM) as emu:
        with MovieRecorder(path, emu, "StudioDemo-Genesis") as recorder:
            for frame in range(150):
                mask = 0 if frame == 0 else int(rng.integers(0, 1 << 12))
                recorder.record_frame([mask])
                emu.set_button_mask(mask, 0)
                emu.step()
        expected = emu.get_ram().copy()
    ram, _, steps = _play_in_stable_retro(path)
    assert steps == 149 and np.array_equal(ram, expected)


@pytest.mark.parametrize(("game", "players"), [("StudioDemo-Genesis", 1), ("StudioDemo-Genesis", 2),
                                               ("StudioDemo-Nes", 1), ("StudioDemo-Nes", 2)])
def test_written_bytes_equal_stable_retros(tmp_path: Path, game: str, players: int) -> None:
    rng = np.random.default_rng(players)
    theirs_env = _theirs(game, players=players)
    try:
        num_buttons = theirs_env.num_buttons
        masks = rng.integers(0, 1 << num_buttons, size=(60, players))
        state = theirs_env.initial_state
        theirs = retro.Movie(str(tmp_path / "theirs.bk2"), True, players)
        theirs.configure(game, theirs_env.em)
        theirs.set_state(state)
        for row in masks:
            for p in range(players):
                for i in range(num_buttons):
                    theirs.set_key(i, bool(row[p] >> i & 1), p)
            theirs.step()
        theirs.close()
        del theirs
    finally:
        theirs_env.close()
    ours_env = emucore.make(game, players=players, inttype=emucore.data.Integrations.ALL)
    try:
        with Movie(tmp_path / "ours.bk2", True, players) as ours:
            ours.configure(game, ours_env.em)
            ours.set_state(state)
            for row in masks:
                for p in range(players):
                    for i in range(num_buttons):
                        ours.set_key(i, bool(row[p] >> i & 1), p)
                ours.step()
    finally:
        ours_env.close()
    a, b = entries(tmp_path / "theirs.bk2"), entries(tmp_path / "ours.bk2")
    assert list(a) == list(b) == ["Input Log.txt", "Header.txt", "Core.bin"]
    assert b["Input Log.txt"].decode() == a["Input Log.txt"].decode()
    assert b["Header.txt"].decode() == a["Header.txt"].decode()
    assert b["Core.bin"] == a["Core.bin"]
    # and each reads the other's file the same way
    for path in (tmp_path / "theirs.bk2", tmp_path / "ours.bk2"):
        mine, other = Movie(path), retro.Movie(str(path))
        assert mine.players == other.players == players and mine.get_game() == other.get_game() == game
        while other.step():
            assert mine.step()
            assert [mine.get_key(i, p) for p in range(players) for i in range(16)] == [
                other.get_key(i, p) for p in range(players) for i in range(16)
            ]
        assert not mine.step()
