"""stable-retro 1.0.1's names that emucore lacked: ``retro.ROOT_DIR``, ``retro.data.DATA_PATH`` (so that
``<DATA_PATH>/data/stable/<game>`` is a game's folder), ``init_core_info`` and ``load_core_info`` (core info
JSON changes the systems emulators use), and ``StateNotFoundError`` caught as stable-retro's ``TypeError``.

Process-wide tables are changed in subprocesses, or put back after the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import emucore
import emucore.systems
from emucore.data import data_path_parent
from emucore.errors import StateNotFoundError
from tests.conftest import ROOT, airstriker_folder, require_core


def run_python(code: str) -> None:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=240, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_root_dir_is_the_package_folder():
    assert os.path.samefile(emucore.ROOT_DIR, Path(emucore.__file__).parent)
    assert os.path.isabs(emucore.ROOT_DIR)


def test_data_path_join_finds_stable_and_contrib_games(clean_data_state):
    folder = airstriker_folder()
    if folder is None:
        pytest.skip("stable-retro (with Airstriker-Genesis-v0) is not installed")
    assert emucore.data.DATA_PATH == data_path_parent() == str(folder.parents[2])
    stable = os.path.join(emucore.data.DATA_PATH, "data", "stable", "Airstriker-Genesis-v0")
    assert os.path.samefile(stable, folder) and os.path.isfile(os.path.join(stable, "rom.md"))
    contrib = Path(emucore.data.path(), "contrib")
    game = sorted(p.name for p in contrib.iterdir() if (p / "rom.sha").is_file())[0]
    assert os.path.isfile(os.path.join(emucore.data.DATA_PATH, "data", "contrib", game, "rom.sha"))


def test_data_path_follows_a_retro_data_path_named_data(clean_data_state, tmp_path, monkeypatch):
    game = tmp_path / "mine" / "data" / "stable" / "MyGame-Genesis"
    game.mkdir(parents=True)
    monkeypatch.setenv("RETRO_DATA_PATH", str(tmp_path / "mine" / "data"))
    found = emucore.data.DATA_PATH
    assert found == str(tmp_path / "mine")
    assert os.path.isdir(os.path.join(found, "data", "stable", "MyGame-Genesis"))
    # a data root by another name has no DATA_PATH layout: stable-retro's own folder then, as in stable-retro
    monkeypatch.setenv("RETRO_DATA_PATH", str(tmp_path / "mine"))
    folder = airstriker_folder()
    found = emucore.data.DATA_PATH
    assert found == (str(folder.parents[2]) if folder is not None else None)


def test_load_core_info_changes_the_systems_emulators_use(monkeypatch):
    monkeypatch.setattr(emucore.systems, "_LOADED", {})
    genesis = emucore.systems.get_system("Genesis")
    assert genesis.cores[0] == "genesis_plus_gx"
    entry = {"Genesis": {"lib": "picodrive", "ext": ["md", "gen"]}}
    assert emucore.Emulator.load_core_info(json.dumps(entry)) is True
    changed = emucore.systems.get_system("Genesis")
    assert changed.cores == ("picodrive", "genesis_plus_gx") and changed.extensions == ("md", "gen")
    assert changed.buttons == genesis.buttons and changed.rambase == genesis.rambase  # fields not given stay
    assert emucore.systems.system_for_path("game.gen").name == "Genesis"
    for bad in ("not json", "[]", '{"X": {"ext": ["x"]}}', '{"X": {"lib": "l", "ext": ["x"], "buttons": [1]}}'):
        assert emucore.RetroEmulator.load_core_info(bad) is False
    assert emucore.systems.get_system("Genesis") == changed and "X" not in emucore.systems.systems()


def test_init_core_info_adds_a_system_that_runs(tmp_path, genesis_rom):
    """In a subprocess: init_core_info changes process-wide tables."""
    require_core("genesis_plus_gx")
    info = {"MyGenesis": {"lib": "genesis_plus_gx", "ext": ["gen"], "rambase": 0xFF0000, "overlay": ["=", ">", 2],
                          "buttons": ["B", "A", "MODE", "START", "UP", "DOWN", "LEFT", "RIGHT", "C", "Y", "X", "Z"]}}
    (tmp_path / "cores").mkdir()
    (tmp_path / "cores" / "mine.json").write_text(json.dumps(info))
    shutil.copy(genesis_rom, tmp_path / "game.gen")
    run_python(f"""
        import emucore, emucore.data
        stable = emucore.data.EMU_INFO["Genesis"]
        emucore.data.init_core_info({str(tmp_path / "cores")!r})
        assert emucore.data.EMU_EXTENSIONS[".gen"] == "MyGenesis"
        assert emucore.data.EMU_CORES["MyGenesis"] == "genesis_plus_gx_libretro.so"
        assert emucore.data.EMU_INFO["MyGenesis"]["buttons"][7] == "RIGHT"
        assert emucore.data.EMU_INFO["Genesis"] == stable
        with emucore.RetroEmulator({str(tmp_path / "game.gen")!r}) as emulator:
            assert emulator.system.name == "MyGenesis" and emulator.core.lib == "genesis_plus_gx"
            emulator.run_frames(100)
            assert list(emulator.memory.block_bytes()) == [0xFF0000]  # the given rambase
            assert emulator.read(0xFF0012, "|u1") == 3  # StudioDemo's lives, through the given overlay
        emucore.data.init_core_info(emucore.core_path())  # stable-retro's cores json: what we describe already
        assert emucore.data.EMU_INFO["Genesis"] == stable
    """)
    (tmp_path / "cores" / "zz-bad.json").write_text("{")
    result = subprocess.run([sys.executable, "-c", f"import emucore.data; emucore.data.init_core_info("
                             f"{str(tmp_path / 'cores')!r})"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 1 and "zz-bad.json: not core info JSON" in result.stderr


def test_a_missing_state_is_caught_as_stable_retros_type_error_too():
    require_core("genesis_plus_gx")
    with pytest.raises(TypeError, match="NoSuchState") as caught:
        emucore.make("StudioDemo-Genesis", state="NoSuchState")
    assert isinstance(caught.value, StateNotFoundError) and isinstance(caught.value, FileNotFoundError)
