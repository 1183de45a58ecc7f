"""emucore.scenario.loader: the one path from an integration's files (or an editor's copies) to its evaluator."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from emucore import Emulator
from emucore.errors import ScriptWarning
from emucore.integration import IntegrationError
from emucore.paths import integrations_dir
from emucore.scenario.loader import GameDataSources, load_game_data
from tests.conftest import play

DEMO_NES = integrations_dir() / "StudioDemo-Nes"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "StudioDemo-Nes"
    shutil.copytree(DEMO_NES, copy)
    return copy


@pytest.fixture
def emulator(folder: Path):
    with Emulator(folder / "rom.nes") as emu:
        emu.step()
        yield emu


def load(sources: GameDataSources, emu: Emulator):
    return load_game_data(sources, emu.system, lambda: emu.memory)


def test_of_folder_reads_the_folder_files(folder: Path, emulator: Emulator) -> None:
    loaded = load(GameDataSources.of_folder(folder), emulator)
    assert set(loaded.data.variables) == set(json.loads((folder / "data.json").read_text())["info"])
    assert loaded.data.scenario.variable_names() == {"lives", "score"}
    assert loaded.warnings == []
    (folder / "scenario.json").unlink()
    (folder / "data.json").unlink()
    empty = load(GameDataSources.of_folder(folder), emulator).data
    assert empty.variables == {} and empty.scenario.variable_names() == set()


def test_a_scenario_using_a_skipped_variable_is_refused_everywhere(folder: Path, emulator: Emulator) -> None:
    data = json.loads((folder / "data.json").read_text())
    data["info"]["lives"]["type"] = "<u9"  # stable-retro skips an entry whose type it cannot use
    (folder / "data.json").write_text(json.dumps(data))
    with pytest.raises(IntegrationError, match="data.json.*lives"):
        load(GameDataSources.of_folder(folder), emulator)
    # a scenario that does not use it loads, with a warning naming the skipped entry
    scenario = {"reward": {"variables": {"score": {"reward": 1.0}}}}
    loaded = load(GameDataSources.of_folder(folder, scenario=scenario), emulator)
    assert [category for _, category in loaded.warnings] == [UserWarning]
    assert "'lives' is skipped" in loaded.warnings[0][0]


def test_scripts_come_from_the_scenario_files_folder_or_the_editors_copies(folder: Path, emulator: Emulator) -> None:
    scenario = {"scripts": ["bonus.lua"], "reward": {"script": "bonus"}}
    (folder / "bonus.lua").write_text("function bonus() return 5 end\n")
    from_files = load(GameDataSources.of_folder(folder, scenario=scenario), emulator)
    assert from_files.warnings == [] and from_files.data.lua is not None
    copies = {"scenario": scenario, "scripts": {"bonus.lua": "function bonus() return 7 end"}}
    edited = load(GameDataSources.of_folder(folder, **copies), emulator).data
    edited.reset()
    edited.update_ram()
    assert edited.current_reward() == 7
    missing = load(GameDataSources(scenario={"scripts": ["bonus.lua"]}), emulator)
    assert missing.warnings == [("scenario.json: script 'bonus.lua' not found; it is not loaded", ScriptWarning)]


def test_a_term_on_an_undefined_variable_names_the_key(folder: Path, emulator: Emulator) -> None:
    scenario = {"done": {"variables": {"ghost": {"op": "zero"}}}}
    with pytest.raises(IntegrationError, match=r"done\.variables\.ghost.*not defined in data.json"):
        load(GameDataSources.of_folder(folder, scenario=scenario), emulator)


def test_the_evaluator_reads_the_emulators_memory(folder: Path, emulator: Emulator) -> None:
    data = load(GameDataSources.of_folder(folder), emulator).data
    data.reset()
    data.update_ram()
    play(emulator, 0, 10)
    data.update_ram()
    lives = data.variables["lives"]
    assert data.lookup_value("lives") == emulator.memory.read(lives.address, lives.type)
