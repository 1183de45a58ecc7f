"""Core descriptors and core discovery."""

from __future__ import annotations

import json
import shutil

import pytest

from emucore.cli import main as cli_main
from emucore.errors import CoreNotFoundError
from emucore.host.corefinder import find_core, find_library, search_dirs
from emucore.paths import integrations_dir
from emucore.systems import extension_table, get_system, library, system_for_path, systems
from tests.conftest import require_core

STABLE_RETRO_SYSTEMS = {
    "Genesis", "Sms", "GameGear", "SCD", "32x", "Snes", "Nes", "GameBoy", "GbColor", "GbAdvance",
    "Atari2600", "PCEngine", "Saturn", "N64", "NintendoDs", "FBNeo",
}


def test_every_stable_retro_system_is_described():
    assert set(systems()) == STABLE_RETRO_SYSTEMS
    for system in systems().values():
        assert system.cores and system.extensions and system.buttons
        assert len(system.keybinds) == len(system.buttons)
        assert all(button is None or isinstance(button, str) for button in system.buttons)


def test_descriptors_agree_with_stable_retro_json():
    from emucore.host.corefinder import stable_retro_cores_dir

    folder = stable_retro_cores_dir()
    if folder is None:
        pytest.skip("stable-retro is not installed")
    theirs = {}
    for path in folder.glob("*.json"):
        for name, entry in json.loads(path.read_text()).items():
            theirs[name] = entry
    for name, entry in theirs.items():
        ours = get_system(name)
        assert list(ours.extensions) == entry["ext"]
        assert list(ours.buttons) == entry["buttons"]
        assert ours.rambase == entry.get("rambase", 0)
        assert ours.actions == entry["actions"]
        assert (list(ours.types) if ours.types else None) == entry.get("types")
        assert ours.cores[0] == entry["lib"]


def test_extension_routing_like_stable_retro():
    table = extension_table()
    assert table[".md"] == "Genesis" and table[".bin"] == "N64" and table[".zip"] == "FBNeo"
    assert system_for_path("x/rom.SFC").name == "Snes"


def test_core_path_env_wins(tmp_path, monkeypatch, nes_rom):
    require_core("fceumm")
    original = find_library("fceumm")[0].path
    shutil.copyfile(original, tmp_path / "fceumm_libretro.so")
    monkeypatch.setenv("EMUCORE_CORE_PATH", str(tmp_path))
    assert search_dirs()[0] == ("EMUCORE_CORE_PATH", tmp_path)
    found = find_core("Nes")
    assert found.source == "EMUCORE_CORE_PATH" and found.path == tmp_path / "fceumm_libretro.so"


def test_preferred_core_is_stable_retros():
    require_core("fceumm")
    assert find_core("Nes").lib == "fceumm"
    assert find_core("Nes").source in ("stable-retro", "EMUCORE_CORE_PATH")


def test_debian_core_is_found_by_name():
    require_core("nestopia")
    found = find_core("Nes", "nestopia")
    assert found.lib == "nestopia"


def test_missing_core_message(monkeypatch):
    monkeypatch.setattr("emucore.host.corefinder.search_dirs", lambda: [])
    with pytest.raises(CoreNotFoundError) as info:
        find_core("GbAdvance")
    assert "mgba" in str(info.value) and "apt-get install libretro-mgba" in str(info.value)


def test_unknown_library_gets_a_plain_descriptor():
    assert library("nosuchcore").file_name == "nosuchcore_libretro.so"


def test_cli_cores_lists_every_system(capsys):
    assert cli_main(["cores", "-v"]) == 0
    out = capsys.readouterr().out
    for name in STABLE_RETRO_SYSTEMS:
        assert name in out
    assert "searched, in order:" in out


def test_cli_info(capsys, nes_rom):
    assert cli_main(["info", str(nes_rom)]) == 0
    out = capsys.readouterr().out
    assert "Nes" in out and "fceumm" in out and "240x224" in out


def test_cli_reports_bad_input(capsys, tmp_path):
    (tmp_path / "x.md").write_bytes(b"")
    assert cli_main(["info", str(tmp_path / "x.md")]) == 2
    assert "the file is empty" in capsys.readouterr().err


def test_cli_verify(capsys, tmp_path):
    assert cli_main(["verify", str(integrations_dir() / "StudioDemo-Nes")]) == 0
    assert "ok" in capsys.readouterr().out
    broken = tmp_path / "Broken-Nes"
    broken.mkdir()
    (broken / "rom.sha").write_text("not-a-sha\n")
    assert cli_main(["verify", str(broken)]) == 1
    assert "error: rom.sha" in capsys.readouterr().out
