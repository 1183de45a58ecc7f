"""emucore.testing.tools: stable-retro's integration checks, findings and whitelists included."""

from __future__ import annotations

import json
import shutil

import pytest

from emucore import data
from emucore.data import Integrations
from emucore.testing import tools
from tests.conftest import NES_ROM

CUSTOM = Integrations.CUSTOM_ONLY


@pytest.fixture
def game(tmp_path):
    """A custom integration ``Test-Nes`` with a real ROM; tests write its JSON files."""
    folder = tmp_path / "Test-Nes"
    folder.mkdir()
    shutil.copy(NES_ROM, folder / "rom.nes")
    (folder / "rom.sha").write_text("0" * 40 + "\n")
    Integrations.clear_custom_paths()
    Integrations.add_custom_path(str(tmp_path))
    yield folder
    Integrations.clear_custom_paths()


def write(folder, name, document):
    (folder / name).write_text(json.dumps(document))


def test_data_types_are_checked_and_whitelists_drop_warnings(game):
    write(game, "data.json", {"info": {
        "score": {"address": 1, "type": "|u1"}, "x": {"address": 2, "type": "<q2"},
        "y": {"type": "<u2"}, "z": {"address": 3, "type": "><u2"}}})
    warnings, errors = tools.verify_data("Test-Nes", CUSTOM)
    file = "custom/Test-Nes/data.json"
    assert sorted(errors) == [(file, "invalid type <q2 for x"), (file, "missing address for y")]
    assert sorted(warnings) == [(file, "suspicious type ><u2 for z"), (file, "suspicious type |u1 for score")]
    write(game, "metadata.json", {"whitelist": {"data.json": ["suspicious type |u1 for score", "gone"]}})
    warnings, errors = tools.verify_data("Test-Nes", CUSTOM)
    assert warnings == [(file, "suspicious type ><u2 for z")]
    assert ("metadata.json", f'missing warning "{file}: gone"') in errors


def test_scenario_checks_name_the_problem(game):
    write(game, "data.json", {"info": {"lives": {"address": 1, "type": "|u1"}}})
    write(game, "scenario.json", {
        "reward": {"variables": {"score": {"reward": 1}, "lives": {}}},
        "done": {"condition": "all", "variables": {"lives": {"op": "negative"}, "health": {"reference": 0}}},
    })
    warnings, errors = tools.verify_scenario("Test-Nes", CUSTOM)
    file = "custom/Test-Nes/scenario.json"
    assert sorted(errors) == sorted([
        (file, "invalid variable score"), (file, "invalid definition lives"),
        (file, "op: negative on unsigned lives"), (file, "invalid done condition health"),
        (file, "invalid variable health"),
    ])
    write(game, "scenario.json", {"rewards": [{}, {"variables": {}, "script": "x"}]})
    warnings, errors = tools.verify_scenario("Test-Nes", CUSTOM)
    assert sorted(warnings) == [(file, "both variables and script present in rewards[1]"),
                                (file, "missing done"), (file, "missing reward in rewards[0]")]


def test_missing_files_default_state_and_rom(game, tmp_path):
    assert tools.verify_default_state("Test-Nes", CUSTOM) == ([], [])  # no metadata.json: nothing to check
    write(game, "metadata.json", {"default_state": "Start"})
    assert tools.verify_default_state("Test-Nes", CUSTOM)[1] == [
        ("custom/Test-Nes/metadata.json", "invalid default state Start")]
    (game / "Start.state").write_bytes(b"")
    assert tools.verify_default_state("Test-Nes", CUSTOM) == ([], [])
    missing = [file for name, file in tools.scan_missing() if name == "Test-Nes"]
    assert missing == ["data.json", "scenario.json"]
    assert tools.verify_rom("Test-Nes", CUSTOM) == ([], [])
    (game / "rom.nes").rename(game / "rom.sms")
    assert tools.verify_rom("Test-Nes", CUSTOM)[1] == [("Test-Nes", "invalid extension for rom.sms")]
    (game / "rom.sms").unlink()
    assert tools.verify_rom("Test-Nes", CUSTOM)[1] == [("Test-Nes", "ROM file missing")]


def test_hash_collisions_are_found(game, tmp_path):
    assert ("Test-Nes", "sha duplicate") not in tools.verify_hash_collisions()[1]
    twin = tmp_path / "Twin-Nes"
    twin.mkdir()
    shutil.copy(game / "rom.sha", twin / "rom.sha")
    data.add_custom_integration(str(tmp_path))
    errors = tools.verify_hash_collisions()[1]
    assert ("Test-Nes", "sha duplicate") in errors and ("Twin-Nes", "sha duplicate") in errors
    data.DefaultIntegrations.reset()
