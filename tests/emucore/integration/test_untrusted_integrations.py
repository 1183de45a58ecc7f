"""Integration folders are untrusted input: each class of bad file the fuzzer found gets an
EmucoreError naming the file and the key, and a scenario's scripts cannot reach outside its folder."""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
import warnings
from pathlib import Path

import pytest

import emucore
from emucore.errors import EmucoreError, ScriptWarning, StateNotFoundError
from emucore.integration import IntegrationError, lint, parse_data_json, parse_scenario_json
from emucore.lua import LuaError, LuaScripts
from emucore.paths import integrations_dir
from emucore.scenario.custom_variables import MAX_CUSTOM_VARIABLES
from emucore.scenario.load_checks import UnmappedVariableError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def game(tmp_path) -> Path:
    """A copy of the NES demo integration, to spoil."""
    folder = tmp_path / "Spoilt-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    return folder


def make(folder: Path, **kwargs):
    return emucore.make(str(folder), **kwargs)


def make_error(folder: Path, error: type[BaseException] = IntegrationError, **kwargs) -> BaseException:
    """The error make() + reset() + a step raise; the env never gets to run."""
    with pytest.raises(error) as caught:
        env = make(folder, **kwargs)
        try:
            env.reset()
            env.step(env.action_space.sample())
        finally:
            env.close()
    return caught.value


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# ---- data.json ----


def test_data_json_that_is_not_utf8_names_the_file(game):
    (game / "data.json").write_bytes(b'{"info": {"x\xff": {"address": 1, "type": "|u1"}}}')
    error = make_error(game)
    assert error.path == game / "data.json" and "not UTF-8" in str(error)


def test_data_json_bad_escapes_name_the_line_and_key():
    for text in (r'{"info": {"a": {"address": 1, "type": "\u12"}}}', '{"info": {"a\\x": 1}}'):
        with pytest.raises(IntegrationError, match=r"data\.json: line 1 column \d+"):
            parse_data_json(text.encode(), Path("data.json"))


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999", "9" * 400])
def test_numbers_json_cannot_hold_are_errors_naming_the_line(literal):
    text = '{"info": {"a": {"address": ' + literal + ', "type": "|u1"}}}'
    with pytest.raises(IntegrationError, match=r"line 1 column 28: the number .* is out of range"):
        parse_data_json(text, Path("data.json"))


def test_an_info_that_is_null_is_no_variables(game):
    (game / "data.json").write_text('{"info": null}')
    (game / "scenario.json").write_text('{"reward": {"time": {"reward": 1}}}')
    env = make(game)
    try:
        env.reset()
        assert env.step(env.action_space.sample())[4] == {}
    finally:
        env.close()


def test_an_unmapped_variable_the_scenario_uses_is_an_error_at_make(game):
    edit_json(game / "data.json", lambda d: d["info"].update(far={"address": 0x123456, "type": "|u1"}))
    (game / "scenario.json").write_text('{"done": {"variables": {"far": {"op": "equal", "reference": 1}}}}')
    error = make_error(game, UnmappedVariableError)
    assert isinstance(error, IndexError) and error.path == game / "data.json" and error.key == "info.far.address"


def test_a_variable_unknown_to_data_json_named_by_a_script_scenario_fails_clearly_at_reset(game):
    (game / "script.lua").write_text("function reward() return 0 end\n")
    (game / "scenario.json").write_text(
        '{"scripts": ["script.lua"], "reward": {"script": "lua:reward"},'
        ' "done": {"variables": {"ghost": {"op": "equal", "reference": 1}}}}'
    )
    error = make_error(game, EmucoreError)
    assert isinstance(error, ValueError) and "'ghost'" in str(error) and "custom variable" in str(error)


# ---- metadata.json ----


@pytest.mark.parametrize(
    "metadata, key",
    [
        ({"default_state": ["Start"]}, "default_state"),
        ({"default_state": "../../elsewhere"}, "default_state"),
        ({"default_player_state": "Start"}, "default_player_state"),
        ({"default_player_state": [{"a": 1}]}, "default_player_state[0]"),
    ],
)
def test_mistyped_metadata_names_the_key_at_make_and_lint_reports_it(game, metadata, key):
    (game / "metadata.json").write_text(json.dumps(metadata))
    error = make_error(game)
    assert error.path == game / "metadata.json" and error.key == key
    findings = [f for f in lint(game) if f.file == "metadata.json"]
    assert any(f.level == "error" and f.key.startswith(key.split("[")[0]) for f in findings)


def test_metadata_that_is_not_json_names_the_file(game):
    (game / "metadata.json").write_bytes(b"\xff\xfe{")
    assert make_error(game).path == game / "metadata.json"


def test_a_default_state_that_does_not_exist_is_a_file_not_found_emucore_error(game):
    (game / "metadata.json").write_text('{"default_state": "Level9"}')
    error = make_error(game, StateNotFoundError)
    assert isinstance(error, FileNotFoundError) and "Level9.state" in str(error)
    assert f"not found in {game}" in str(error)  # the folder opened by path, not an empty integration type


# ---- scenario.json ----


@pytest.mark.parametrize(
    "scenario, key",
    [
        ({"reward": {"variables": {"score": {"reference": 2**70}}}}, "reward.variables.score.reference"),
        ({"reward": {"variables": {"score": {"reward": 1e300}}}}, "reward.variables.score.reward"),
        ({"rewards": [{"time": {"penalty": -1e39}}]}, "rewards[0].time.penalty"),
        ({"done": {"nodes": {"a": {"variables": {"lives": {"reference": -(2**64)}}}}}},
         "done.nodes.a.variables.lives.reference"),
        ({"crop": [0, 0, 2**40, 10]}, "crop[2]"),
    ],
)
def test_scenario_numbers_out_of_range_name_the_key(game, scenario, key):
    (game / "scenario.json").write_text(json.dumps(scenario))
    error = make_error(game)
    assert error.path == game / "scenario.json" and error.key == key and "out of range" in error.problem
    with pytest.raises(IntegrationError):
        parse_scenario_json(json.dumps(scenario), Path("scenario.json"))


def test_lint_survives_unhashable_ops_and_huge_references(game):
    (game / "scenario.json").write_text(json.dumps({
        "reward": {"variables": {"score": {"op": ["equal"], "reward": 1}}},
        "done": {"variables": {"lives": {"op": {"x": 1}, "measurement": ["delta"]}}},
    }))
    findings = lint(game)
    assert any(f.key == "reward.variables.score.op" for f in findings)
    assert any(f.key == "done.variables.lives.measurement" for f in findings)
    edit_json(game / "scenario.json", lambda d: d["reward"]["variables"]["score"].update(reference=10**200))
    findings = lint(game)
    assert any(f.key == "reward.variables.score.reference" and f.level == "error" for f in findings)


# ---- scripts ----


def secret_file(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.lua"
    secret.parent.mkdir()
    secret.write_text("TOPSECRETTOKEN = 1\nfunction reward() return 1 end\n")
    return secret


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_scripts_outside_the_folder_are_refused_without_reading_them(game, tmp_path, how):
    secret = secret_file(tmp_path)
    if how == "absolute":
        name = str(secret)
    elif how == "dotdot":
        name = "../outside/secret.lua"
    else:
        (game / "link.lua").symlink_to(secret)
        name = "link.lua"
    (game / "scenario.json").write_text(json.dumps({"scripts": [name], "reward": {"script": "lua:reward"}}))
    error = make_error(game)
    assert error.path == game / "scenario.json" and error.key == "scripts"
    assert "outside" in error.problem and "TOPSECRETTOKEN" not in str(error)
    findings = [f for f in lint(game) if f.key == "scripts[0]"]
    assert findings and findings[0].level == "error"


def test_a_script_that_fails_at_top_level_is_a_warning_at_make_naming_it(game):
    (game / "broken.lua").write_text("function reward() return 1 end\nerror('boom at load')\n")
    (game / "scenario.json").write_text('{"scripts": ["broken.lua", "gone.lua"], "reward": {"script": "lua:reward"}}')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(game).close()
    messages = [str(w.message) for w in caught if issubclass(w.category, ScriptWarning)]
    assert any("broken.lua:2: boom at load" in m for m in messages)
    assert any("'gone.lua' not found" in m for m in messages)


def test_a_function_a_failed_script_would_have_defined_is_an_error_at_make(game):
    """rel-01: the reward's function died with its script's load; the first step was the first to say so."""
    (game / "broken.lua").write_text("error('boom at load')\nfunction reward() return 1 end\n")
    (game / "scenario.json").write_text('{"scripts": ["broken.lua"], "reward": {"script": "lua:reward"}}')
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScriptWarning)
        error = make_error(game)
    assert "'lua:reward' the scenario uses is not defined" in str(error) and "boom at load" in str(error)
    assert error.path == game / "scenario.json"


def test_custom_variables_are_bounded_with_a_clear_error(game):
    (game / "flood.lua").write_text(
        "function reward()\n  for i = 1, 100000 do data['v' .. i] = i end\n  return 0\nend\n"
        "function long_name() data[string.rep('n', 1000)] = 1 return 0 end\n"
    )
    (game / "scenario.json").write_text('{"scripts": ["flood.lua"], "reward": {"script": "lua:reward"}}')
    env = make(game)
    try:
        with pytest.raises(LuaError, match=f"at most {MAX_CUSTOM_VARIABLES} custom variables"):
            env.reset()
        assert len(env.evaluator.custom) == MAX_CUSTOM_VARIABLES
        env.evaluator.custom.clear()
        with pytest.raises(LuaError, match="1000 characters"):
            env.evaluator.lua.call("lua:long_name")
    finally:
        env.close()


class BlockingData:
    """Reading ``work`` runs ~0.3 s of CPU in another thread and waits for it."""

    frame = 0

    def lookup(self, name: str) -> int:
        block = bytes(64 << 20)

        def burn() -> None:
            for _ in range(8):
                hashlib.sha256(block).digest()  # releases the GIL: CPU time of that thread only

        worker = threading.Thread(target=burn)
        worker.start()
        worker.join()
        return 1

    def set_value(self, name, value) -> None:
        pass

    def read_byte(self, address: int) -> int:
        return 0


def test_the_lua_time_limit_counts_only_the_scripts_own_thread():
    lua = LuaScripts(
        [("s.lua", "function f() local v = data.work for i = 1, 10000 do v = v + 1 end return v end")],
        BlockingData(),
        time_limit=0.1,
    )
    lua.reload()
    assert lua.call("lua:f") == 10001.0  # the other thread's CPU time is not the script's


def test_verify_runs_the_game_and_reports_what_only_a_run_shows(game, capsys):
    from emucore.cli import main as cli_main

    (game / "broken.lua").write_text("function reward() return 1 end\nerror('boom at load')\n")
    (game / "scenario.json").write_text('{"scripts": ["broken.lua"], "reward": {"script": "lua:reward"}}')
    assert cli_main(["verify", "--lint-only", str(game)]) == 0  # the files alone look fine
    capsys.readouterr()
    assert cli_main(["verify", str(game)]) == 1
    out = capsys.readouterr().out
    assert "error: scenario.json [scripts]:" in out and "broken.lua:2: boom at load" in out
    edit_json(game / "data.json", lambda d: d["info"].update(far={"address": 0x123456, "type": "|u1"}))
    (game / "scenario.json").write_text('{"reward": {"variables": {"far": {"reward": 1}}}}')
    assert cli_main(["verify", str(game)]) == 1
    assert "error: data.json [info.far.address]:" in capsys.readouterr().out


def test_script_names_the_file_system_refuses_are_clear_errors(game):
    for name in ("a" * 300 + ".lua", "\ud800.lua"):
        (game / "scenario.json").write_text(json.dumps({"scripts": [name]}))
        error = make_error(game)
        assert error.path == game / "scenario.json" and error.key == "scripts"
        lint(game)  # and lint reports rather than raises


def test_a_script_function_without_a_script_is_an_error_at_make(game):
    (game / "scenario.json").write_text('{"done": {"script": "lua:over"}}')
    error = make_error(game)
    assert error.key == "done.script" and "no script is loaded" in error.problem


def test_deeply_nested_metadata_is_an_error_naming_the_file(game):
    (game / "metadata.json").write_text("[" * 100_000 + "]" * 100_000)
    error = make_error(game)
    assert error.path == game / "metadata.json" and "nested too deeply" in error.problem


def test_metadata_cannot_point_the_rom_outside_the_folder(game, tmp_path):
    outside = tmp_path / "elsewhere.nes"
    outside.write_bytes((game / "rom.nes").read_bytes())
    (game / "metadata.json").write_text(json.dumps({"default_state": "Start", "original_rom_name": str(outside)}))
    from emucore import data

    assert data.get_original_romfile_path(str(game)) == str(game / "rom.nes")
    assert data.get_fbneo_rom_name(str(game)) is None
    assert any(f.key == "original_rom_name" and f.level == "error" for f in lint(game))


def test_a_bk2_whose_zip_offsets_point_before_the_file_is_a_movie_error(tmp_path):
    import struct
    import zipfile

    from emucore.errors import MovieError
    from emucore.movie.bk2 import read_movie

    path = tmp_path / "bad.bk2"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Header.txt", "MovieVersion BizHawk v2.0\n")
        archive.writestr("Input Log.txt", "[Input]\n|..|\n[/Input]\n")
    data = bytearray(path.read_bytes())
    end = data.rindex(b"PK\x05\x06")
    (offset,) = struct.unpack_from("<I", data, end + 16)
    struct.pack_into("<I", data, end + 16, offset + 100_000)  # the central directory claims to start later
    path.write_bytes(bytes(data))
    with pytest.raises(MovieError, match="bad.bk2: entry .* is corrupt"):
        read_movie(path)


# ---- states ----


def test_no_corrupt_fceux_length_hangs_the_core(game):
    """Every section and chunk length of a real state made longer: each state is refused before the
    core sees it, or loads and runs. In a subprocess, so a hang fails the test instead of the suite."""
    import subprocess
    import sys

    code = f"""
import gzip, struct
from emucore import Emulator, StateError
raw = gzip.decompress(open({str(game / "Start.state")!r}, "rb").read())
fields, at = [], 16
while at < len(raw):
    fields.append(at + 1)
    chunk, end = at + 5, at + 5 + struct.unpack_from("<I", raw, at + 1)[0]
    while chunk < end:
        fields.append(chunk + 4)
        chunk += 8 + struct.unpack_from("<I", raw, chunk + 4)[0]
    at = end
emu = Emulator({str(game / "rom.nes")!r})
emu.step()
refused = 0
for field in fields:
    for grow in (1, 1 << 16, 1 << 31):
        spoilt = bytearray(raw)
        struct.pack_into("<I", spoilt, field, (struct.unpack_from("<I", raw, field)[0] + grow) % (1 << 32))
        try:
            emu.set_state(bytes(spoilt))
            emu.step()
        except StateError:
            refused += 1
        emu.set_state(raw)
print(len(fields), refused)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    fields, refused = map(int, result.stdout.split())
    assert fields > 30 and refused >= 2 * fields, result.stderr


def test_a_state_that_would_hang_fceumm_is_a_state_error_at_make_naming_the_file(game, tmp_path):
    """fceumm loops forever on a chunk longer than its section: in a subprocess, so a hang fails the test."""
    import gzip
    import subprocess
    import sys

    raw = bytearray(gzip.decompress((game / "Start.state").read_bytes()))
    raw[2173] = 197  # one byte of the 'ICoa' chunk's size: what the fuzzer found
    (game / "Start.state").write_bytes(gzip.compress(bytes(raw)))
    code = (
        "import emucore, sys\n"
        "try:\n"
        f"    emucore.make({str(game)!r})\n"
        "except emucore.StateError as e:\n"
        "    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert "Start.state" in result.stdout and "chunk 'ICoa'" in result.stdout, result.stderr
