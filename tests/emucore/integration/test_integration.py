"""emucore.integration: reading and writing integration folders the way stable-retro does."""

from __future__ import annotations

import collections
import gzip
import json
import re
import shutil
import time
from pathlib import Path

import pytest

from emucore.errors import FileProblem
from emucore.integration import (
    Integration,
    IntegrationError,
    LintFinding,
    Variable,
    dump_data_json,
    dump_scenario_json,
    folder,
    lint,
    parse_data_json,
    parse_scenario_json,
    read_state_file,
    rom_sha1,
    statefile,
    write_state_file,
)
from emucore.paths import integrations_dir

DEMOS = [integrations_dir() / "StudioDemo-Genesis", integrations_dir() / "StudioDemo-Nes"]


def stable_retro_data() -> Path | None:
    try:
        import stable_retro.data
    except ImportError:
        return None
    root = Path(stable_retro.data.__file__).parent
    return root if (root / "stable").is_dir() else None


@pytest.fixture(scope="module")
def data_root() -> Path:
    root = stable_retro_data()
    if root is None:
        pytest.skip("stable-retro is not installed")
    return root


def airstriker_dir(root: Path) -> Path:
    return root / "stable" / "Airstriker-Genesis-v0"


# --- data.json --------------------------------------------------------------------------------


def test_parse_data_json_keeps_order_and_mask() -> None:
    text = json.dumps({"info": {"b": {"address": 2, "type": ">u2", "mask": 240}, "a": {"address": 1, "type": "|u1"}}})
    variables = parse_data_json(text)
    assert list(variables) == ["b", "a"]
    assert variables["b"] == Variable(2, ">u2", 240)
    assert variables["a"] == Variable(1, "|u1", None)


def test_all_ones_mask_is_none() -> None:
    assert Variable(1, "|u1", (1 << 64) - 1).mask is None
    assert parse_data_json('{"info": {"a": {"address": 1, "type": "|u1", "mask": -1}}}')["a"].mask is None


def test_malformed_data_json_names_file_line_column_and_key(tmp_path: Path) -> None:
    text = '{\n  "info": {\n    "lives": {\n      "address": 16,\n      "type": "|u1"\n      "mask": 3\n    }\n  }\n}\n'
    with pytest.raises(IntegrationError) as caught:
        parse_data_json(text, tmp_path / "data.json")
    message = str(caught.value)
    assert str(tmp_path / "data.json") in message
    assert "line 6 column 7" in message
    assert "key info.lives.type" in message
    assert isinstance(caught.value, FileProblem) and caught.value.path == tmp_path / "data.json"


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"type": "|u1"}, "has no 'address'"),
        ({"address": 1}, "has no 'type'"),
        ({"address": "0xff00", "type": "|u1"}, "must be a JSON integer, not str"),
        ({"address": True, "type": "|u1"}, "must be a JSON integer"),
        ({"address": 1, "type": 5}, "type of 'lives' must be a string"),
        ({"address": 1, "type": "|u1", "mask": "3"}, "mask of 'lives' must be an integer"),
        ("|u1", "must be an object"),
    ],
)
def test_data_json_rejections_name_the_variable(entry: object, expected: str) -> None:
    text = json.dumps({"info": {"score": {"address": 0, "type": ">u4"}, "lives": entry}}, indent=2)
    with pytest.raises(IntegrationError) as caught:
        parse_data_json(text)
    assert expected in str(caught.value)
    assert "data.json" in str(caught.value) and "key info.lives" in str(caught.value)
    assert re.search(r"line (7|8|9|10) column", str(caught.value))


def test_data_json_without_info_is_rejected() -> None:
    with pytest.raises(IntegrationError, match="'info'"):
        parse_data_json('{"variables": {}}')
    with pytest.raises(IntegrationError, match="'info'"):
        parse_data_json("[]")


def test_types_stable_retro_skips_are_skipped_or_rejected_when_strict() -> None:
    text = json.dumps({"info": {"a": {"address": 1, "type": "u1"}, "b": {"address": 2, "type": ">u9"},
                                "c": {"address": 3, "type": "|u1"}}})  # fmt: skip
    assert list(parse_data_json(text)) == ["c"]
    with pytest.raises(IntegrationError, match="shorter than 3"):
        parse_data_json(text, strict=True)


def test_dump_data_json_layout() -> None:
    text = dump_data_json({"z": Variable(16, ">u2"), "a": Variable(1, "|u1", 240)})
    assert text == (
        '{\n  "info": {\n    "a": {\n      "address": 1,\n      "mask": 240,\n      "type": "|u1"\n    },\n'
        '    "z": {\n      "address": 16,\n      "type": ">u2"\n    }\n  }\n}\n'
    )


# --- scenario files ----------------------------------------------------------------------------


def test_parse_scenario_keeps_structure() -> None:
    raw = {"reward": {"variables": {"score": {"reward": 1.0, "custom": [1]}}}, "unknown": {"x": 1}}
    assert parse_scenario_json(json.dumps(raw)) == raw


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        ([], "must be a JSON object"),
        ({"crop": "0,0,0,0"}, "key crop: crop must be an array"),
        ({"crop": [0, 0, "8", 0]}, "key crop[2]: crop elements must be numbers"),
        ({"crop": [0, 0]}, "crop needs 4 numbers"),
        ({"actions": [["UP"]]}, "key actions[0][0]"),
        ({"actions": [[[1]]]}, "button names must be strings"),
        ({"rewards": {"variables": {}}}, "rewards must be an array"),
        ({"reward": {"script": 3}}, "key reward.script"),
        ({"done": {"variables": "lives"}}, "key done.variables"),
        ({"done": {"nodes": {"a": {"nodes": 1}}}}, "key done.nodes.a.nodes"),
        ({"scripts": ["a.lua", 2]}, "key scripts[1]"),
    ],
)
def test_scenario_rejections(scenario: object, expected: str, tmp_path: Path) -> None:
    with pytest.raises(IntegrationError) as caught:
        parse_scenario_json(json.dumps(scenario, indent=2), tmp_path / "contest.json")
    assert expected in str(caught.value)
    assert "contest.json" in str(caught.value)


def test_scenario_values_stable_retro_ignores_are_accepted() -> None:
    accepted = {"reward": "x", "done": [1], "crops": [[0, 0, 0, 0]], "scripts": "x.lua", "crop": [0, 0, 0, 0, 9],
                "rewards": None, "actions": [[[]]]}  # fmt: skip
    assert parse_scenario_json(json.dumps(accepted)) == accepted


def test_malformed_scenario_names_line_and_key() -> None:
    text = '{\n  "done": {\n    "variables": {\n      "lives": {"op": "zero",}\n    }\n  }\n}'
    with pytest.raises(IntegrationError, match=r"scenario\.json: line 4 .*key done\.variables\.lives\.op"):
        parse_scenario_json(text)


def test_dump_scenario_sorts_every_level() -> None:
    text = dump_scenario_json(
        {"reward": {"variables": {"b": {"reward": 1.0}, "a": {"penalty": 0.5}}}, "crop": [0, 0, 0, 0]}
    )
    assert text.index('"crop"') < text.index('"reward"') and text.index('"a"') < text.index('"b"')
    assert text.endswith("}\n") and '\n  "crop": [\n    0,' in text


# --- states and ROM hashes ---------------------------------------------------------------------


def test_state_file_round_trip_is_reproducible(tmp_path: Path) -> None:
    raw = bytes(range(256)) * 100
    write_state_file(tmp_path / "a.state", raw)
    write_state_file(tmp_path / "b.state", raw)
    assert read_state_file(tmp_path / "a.state") == raw
    assert (tmp_path / "a.state").read_bytes() == (tmp_path / "b.state").read_bytes()
    assert gzip.decompress((tmp_path / "a.state").read_bytes()) == raw


def test_bad_state_files_name_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain, truncated, big, empty = (tmp_path / n for n in ("plain.state", "cut.state", "big.state", "empty.state"))
    plain.write_bytes(b"GENPLUS-GX 1.7.5" + bytes(100))
    truncated.write_bytes(gzip.compress(bytes(range(256)) * 400)[:300])
    big.write_bytes(gzip.compress(bytes(5000)))
    empty.write_bytes(b"")
    for path, problem in ((plain, "not a gzip file"), (truncated, "truncated"), (empty, "empty file")):
        with pytest.raises(IntegrationError, match=problem) as caught:
            read_state_file(path)
        assert caught.value.path == path and path.name in str(caught.value)
    monkeypatch.setattr(statefile, "MAX_STATE_BYTES", 4096)
    with pytest.raises(IntegrationError, match="more than 4096 bytes"):
        read_state_file(big)


def test_rom_sha1_matches_the_demo_rom_sha_files() -> None:
    nes = DEMOS[1] / "rom.nes"
    expected = (DEMOS[1] / "rom.sha").read_text().strip()
    assert rom_sha1(nes, ".nes") == rom_sha1(nes) == rom_sha1(nes.read_bytes(), "nes") == expected
    assert rom_sha1(nes.read_bytes(), ".md") != expected  # only NES skips the iNES header
    assert rom_sha1(DEMOS[0] / "rom.md") == (DEMOS[0] / "rom.sha").read_text().strip()


# --- Integration: load, new, save --------------------------------------------------------------


def test_load_airstriker(data_root: Path) -> None:
    game = Integration.load(airstriker_dir(data_root))
    assert game.name == "Airstriker-Genesis-v0" and game.system() == "Genesis"
    assert game.variables["lives"] == Variable(16712282, ">u2")
    assert game.scenario["done"]["condition"] == "all"
    assert game.metadata["default_state"] == "Level1"
    assert game.rom_path == airstriker_dir(data_root) / "rom.md"
    assert game.rom_shas == [rom_sha1(game.rom_path)]
    assert list(game.states) == ["Level1"]
    assert len(game.states["Level1"]) == 1036288 and game.states["Level1"].startswith(b"GENPLUS-GX 1.7.5")


def test_system_from_name_and_extension(tmp_path: Path) -> None:
    assert Integration("Pong-Atari2600-v0").system() == "Atari2600"
    assert Integration("MortalKombatII-Arcade").system() == "FBNeo"
    assert Integration("Foo-Genesis-v12").system() == "Genesis"
    assert Integration("NoSystem").system() is None
    assert Integration("Foo-Genesis", rom_path=tmp_path / "rom.nes").system() == "Nes"


def _fields(game: Integration) -> dict:
    return {
        "name": game.name,
        "variables": game.variables,
        "scenario": game.scenario,
        "scenarios": game.scenarios,
        "metadata": game.metadata,
        "states": dict(game.states),
        "scripts": game.scripts,
        "rom_shas": game.rom_shas,
        "extra_files": game.extra_files,
        "system": game.system(),
    }


def _stable_retro_saves(folder: Path, out: Path) -> tuple[str, str]:
    """stable-retro loads a folder's data.json and scenario.json, and writes them back."""
    from stable_retro.data import GameDataGlue

    glue = GameDataGlue()
    assert glue.load(str(folder / "data.json"), str(folder / "scenario.json"))
    glue.save(str(out / "data.json"), str(out / "scenario.json"))
    return (out / "data.json").read_text(), (out / "scenario.json").read_text()


@pytest.mark.parametrize("which", ["Airstriker-Genesis-v0", "StudioDemo-Genesis", "StudioDemo-Nes"])
def test_round_trip(which: str, data_root: Path, tmp_path: Path) -> None:
    source = airstriker_dir(data_root) if which.startswith("Airstriker") else integrations_dir() / which
    game = Integration.load(source)
    saved = game.save(tmp_path / which, include_rom=True)
    assert saved == tmp_path / which and game.folder == saved
    again = Integration.load(saved)
    assert _fields(again) == _fields(Integration.load(source))
    assert rom_sha1(again.rom_path) in again.rom_shas
    for name in ("data.json", "scenario.json", "metadata.json"):
        text = (saved / name).read_text()
        assert text == json.dumps(json.loads(text), indent=2, sort_keys=True) + "\n"
    assert (saved / "rom.sha").read_text() == "".join(f"{s}\n" for s in game.rom_shas)

    # stable-retro reads what we wrote, and its writer produces our data.json byte for byte
    theirs_data, theirs_scenario = _stable_retro_saves(saved, tmp_path)
    assert theirs_data == (saved / "data.json").read_text()
    assert dump_scenario_json(parse_scenario_json(theirs_scenario)) == theirs_scenario
    assert dump_data_json(parse_data_json(theirs_data)) == theirs_data


def test_stable_retro_game_data_loads_a_saved_folder(data_root: Path, tmp_path: Path) -> None:
    from stable_retro.data import GameData, Integrations

    Integration.load(integrations_dir() / "StudioDemo-Nes").save(tmp_path / "MyCopy-Nes")
    Integrations.add_custom_path(str(tmp_path))
    try:
        data = GameData("MyCopy-Nes", inttype=Integrations.CUSTOM_ONLY)
        ours = parse_data_json((tmp_path / "MyCopy-Nes" / "data.json").read_text())
        assert dict(data.vars) == {name: {"address": v.address, "type": v.type} for name, v in ours.items()}
    finally:
        Integrations.clear_custom_paths()


def test_new_from_a_rom(tmp_path: Path) -> None:
    game = Integration.new("Demo-Nes", DEMOS[1] / "rom.nes")
    assert game.rom_shas == [(DEMOS[1] / "rom.sha").read_text().strip()]
    assert game.system() == "Nes" and game.metadata == {} and game.folder is None
    with pytest.raises(IntegrationError, match="no folder"):
        game.save()
    saved = game.save(tmp_path / "Demo-Nes", include_rom=True)
    assert sorted(p.name for p in saved.iterdir()) == ["data.json", "metadata.json", "rom.nes", "rom.sha"]
    assert game.rom_path == saved / "rom.nes"
    problems = {(f.file, f.message) for f in lint(saved) if f.level == "error"}
    assert problems == {("metadata.json", "default state missing")}


def test_states_load_lazily_and_untouched_states_are_copied(data_root: Path, tmp_path: Path) -> None:
    game = Integration.load(airstriker_dir(data_root))
    assert game.states.source_file("Level1") is not None and "Level1" not in game.states._raw
    saved = game.save(tmp_path / "Copy-Genesis")
    assert (saved / "Level1.state").read_bytes() == (airstriker_dir(data_root) / "Level1.state").read_bytes()
    game.states["Edited"] = b"raw state"
    game.save()
    assert read_state_file(saved / "Edited.state") == b"raw state"
    assert Integration.load(saved).states["Level1"] == game.states["Level1"]


def test_extra_files_and_other_scenarios_are_carried(data_root: Path, tmp_path: Path) -> None:
    source = data_root / "contrib" / "SonicTheHedgehogCustomKevin-Genesis"
    game = Integration.load(source)
    assert set(game.scenarios) == {"contest"} and set(game.scripts) == {"script.lua"}
    assert "rom.delta" in game.extra_files
    saved = game.save(tmp_path / source.name)
    assert sorted(p.name for p in saved.iterdir()) == sorted(p.name for p in source.iterdir())
    assert (saved / "script.lua").read_bytes() == (source / "script.lua").read_bytes()
    assert (saved / "rom.delta").read_bytes() == (source / "rom.delta").read_bytes()


def test_save_over_a_folder_keeps_its_rom(tmp_path: Path) -> None:
    target = tmp_path / "StudioDemo-Genesis"
    shutil.copytree(DEMOS[0], target)
    game = Integration.load(target)
    game.variables["extra"] = Variable(0xFF0100, "|u1")
    game.save()
    assert (target / "rom.md").read_bytes() == (DEMOS[0] / "rom.md").read_bytes()
    assert "extra" in Integration.load(target).variables
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary folders left


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_failed_save_leaves_the_folder_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "StudioDemo-Nes"
    shutil.copytree(DEMOS[1], target)
    before = _snapshot(target)
    game = Integration.load(target)
    game.variables.clear()
    game.metadata["default_state"] = "Other"
    real_write = folder.write_file
    calls = []

    def failing_write(path: Path, content: bytes | Path) -> None:
        calls.append(path.name)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_write(path, content)

    monkeypatch.setattr(folder, "write_file", failing_write)
    with pytest.raises(OSError, match="No space"):
        game.save()
    assert _snapshot(target) == before
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_failed_rename_restores_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "StudioDemo-Nes"
    shutil.copytree(DEMOS[1], target)
    before = _snapshot(target)
    real_rename = folder.os.rename

    def failing_rename(src: Path, dst: Path) -> None:
        if Path(src).name.startswith(".StudioDemo-Nes.saving-"):
            raise OSError(5, "I/O error")
        real_rename(src, dst)

    monkeypatch.setattr(folder.os, "rename", failing_rename)
    with pytest.raises(OSError, match="I/O error"):
        Integration.load(target).save()
    assert _snapshot(target) == before
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_load_rejects_broken_files(tmp_path: Path) -> None:
    target = tmp_path / "Broken-Nes"
    shutil.copytree(DEMOS[1], target)
    (target / "scenario.json").write_text('{"done": {"variables": {"lives": {"op": "zero"}}}')
    with pytest.raises(IntegrationError, match=r"scenario\.json: line 1"):
        Integration.load(target)
    with pytest.raises(IntegrationError, match="no such directory"):
        Integration.load(tmp_path / "missing")


# --- the installed stable-retro data and our own integrations ------------------------------


def test_every_stable_retro_integration_loads_and_lints(data_root: Path, monkeypatch) -> None:
    """Every integration of stable-retro loads and lints, and none of their states is read for it: a state is read
    when first used, and lint looks at its first bytes only (unless deep). The whole takes seconds, not minutes."""
    folders = sorted(
        p for s in ("stable", "experimental", "contrib") for p in (data_root / s).iterdir()
        if p.is_dir() and not p.name.startswith("__")
    )  # fmt: skip
    assert len(folders) > 1000
    states_read: list[Path] = []
    read_file = statefile.read_file
    monkeypatch.setattr(statefile, "read_file", lambda path, *size: states_read.append(path) or read_file(path, *size))
    start = time.perf_counter()
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for path in folders:
        game = Integration.load(path)
        assert game.name == path.name
        findings = lint(path)
        assert all(isinstance(f, LintFinding) for f in findings)
        for f in findings:
            counts[(f.level, f.message.split(":")[0] if f.file != "metadata.json" else f.message[:40])] += 1
    elapsed = time.perf_counter() - start
    print(f"\n{len(folders)} integrations loaded and linted in {elapsed:.1f} s")
    for (level, message), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4d} {level}: {message}")
    assert states_read == []
    used = next(game for game in map(Integration.load, folders) if game.states)
    assert used.states[next(iter(used.states))] and len(states_read) == 1  # read when first used


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.name)
def test_our_integrations_lint_clean(path: Path) -> None:
    findings = lint(path, deep=True)
    assert [f for f in findings if f.level == "error"] == []
    assert lint(Integration.load(path)) == findings


def test_saved_folder_is_not_private(tmp_path: Path) -> None:
    saved = Integration.load(DEMOS[1]).save(tmp_path / "StudioDemo-Nes")
    assert saved.stat().st_mode & 0o755 == 0o755


def test_json_that_is_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "Broken-Nes"
    shutil.copytree(DEMOS[1], target)
    (target / "data.json").write_bytes(b'{"info": {"l\xe9vel": {"address": 1, "type": "|u1"}}}')
    with pytest.raises(IntegrationError, match=r"data\.json: not UTF-8 text \(byte 12\)"):
        Integration.load(target)
