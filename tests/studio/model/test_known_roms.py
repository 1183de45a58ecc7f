"""A ROM some integration already lists is recognised in every set, and a new integration can start from
that one; another ROM's integration of the same name is reported at creation and at export (the boxes that
say so: ``tests/studio/qt/test_known_rom_prompt.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore import data
from emucore.host.corefinder import find_library
from emucore.integration import read_data_json, read_metadata, read_scenario_json, read_state_file
from emucore.paths import integrations_dir
from studio.model.export import export_integration
from studio.model.known_roms import (
    clash_warning,
    folder_clashes,
    is_fresh,
    known_integrations,
    name_clashes,
    rom_sha,
    start_from,
)
from studio.model.opening import integration_folder_for
from tests.conftest import GENESIS_ROM, NES_ROM

NES_DEMO = integrations_dir() / "StudioDemo-Nes"
GENESIS_DEMO = integrations_dir() / "StudioDemo-Genesis"


def rom_copy(tmp_path: Path, name: str, *, header_byte: int | None = None, body_byte: int | None = None) -> Path:
    """The NES demo ROM under another name; a byte of its iNES header padding or of its body changed."""
    content = bytearray(NES_ROM.read_bytes())
    if header_byte is not None:
        content[12] = header_byte
    if body_byte is not None:
        content[1000] ^= body_byte
    path = tmp_path / "roms" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(bytes(content))
    return path


def integration_in(base: Path, name: str, source: Path, *, sha_of: Path | None = None, states: bool = True) -> Path:
    """A copy of ``source``'s files (not its ROM) as ``base/name``; ``rom.sha`` listing ``sha_of`` if given."""
    folder = base / name
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("rom.*", *([] if states else ["*.state"])))
    shutil.copy(source / "rom.sha", folder / "rom.sha")
    if sha_of is not None:
        (folder / "rom.sha").write_text(rom_sha(sha_of) + "\n")
    return folder


def test_a_bare_rom_is_known_by_its_headerless_hash(tmp_path, clean_data_state):
    (found,) = known_integrations(rom_copy(tmp_path, "Demo (copy).nes", header_byte=0x5A))
    assert (found.game, found.set_name, found.folder) == ("StudioDemo-Nes", "repository", NES_DEMO)
    assert found.has_data and found.has_scenario and found.states == ("Start",) and found.has_rom
    assert "StudioDemo-Nes (repository" in found.describe() and "1 state (Start)" in found.describe()
    assert known_integrations(rom_copy(tmp_path, "Hacked.nes", body_byte=0xFF)) == []


def test_every_set_is_searched_and_the_opened_folder_is_not_news(tmp_path, clean_data_state, monkeypatch):
    env_set, custom_set = tmp_path / "env-set", tmp_path / "custom-set"
    env_set.mkdir()
    custom_set.mkdir()
    integration_in(env_set, "DemoEnv-Nes", NES_DEMO)
    integration_in(custom_set, "DemoFork-Nes", NES_DEMO, states=False)
    integration_in(custom_set, "Unrelated-Genesis", GENESIS_DEMO)
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(env_set))
    data.add_custom_integration(custom_set)
    other, _ = integration_folder_for(rom_copy(tmp_path, "Other Name.nes"))
    opened, created = integration_folder_for(rom_copy(tmp_path, "Demo Copy.nes"))
    assert created and other.name == "OtherName-Nes"

    found = known_integrations(opened / "rom.nes", exclude=[opened])
    assert [(k.game, k.set_name) for k in found] == [
        ("DemoEnv-Nes", "custom"), ("DemoFork-Nes", "custom"), ("OtherName-Nes", "studio"),
        ("StudioDemo-Nes", "repository")]
    fork = found[1]
    assert fork.folder == custom_set / "DemoFork-Nes" and not fork.has_rom and fork.states == ()
    assert fork.has_data and fork.has_scenario
    # the ROM's own folder is left out even when not named; a folder named is left out wherever the ROM is
    assert "DemoCopy-Nes" not in [k.game for k in known_integrations(opened / "rom.nes")]
    bare = tmp_path / "roms" / "Demo Copy.nes"
    assert "DemoCopy-Nes" in [k.game for k in known_integrations(bare)]
    assert [k.game for k in known_integrations(bare, exclude=[opened])] == [k.game for k in found]


def test_stable_retro_sets_are_searched(airstriker, tmp_path, clean_data_state):
    rom = tmp_path / "air.md"
    rom.write_bytes((airstriker / "rom.md").read_bytes())
    (found,) = known_integrations(rom)
    assert (found.game, found.set_name, found.folder) == ("Airstriker-Genesis-v0", "stable", airstriker)
    assert found.states == ("Level1",) and found.has_rom and found.seen_by_stable_retro
    (clash,) = name_clashes("Airstriker-Genesis-v0", rom_sha(NES_ROM))
    assert clash.folder == airstriker and "the stable set" in clash_warning("Airstriker-Genesis-v0", clash)


def test_a_new_integration_of_another_dump_is_warned_of_stable_retros_versioned_name(airstriker, tmp_path,
                                                                                       clean_data_state):
    """Another dump of Airstriker opened as a bare ROM: the studio proposes Airstriker-Genesis, and
    stable-retro knows the game as Airstriker-Genesis-v0 for its own dump: said at creation and at
    export."""
    from studio.model.export import export_integration
    from studio.model.opening import integration_folder_for

    content = bytearray((airstriker / "rom.md").read_bytes())
    content[4096] ^= 0xFF  # another dump
    rom = tmp_path / "Airstriker.md"
    rom.write_bytes(bytes(content))
    folder, created = integration_folder_for(rom)
    assert created and folder.name == "Airstriker-Genesis"
    (clash,) = folder_clashes(folder)
    assert clash.folder == airstriker
    text = clash_warning(folder.name, clash)
    assert "the stable set has Airstriker-Genesis-v0 for another ROM (another dump of this game?)" in text
    result = export_integration(folder, tmp_path / "out")
    assert any("Airstriker-Genesis-v0 for another ROM" in w for w in result.warnings)
    same_dump = [k.folder for k in name_clashes("Airstriker-Genesis", rom_sha(airstriker / "rom.md"))]
    assert airstriker not in same_dump and folder in same_dump  # stable-retro's dump is not news to itself


def _steps(game: str, frames: int = 120) -> tuple[np.ndarray, list]:
    env = emucore.make(game, use_restricted_actions=emucore.Actions.ALL)
    try:
        first = env.reset(seed=0)[0]
        infos = [env.step(np.eye(env.action_space.shape[0], dtype=np.int8)[i % 8])[4] for i in range(frames)]
        return first, infos
    finally:
        env.close()


def test_start_from_copies_the_integration_but_not_the_rom(tmp_path, clean_data_state):
    rom = rom_copy(tmp_path, "Demo Copy.nes", header_byte=0x5A)
    target, _ = integration_folder_for(rom)
    sha_text = (target / "rom.sha").read_text()
    (known,) = known_integrations(target / "rom.nes", exclude=[target])
    source_files = {p.name: p.stat().st_mtime_ns for p in NES_DEMO.iterdir()}

    assert start_from(known, target) == target
    assert (target / "rom.sha").read_text() == sha_text and (target / "rom.nes").read_bytes() == rom.read_bytes()
    assert read_data_json(target / "data.json") == read_data_json(NES_DEMO / "data.json")
    assert read_scenario_json(target / "scenario.json") == read_scenario_json(NES_DEMO / "scenario.json")
    assert read_metadata(target / "metadata.json") == read_metadata(NES_DEMO / "metadata.json")
    assert read_state_file(target / "Start.state") == read_state_file(NES_DEMO / "Start.state")
    assert {p.name: p.stat().st_mtime_ns for p in NES_DEMO.iterdir()} == source_files
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".")]  # no staging left behind

    if not find_library("fceumm"):
        pytest.skip("the fceumm core is not installed")
    ours, theirs = _steps(str(target)), _steps(str(NES_DEMO))
    assert np.array_equal(ours[0], theirs[0]) and ours[1] == theirs[1]


def test_start_from_leaves_an_integration_with_work_alone(tmp_path, clean_data_state):
    target, _ = integration_folder_for(rom_copy(tmp_path, "Demo Copy.nes"))
    (known,) = known_integrations(target / "rom.nes", exclude=[target])
    (target / "data.json").write_text(json.dumps({"info": {"mine": {"address": 16, "type": "|u1"}}}))
    assert not is_fresh(target)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    with pytest.raises(ValueError, match="of its own"):
        start_from(known, target)
    with pytest.raises(ValueError, match="integration itself"):
        start_from(known, NES_DEMO)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_name_clashes_are_other_roms_integrations(tmp_path, clean_data_state):
    custom_set = tmp_path / "custom-set"
    custom_set.mkdir()
    clash_folder = integration_in(custom_set, "StudioDemo-Nes", GENESIS_DEMO)
    data.add_custom_integration(custom_set)
    nes_sha, genesis_sha = rom_sha(NES_ROM), rom_sha(GENESIS_ROM)

    assert [k.folder for k in name_clashes("StudioDemo-Nes", nes_sha.upper())] == [clash_folder]
    assert [k.folder for k in name_clashes("StudioDemo-Nes", [genesis_sha])] == [NES_DEMO]
    assert [k.folder for k in folder_clashes(NES_DEMO)] == [clash_folder]
    assert name_clashes("StudioDemo-Genesis", genesis_sha) == [] and name_clashes("Nothing-Nes", nes_sha) == []
    (clash,) = folder_clashes(NES_DEMO)
    text = clash_warning("StudioDemo-Nes", clash)
    assert str(clash_folder) in text and "the custom set" in text and "stable-retro with Integrations.ALL" in text
    (ours,) = name_clashes("StudioDemo-Nes", genesis_sha)
    assert "stable-retro does not search this set" in clash_warning("StudioDemo-Nes", ours)


def test_export_warns_of_a_clash_that_would_be_loaded_instead(tmp_path, clean_data_state, monkeypatch):
    root = tmp_path / "retro-data"
    (root / "stable").mkdir(parents=True)
    clash_folder = integration_in(root / "contrib", "StudioDemo-Nes", GENESIS_DEMO)
    source = integration_in(tmp_path / "work", "StudioDemo-Nes", NES_DEMO)
    out = tmp_path / "out"
    assert export_integration(source, out).warnings == []  # only the repository's, which lists this ROM

    monkeypatch.setenv("RETRO_DATA_PATH", str(root))
    (warning,) = export_integration(source, out).warnings
    assert str(clash_folder) in warning and "the contrib set" in warning and "Integrations.ALL" in warning
    data.add_custom_integration(out)  # what a user of the export does: contrib still answers first
    assert data.get_file_path("StudioDemo-Nes", "rom.sha", data.Integrations.ALL) == str(clash_folder / "rom.sha")


def test_stable_retro_takes_what_an_export_lacks_from_the_clash(airstriker, tmp_path, clean_data_state):
    retro = pytest.importorskip("stable_retro")
    source = integration_in(tmp_path / "work", "Airstriker-Genesis-v0", GENESIS_DEMO)
    out = tmp_path / "out"
    (warning,) = export_integration(source, out).warnings  # no ROM exported
    assert str(airstriker) in warning and "stable-retro with Integrations.ALL" in warning
    retro.data.Integrations.clear_custom_paths()
    retro.data.Integrations.add_custom_path(str(out))
    try:
        ALL = retro.data.Integrations.ALL
        assert retro.data.get_file_path("Airstriker-Genesis-v0", "rom.sha", ALL) == str(out / source.name / "rom.sha")
        assert retro.data.get_romfile_path("Airstriker-Genesis-v0", ALL) == str(airstriker / "rom.md")
    finally:
        retro.data.Integrations.clear_custom_paths()
