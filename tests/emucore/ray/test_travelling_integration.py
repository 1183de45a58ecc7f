"""The package an integration travels in: the files make() reads, from every kind of place, and back."""

from __future__ import annotations

import io
import shutil
import zipfile

import numpy as np
import pytest

import emucore
from emucore.paths import integrations_dir
from emucore.ray.package import cache_root, game_files, pack_integration

ALL = emucore.data.Integrations.ALL


def first_frames(game: str, steps: int = 30, **kwargs) -> tuple[bytes, float]:
    env = emucore.make(game, **kwargs)
    try:
        env.reset(seed=0)
        total = 0.0
        for step in range(steps):
            obs, reward, *_ = env.step(np.array([step % 2] * env.num_buttons, dtype=np.int8))
            total += float(reward)
        return obs.tobytes(), total
    finally:
        env.close()


def unpacked_equals_original(game: str, tmp_path, **kwargs) -> None:
    package = pack_integration(game, **kwargs)
    folder = package.unpack(tmp_path / "node")
    assert folder.name == emucore.data.game_name(game)
    assert first_frames(str(folder), **package.rewrite_paths(package.kwargs, folder)) == first_frames(game, **kwargs)


def test_our_integration_by_name(tmp_path):
    unpacked_equals_original("StudioDemo-Genesis", tmp_path, inttype=ALL)
    payload = pack_integration("StudioDemo-Genesis", inttype=ALL).payload
    names = set(zipfile.ZipFile(io.BytesIO(payload)).namelist())
    assert names == {f"StudioDemo-Genesis/{f}" for f in
                     ("Start.state", "data.json", "metadata.json", "rom.md", "rom.sha", "scenario.json")}


def test_stable_retro_data(airstriker, tmp_path):
    unpacked_equals_original("Airstriker-Genesis-v0", tmp_path, state="Level1", inttype=ALL)


def test_a_custom_path(clean_data_state, tmp_path):
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", tmp_path / "custom" / "MyOwn-Nes")
    emucore.data.Integrations.add_custom_path(str(tmp_path / "custom"))
    unpacked_equals_original("MyOwn-Nes", tmp_path, inttype=emucore.data.Integrations.ALL)


def test_a_folder_with_a_state_and_scenario_given_by_path(tmp_path):
    folder = tmp_path / "Studio" / "StudioDemo-Nes"  # as the studio has it open
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    state = tmp_path / "saved" / "boss.state"
    state.parent.mkdir()
    shutil.copy(folder / "Start.state", state)
    scenario = tmp_path / "frames.json"
    scenario.write_text('{"reward": {"variables": {"frame": {"reward": 1.0}}}}')
    package = pack_integration(str(folder), state=str(state), scenario=str(scenario))
    assert package.kwargs["state"] == "_given/state-boss.state"
    assert package.kwargs["scenario"] == "_given/scenario-frames.json"
    unpacked_equals_original(str(folder), tmp_path, state=str(state), scenario=str(scenario))
    assert first_frames(str(folder), state=str(state), scenario=str(scenario))[1] == 30.0


def test_unpacking_twice_reuses_the_first(tmp_path, monkeypatch):
    monkeypatch.setenv("EMUCORE_RAY_CACHE", str(tmp_path / "cache"))
    package = pack_integration("StudioDemo-Nes", inttype=ALL)
    folder = package.unpack()
    assert folder.parent.parent == cache_root() == tmp_path / "cache"
    marker = folder / "marker"
    marker.write_text("kept")
    assert package.unpack() == folder and marker.exists()
    assert pack_integration("StudioDemo-Nes", inttype=ALL).digest == package.digest  # the content names it


def test_what_cannot_travel_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="No romfiles found for game: Missing-Nes"):
        pack_integration("Missing-Nes", inttype=ALL)
    with pytest.raises(FileNotFoundError, match=r"state='/nowhere/x.state': no such file"):
        pack_integration("StudioDemo-Nes", inttype=ALL, state="/nowhere/x.state")
    assert set(game_files("StudioDemo-Nes", ALL)) >= {"rom.nes", "rom.sha", "data.json"}
