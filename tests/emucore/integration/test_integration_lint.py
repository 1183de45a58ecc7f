"""emucore.integration.lint: each rule group finds the fault seeded into a copy of a demo folder."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emucore.integration import Integration, LintFinding, lint
from emucore.paths import integrations_dir

DEMO_NES = integrations_dir() / "StudioDemo-Nes"
DEMO_GENESIS = integrations_dir() / "StudioDemo-Genesis"


def copy(tmp_path: Path, source: Path = DEMO_NES, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copytree(source, target)
    return target


def write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n")


def edit_json(path: Path, change: Callable[[Any], object]) -> None:
    value = json.loads(path.read_text())
    change(value)
    write_json(path, value)


def found(findings: list[LintFinding], level: str, file: str, text: str, key: str | None = None) -> bool:
    return any(
        f.level == level and f.file == file and text in f.message and (key is None or f.key == key) for f in findings
    )


def test_clean_copy_has_no_findings(tmp_path: Path) -> None:
    assert lint(copy(tmp_path)) == []


def test_data_json_rules(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit_json(folder / "data.json", lambda d: d["info"].update({
        "lives": {"address": 19, "type": ">u2"},
        "score": {"address": 32, "type": "|i1"},
        "bad_type": {"address": 3, "type": "u16"},
        "short_type": {"address": 3, "type": "u1"},
        "wide": {"address": 3, "type": ">u9"},
        "mixed": {"address": 3, "type": "><u4"},
        "bcd8": {"address": 3, "type": ">d8"},
        "far": {"address": 0x5000, "type": "|u1"},
        "straddle": {"address": 0x7FF, "type": "<u2"},
        "no_address": {"type": "|u1"},
        "string_address": {"address": "0x10", "type": "|u1"},
    }))  # fmt: skip
    findings = lint(folder)
    assert found(findings, "warning", "data.json", "suspicious type >u2 for lives", "info.lives.type")
    assert found(findings, "warning", "data.json", "suspicious type |i1 for score", "info.score.type")
    assert found(findings, "error", "data.json", "invalid type u16 for bad_type")
    assert found(findings, "error", "data.json", "invalid type u1 for short_type")
    assert found(findings, "warning", "data.json", "short_type is skipped by stable-retro")
    assert found(findings, "warning", "data.json", "wide is skipped by stable-retro")
    assert found(findings, "warning", "data.json", "suspicious type ><u4 for mixed")
    assert found(findings, "warning", "data.json", "suspicious type >d8 for bcd8")
    assert found(findings, "warning", "data.json", "0x5000 of far is outside Nes memory", "info.far.address")
    assert found(findings, "warning", "data.json", "straddle runs past the end")
    assert found(findings, "error", "data.json", "missing address for no_address", "info.no_address.address")
    assert found(findings, "error", "data.json", "address of string_address must be a JSON integer")
    assert not found(findings, "warning", "data.json", "score_digits")  # >n5 is fine


def test_data_json_missing_or_broken(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    (folder / "data.json").unlink()
    findings = lint(folder)
    assert found(findings, "warning", "data.json", "data.json missing")
    assert found(findings, "error", "scenario.json", "invalid variable lives", "done.variables.lives")
    trailing_comma = '{"info": {"lives": {"address": 19, "type": "|u1",}}}'
    (folder / "data.json").write_text(trailing_comma)
    with pytest.raises(json.JSONDecodeError) as decoding:  # the column is Python's: 50 on 3.11, 49 on 3.13
        json.loads(trailing_comma)
    findings = lint(folder)
    assert found(
        findings, "error", "data.json", f"fail decode: line 1 column {decoding.value.colno}, key info.lives.type",
        "info.lives.type",
    )
    (folder / "data.json").write_text('{"variables": {}}')
    assert found(lint(folder), "error", "data.json", "missing info")


def test_scenario_rules(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(folder / "scenario.json", {
        "reward": {
            "variables": {
                "score": {"reward": 1.0},
                "ghost": {"reward": 1.0},
                "lives": {"penalty": -1.0, "measurement": "absolute", "op": "equal"},
                "x": {"reward": 1.0, "op": "bigger"},
                "y": {"reward": 1.0, "measurement": "relative"},
                "timer": {},
                "frame": {"op": "zero"},
            },
            "time": {"penalty": 0.01},
        },
        "done": {
            "variables": {
                "game_over": {"op": "negative"},
                "lives": {"op": "less-than", "reference": 0},
                "x": {"op": "equal", "reference": 300},
            },
            "nodes": {"never": {"condition": "all"}},
        },
        "crops": [[0, 0, 0, 0]],
        "actions": [[[], ["UP"], ["JUMP"]]],
    })  # fmt: skip
    findings = lint(folder)
    for expected, key in [
        ("invalid variable ghost", "reward.variables.ghost"),
        ("op: negative on unsigned game_over", "done.variables.game_over"),
        ("invalid definition timer", "reward.variables.timer"),
        ("blank reward frame", "reward.variables.frame"),
        ("stable-retro cannot load a scenario with crops", "crops"),
    ]:
        assert found(findings, "error", "scenario.json", expected, key), expected
    for expected, key in [
        ("the penalty of lives never applies", "reward.variables.lives.penalty"),
        ("unknown op 'bigger'", "reward.variables.x.op"),
        ("unknown measurement 'relative'", "reward.variables.y.measurement"),
        ("the time penalty is never applied", "reward.time.penalty"),
        ("the done test on lives is never true", "done.variables.lives"),
        ("the done test on x is never true", "done.variables.x"),  # |u1 never equals 300
        ("condition all with no tests is always true", "done.nodes.never"),
        ("suspicious done condition any with more than 2 checks", "done"),
        ("unknown button 'JUMP'", "actions[0][2]"),
    ]:
        assert found(findings, "warning", "scenario.json", expected, key), expected


def test_scenario_done_shapes_from_stable_retros_verifier(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(
        folder / "scenario.json", {"done": {"condition": "all", "variables": {"score": {"measurement": "delta"}}}}
    )
    findings = lint(folder)
    assert found(findings, "warning", "scenario.json", "missing reward", "reward")
    assert found(findings, "error", "scenario.json", "incorrect done condition all with only 1 check")
    assert found(findings, "error", "scenario.json", "invalid done condition score")
    assert found(findings, "warning", "scenario.json", "suspicious variable in done condition: score")
    write_json(
        folder / "scenario.json", {"reward": {"variables": {"score": {"reward": 1}}}, "done": {"condition": "all"}}
    )
    findings = lint(folder)
    assert found(findings, "warning", "scenario.json", "missing done")
    assert found(findings, "warning", "scenario.json", "ends at every step", "done")


def test_scenario_scripts(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(folder / "contest.json", {"reward": {"script": "lua:reward"}, "done": {"script": "lua:done"}})
    write_json(folder / "scripted.json", {
        "reward": {"script": "lua:reward"},
        "done": {"variables": {"finished": {"op": "nonzero"}}},
        "scripts": ["script.lua", "missing.lua"],
    })  # fmt: skip
    (folder / "script.lua").write_text("function reward()\n  data.finished = data.lives == 0\n  return 1\nend\n")
    (folder / "broken.lua").write_text("function oops(\n")
    findings = lint(folder)
    assert found(findings, "error", "contest.json", "needs a Lua script, but the scenario loads none", "reward.script")
    assert found(findings, "error", "scripted.json", "script file missing.lua not found", "scripts[1]")
    assert not found(findings, "error", "scripted.json", "invalid variable finished")  # set by the script
    assert found(findings, "error", "broken.lua", "Lua syntax error")
    write_json(folder / "scripted.json", {"reward": {"script": "lua:score"}, "done": {"script": "lua:reward"},
                                          "scripts": ["script.lua"]})  # fmt: skip
    assert found(lint(folder), "warning", "scripted.json", "function score is not defined in script.lua")


def test_unloadable_scenario_is_an_error_finding(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(folder / "scenario.json", {"reward": {"variables": {}}, "crop": [0, 0]})
    assert found(
        lint(folder), "error", "scenario.json", "fail decode: line 5 column 11, key crop: crop needs 4 numbers", "crop"
    )
    (folder / "scenario.json").write_text("{")
    assert found(lint(folder), "error", "scenario.json", "fail decode: line 1 column 2")


def test_metadata_rules(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(folder / "metadata.json", {"default_state": "Level9", "default_player_state": ["Start", "Start.2P"]})
    findings = lint(folder)
    assert found(findings, "error", "metadata.json", "invalid default state Level9", "default_state")
    assert found(findings, "error", "metadata.json", "invalid default player state Start.2P")
    write_json(folder / "metadata.json", {"title": "x"})
    assert found(lint(folder), "error", "metadata.json", "default state missing")
    (folder / "Start.state").rename(folder / "_Start.state")
    write_json(folder / "metadata.json", {"default_state": "_Start"})
    assert found(lint(folder), "error", "metadata.json", "invalid default state _Start (names starting with _")
    (folder / "metadata.json").unlink()
    assert found(lint(folder), "warning", "metadata.json", "metadata.json missing")


def test_whitelist(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit_json(folder / "data.json", lambda d: d["info"]["lives"].update(type=">u2"))
    assert found(lint(folder), "warning", "data.json", "suspicious type >u2 for lives")
    edit_json(folder / "metadata.json", lambda m: m.update(whitelist={
        "data.json": ["suspicious type >u2 for lives"],
        "scenario.json": ["suspicious variable in done condition: score"],
    }))  # fmt: skip
    findings = lint(folder)
    assert not found(findings, "warning", "data.json", "suspicious type")
    assert found(
        findings,
        "error",
        "metadata.json",
        'missing warning "scenario.json: suspicious variable in done condition: score"',
    )
    assert len(findings) == 1


def test_rom_sha_rules(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    sha = (folder / "rom.sha").read_text().strip()
    cases = {
        "": "rom.sha is empty",
        f"{sha}\r\n{'0' * 40}\r\n": "CRLF line endings",
        f"{sha.upper()}\n": "not a 40-digit lowercase hex SHA-1",
        f"{sha[:-1]}\n": "not a 40-digit lowercase hex SHA-1",
        f"{'0' * 40}\n": "sha mismatch",
    }
    for text, expected in cases.items():
        (folder / "rom.sha").write_text(text, newline="")
        assert found(lint(folder), "error", "rom.sha", expected), expected
    (folder / "rom.sha").unlink()
    assert found(lint(folder), "error", "rom.sha", "rom.sha missing")


def test_rom_extension_must_match_the_name(tmp_path: Path) -> None:
    folder = copy(tmp_path, DEMO_NES, "StudioDemo-Genesis-v0")
    assert found(lint(folder), "error", "rom.nes", "invalid extension for rom.nes")
    shutil.copy(DEMO_GENESIS / "rom.md", folder / "rom.md")
    findings = lint(folder)
    assert found(findings, "warning", "", "several ROM files")
    assert found(findings, "error", "rom.sha", "sha mismatch")  # rom.md is tried first, as in stable-retro
    whitelisted = copy(tmp_path, DEMO_NES, "Other-Genesis")
    edit_json(whitelisted / "metadata.json", lambda m: m.update(whitelist={"rom.nes": True}))
    assert not found(lint(whitelisted), "error", "rom.nes", "")


def test_genesis_header(tmp_path: Path) -> None:
    folder = copy(tmp_path, DEMO_GENESIS)
    rom = bytearray((folder / "rom.md").read_bytes())
    rom[0x100:0x104] = b"XXXX"
    (folder / "rom.md").write_bytes(rom)
    assert found(lint(folder), "error", "rom.md", "invalid genesis rom")


def test_state_rules(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    raw = gzip.decompress((folder / "Start.state").read_bytes())
    (folder / "Plain.state").write_bytes(raw)
    (folder / "Cut.state").write_bytes(gzip.compress(raw)[:40])
    findings = lint(folder)
    assert found(findings, "error", "Plain.state", "not a gzip file")
    assert not found(findings, "error", "Cut.state", "")  # the quick check reads the header only
    assert found(lint(folder, deep=True), "error", "Cut.state", "truncated")
    for state in folder.glob("*.state"):
        state.unlink()
    findings = lint(folder)
    assert found(findings, "warning", "", "no .state files")
    assert found(findings, "error", "metadata.json", "invalid default state Start")


def test_lint_never_raises(tmp_path: Path) -> None:
    assert found(lint(tmp_path / "nowhere"), "error", "", "no such directory")
    folder = tmp_path / "Junk-Nes"
    folder.mkdir()
    for name in ("data.json", "scenario.json", "metadata.json", "contest.json"):
        (folder / name).write_bytes(b"\xff\xfe garbage")
    (folder / "rom.sha").write_bytes(b"\xff")
    findings = lint(folder)
    assert {f.file for f in findings if f.level == "error"} >= {
        "data.json",
        "scenario.json",
        "metadata.json",
        "rom.sha",
    }


def test_lint_an_integration_in_memory(tmp_path: Path) -> None:
    game = Integration.load(DEMO_NES)
    game.variables["lives"].type = ">u2"
    game.scenario["done"]["variables"]["ghost"] = {"op": "zero"}
    game.scenario["crop"] = "full"
    game.metadata["default_state"] = "Nope"
    game.states["Raw"] = b""
    game.rom_shas.append("xyz")
    findings = lint(game)
    assert found(findings, "warning", "data.json", "suspicious type >u2 for lives")
    assert found(findings, "error", "scenario.json", "crop must be an array")
    assert found(findings, "error", "metadata.json", "invalid default state Nope")
    assert found(findings, "error", "Raw.state", "empty state")
    assert found(findings, "error", "rom.sha", "not a 40-digit lowercase hex SHA-1", "line 2")


def test_one_broken_scenario_does_not_hide_the_others(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    write_json(folder / "a.json", {"reward": {"script": 1}})
    write_json(folder / "b.json", {"reward": {"variables": {"ghost": {"reward": 1}}}})
    write_json(folder / "c.json", {"reward": {"script": None}})
    findings = lint(folder)
    assert found(findings, "error", "a.json", "fail decode", "reward.script")
    assert found(findings, "error", "b.json", "invalid variable ghost")
    assert found(findings, "error", "c.json", "fail decode", "reward.script")
    (folder / "metadata.json").write_text("[1, 2")
    findings = lint(folder)
    assert [f.message[:11] for f in findings if f.file == "metadata.json"] == ["fail decode"]
