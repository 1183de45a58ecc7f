"""Record and replay with real cores: identical RAM and frames at every step; the recorder; the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emucore.cli.playback import main
from emucore.env import MoviePlayer, replay
from emucore.host.emulator import Emulator
from emucore.movie import Movie, MovieError, MovieRecorder
from emucore.movie.columns import columns_for
from tests.conftest import GENESIS_ROM, NES_ROM
from tests.emucore.movie import record_with_env


@pytest.mark.parametrize(("game", "players"), [("StudioDemo-Genesis", 1), ("StudioDemo-Nes", 2)])
def test_env_recording_replays_identically(tmp_path: Path, game: str, players: int) -> None:
    rec = record_with_env(game, tmp_path, 300, seed=7, players=players)
    movie = Movie(rec.path)
    assert movie.players == players and movie.frame_count == 301 and movie.get_game() == game
    recordable = sum(1 << c.index for c in columns_for(movie.system))  # buttons without a char are not recorded
    assert movie.get_masks().tolist() == [[0] * players] + [[m & recordable for m in row] for row in rec.masks]
    with MoviePlayer(rec.path) as player:
        assert np.array_equal(player.env.get_ram(), rec.rams[0])
        assert np.array_equal(player.observation, rec.frames[0])
        total = 0.0
        for step in player:
            assert np.array_equal(player.env.get_ram(), rec.rams[step.index]), f"RAM differs at step {step.index}"
            assert np.array_equal(step.observation, rec.frames[step.index]), f"frame differs at step {step.index}"
            total += float(step.reward[0] if players > 1 else step.reward)  # 2 players: [r0, r1]
        assert player.steps == 300
    assert total == rec.total_reward and step.info == rec.final_info


def test_env_recording_from_power_on_replays_identically(tmp_path: Path) -> None:
    import emucore

    rec = record_with_env("StudioDemo-Genesis", tmp_path, 120, seed=3, state=emucore.State.NONE)
    with MoviePlayer(rec.path) as player:
        for step in player:
            assert np.array_equal(player.env.get_ram(), rec.rams[step.index]), f"RAM differs at step {step.index}"
            assert np.array_equal(step.observation, rec.frames[step.index]), f"frame differs at step {step.index}"
        assert player.steps == 120


@pytest.mark.parametrize(("rom", "game"), [(GENESIS_ROM, "StudioDemo-Genesis"), (NES_ROM, "StudioDemo-Nes")])
def test_recorder_from_power_on_replays_identically(tmp_path: Path, rom: Path, game: str) -> None:
    rng = np.random.default_rng(11)
    path = tmp_path / "take.bk2"
    rams, screens = [], []
    with Emulator(rom) as emu:
        recorder = MovieRecorder(path, emu, game)  # power-on: the current state is serialized
        for frame in range(250):
            mask = 0 if frame == 0 else int(rng.integers(0, 1 << emu.system.num_buttons))
            recorder.record_frame([mask])
            emu.set_button_mask(mask, 0)
            emu.step()
            rams.append(emu.get_ram().copy())
            screens.append(emu.get_screen().copy())
        assert recorder.frame_count == 250
        assert recorder.close() == path
        recorder.close()
    movie = Movie(path)
    assert movie.frame_count == 250 and len(movie.get_state()) > 0
    with MoviePlayer(path) as player:
        assert np.array_equal(player.env.get_ram(), rams[0])
        for step in player:
            assert np.array_equal(player.env.get_ram(), rams[step.index]), f"RAM differs at frame {step.index}"
            assert np.array_equal(player.env.em.get_screen(), screens[step.index])
        assert player.steps == 249


def test_recorder_warns_about_a_pressed_first_frame(tmp_path: Path) -> None:
    with Emulator(NES_ROM) as emu:
        recorder = MovieRecorder(tmp_path / "m.bk2", emu, "StudioDemo-Nes", start_state=emu.get_state())
        with pytest.warns(UserWarning, match="reset frame"):
            recorder.record_frame([1 << 8])
        with pytest.raises(ValueError):
            recorder.record_frame([0, 0])
        recorder.discard()
    assert not (tmp_path / "m.bk2").exists()


def test_replay_summary_info_csv_and_ending(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record_with_env("StudioDemo-Genesis", tmp_path / "rec", 120, seed=3, keep_frames=False)
    info_path = tmp_path / "out" / "steps.jsonl"
    summary = replay(rec.path, info=info_path, ending=10)
    assert summary.frames == 121 and summary.steps == 130 and summary.game == "StudioDemo-Genesis"
    lines = [json.loads(line) for line in info_path.read_text().splitlines()]
    assert len(lines) == 130 and lines[0]["step"] == 1 and set(lines[0]) == {"step", "reward", "terminated", "info"}
    assert lines[119]["info"] == rec.final_info
    assert sum(line["reward"] for line in lines[:120]) == rec.total_reward

    csv_path = tmp_path / "monitor.csv"
    code = main([str(rec.path), str(rec.path), "--csv", str(csv_path), "--progress"])
    assert code == 0
    out, err = capsys.readouterr()
    assert "121 frames (120 steps)" in out and f"total reward {rec.total_reward:g}" in out
    assert "final info" in out and "total: 2 movies" in out
    assert "120/120" in err  # the progress bar
    rows = csv_path.read_text().splitlines()
    assert rows[0] == '#{"t_start": 0.0, "gym_version": "gym_retro", "env_id": "StudioDemo-Genesis"}'
    assert rows[1] == "r,l,t" and rows[2] == f"{rec.total_reward},120,2.0" and len(rows) == 4


def test_episode_ends_go_to_the_monitor_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario that is done from frame 40 on: one episode end, then the rest as a last row."""
    folder = tmp_path / "data" / "MovieDone-Genesis"
    folder.mkdir(parents=True)
    source = GENESIS_ROM.parent
    for name in ("rom.md", "rom.sha", "data.json", "Start.state", "metadata.json"):
        (folder / name).write_bytes((source / name).read_bytes())
    done = {"done": {"variables": {"frame": {"op": "greater-than", "reference": 40}}},
            "reward": {"variables": {"score": {"reward": 1.0}}}}
    (folder / "scenario.json").write_text(json.dumps(done))
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(tmp_path / "data"))
    rec = record_with_env("MovieDone-Genesis", tmp_path / "rec", 100, seed=1, keep_frames=False)
    csv_path = tmp_path / "m.csv"
    assert main([str(rec.path), "--csv", str(csv_path), "--no-progress"]) == 0
    rows = csv_path.read_text().splitlines()[2:]
    lengths = [int(row.split(",")[1]) for row in rows]
    assert len(rows) == 2 and sum(lengths) == 100 and lengths[0] < 100
    summary = replay(rec.path)
    assert [length for _, length in summary.episodes] == lengths[:1]


def test_fm2_plays_with_a_game_and_a_state(tmp_path: Path) -> None:
    rec = record_with_env("StudioDemo-Nes", tmp_path / "rec", 150, seed=12, players=2, keep_frames=False)
    nes = Movie(rec.path).system
    assert nes is not None
    order = ["RIGHT", "LEFT", "DOWN", "UP", "START", "SELECT", "B", "A"]
    lines = ["version 3", "emuVersion 22020", "romFilename demo", "port0 1", "port1 1", "port2 0"]
    for row in Movie(rec.path).get_masks():
        fields = ["".join(c if int(m) >> nes.buttons.index(n) & 1 else "." for c, n in zip("RLDUTSBA", order))
                  for m in row]
        lines.append(f"|0|{fields[0]}|{fields[1]}||")
    path = tmp_path / "demo.fm2"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MovieError, match="names no game"):
        MoviePlayer(path)
    with pytest.raises(MovieError, match=r"\.fm2 movie has no start state"):
        MoviePlayer(path, game="StudioDemo-Nes")
    with MoviePlayer(path, game="StudioDemo-Nes", state="Start") as player:
        assert player.movie.players == 2
        for _ in player:
            pass
        assert np.array_equal(player.env.get_ram(), rec.rams[-1])
    assert main([str(path), "--game", "StudioDemo-Nes", "--power-on", "--no-progress"]) == 0


def test_replay_without_observations_gives_the_same_totals(tmp_path: Path) -> None:
    rec = record_with_env("StudioDemo-Genesis", tmp_path, 200, seed=21, keep_frames=False)
    fast = replay(rec.path)
    full = replay(rec.path, info=tmp_path / "steps.jsonl")
    assert fast.steps == full.steps == 200
    assert fast.total_reward == full.total_reward == rec.total_reward
    assert fast.final_info == full.final_info == rec.final_info
