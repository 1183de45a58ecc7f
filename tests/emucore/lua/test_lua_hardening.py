"""Lua scripts against the real env: a script that breaks a limit gives an error, never a dead process.

Each scenario runs in a child process (a crash there must fail the test, not end the run), on a copy
of the homebrew StudioDemo-Nes integration with its own scenario.json and script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from emucore.paths import integrations_dir

pytest.importorskip("lupa")

DEMO_NES = integrations_dir() / "StudioDemo-Nes"

# Prints one line per phase: make's warnings, then "<phase> ok <reward>" or "<phase> <error type> <message>".
CHILD = r"""
import sys, warnings
import emucore
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        env = emucore.make(sys.argv[1], frame_skip=int(sys.argv[3]))
    except emucore.EmucoreError as error:
        env = None
        print("make error", type(error).__name__, error)
for warning in caught:
    print("warning", warning.category.__name__, warning.message)
if env is None:
    print("closed")
    sys.exit(0)
def attempt(phase, action):
    try:
        result = action()
    except Exception as error:
        print(phase, "error", type(error).__name__, error)
    else:
        print(phase, "ok", result[1] if phase.startswith("step") else "")
attempt("reset", lambda: env.reset(seed=0))
for i in range(int(sys.argv[2])):
    attempt(f"step{i}", lambda: env.step(env.action_space.sample() * 0))
attempt("reset2", lambda: env.reset(seed=0))
attempt("step-after-reset", lambda: env.step(env.action_space.sample() * 0))
env.close()
print("closed")
"""

SCRIPTED = {"done": {"script": "lua:d"}, "reward": {"script": "lua:r"}, "scripts": ["s.lua"]}

# Fills the state to its cap with live data: halves the piece size whenever one does not fit.
FLOOD = """
K = nil
local n = 0
function flood()
  local size = 2^20
  while size >= 1 do
    n = n + 1
    local ok = pcall(function() K = { K, string.rep("x", size) .. n } end)
    if not ok then collectgarbage() size = math.floor(size / 2) end
  end
end
"""


def game_with(tmp_path: Path, script: str, scenario: dict | None = None) -> Path:
    game = tmp_path / "StudioDemo-Nes"
    shutil.copytree(DEMO_NES, game)
    (game / "scenario.json").write_text(json.dumps(scenario or SCRIPTED))
    (game / "s.lua").write_text(script)
    return game


# The studio's way: the game data loaded and evaluated whatever the scripts' load errors.
EVALUATE = """
import sys
from emucore import Emulator
from emucore.scenario.loader import GameDataSources, load_game_data
from emucore.integration import find_rom
from pathlib import Path
folder = Path(sys.argv[1])
emulator = Emulator(find_rom(folder))
data = load_game_data(GameDataSources.of_folder(folder), emulator.system, lambda: emulator.memory).data
for phase in ("call", "call2"):
    try:
        data.reset()
        data.update_ram()
        print(phase, "ok")
    except Exception as error:
        print(phase, "error", type(error).__name__, error)
print("closed")
"""


def run_child(game: Path, steps: int = 3, timeout: float = 120, frame_skip: int = 1,
              child: str = CHILD) -> dict[str, str]:
    """The child's lines by phase (``warning`` lines joined); fails unless it exits normally."""
    done = subprocess.run([sys.executable, "-c", child, str(game), str(steps), str(frame_skip)],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"exit status {done.returncode}\n{done.stdout}\n{done.stderr[-2000:]}"
    lines: dict[str, str] = {}
    for line in done.stdout.splitlines():
        phase, _, rest = line.partition(" ")
        lines[phase] = (lines.get(phase, "") + "\n" + rest).strip()
    assert "closed" in lines, done.stdout
    return lines


# ---------------------------------------------------------------------------------------------
# memory: every call into Lua is protected (rel-01)


def test_script_that_fills_memory_while_loading_is_reported_and_the_process_lives(tmp_path: Path) -> None:
    game = game_with(tmp_path, "local t = {} for i = 1, 1e7 do t[i] = {i} end\n"
                               "function r() return 0 end\nfunction d() return false end\n")
    lines = run_child(game)
    assert "ScriptWarning" in lines["warning"] and "not enough memory" in lines["warning"]
    # its functions were never defined: make() says so, naming the scenario and the load error
    assert lines["make"].startswith("error IntegrationError"), lines
    assert "'lua:r' the scenario uses is not defined" in lines["make"] and "not enough memory" in lines["make"]
    # a caller that evaluates anyway (the studio's scenario editor) gets errors, never a dead process
    lines = run_child(game, child=EVALUATE)
    assert lines["call"].startswith("error LuaError"), lines
    assert "function 'd' is not defined (s.lua failed to load)" in lines["call"]


def test_script_that_leaves_its_state_full_while_loading(tmp_path: Path) -> None:
    game = game_with(tmp_path, FLOOD + "flood()\nfunction r() return 1 end\nfunction d() return false end\n")
    lines = run_child(game)
    assert "not enough memory" in lines["warning"]
    assert lines["make"].startswith("error IntegrationError") and "'lua:r'" in lines["make"], lines
    lines = run_child(game, child=EVALUATE)
    assert lines["call"].startswith("error LuaError"), lines
    assert "s.lua: not enough memory" in lines["call"] and "still full" in lines["call"]


@pytest.mark.parametrize("function", ["r", "d"])
def test_call_that_leaves_its_state_full(tmp_path: Path, function: str) -> None:
    """The call that runs out of memory fails; the calls after it fail without entering the full state;
    reset rebuilds it."""
    calls = "calls = (calls or 0) + 1\nif calls == 3 then flood() end"  # the reset's evaluation is call 1
    other = "r" if function == "d" else "d"
    result = "return 2" if function == "r" else "return false"
    game = game_with(tmp_path, FLOOD + f"function {function}()\n{calls}\n{result}\nend\n"
                               f"function {other}() return {'false' if other == 'd' else '2'} end\n")
    lines = run_child(game, steps=4)
    assert "warning" not in lines
    assert lines["reset"] == "ok" and lines["step0"] == "ok 2.0"
    assert lines["step1"].startswith("error LuaError") and "not enough memory" in lines["step1"]
    for phase in ("step2", "step3"):
        assert lines[phase].startswith("error LuaError") and "still full" in lines[phase], lines
    assert lines["reset2"] == "ok" and lines["step-after-reset"] == "ok 2.0"


def test_call_that_runs_out_of_memory_with_garbage_only(tmp_path: Path) -> None:
    """Memory a failed call leaves as garbage is collected: the next calls run normally."""
    game = game_with(tmp_path, "calls = 0\nfunction r()\ncalls = calls + 1\n"
                               "if calls == 2 then local t = {} for i = 1, 1e8 do t[i] = {i} end end\n"
                               "return calls\nend\nfunction d() return false end\n")
    lines = run_child(game)
    assert lines["step0"].startswith("error LuaError") and "not enough memory" in lines["step0"]
    assert lines["step1"] == "ok 3.0" and lines["step2"] == "ok 4.0"


@pytest.mark.slow  # a source at the size cap compiled
def test_source_too_big_for_the_cap_is_an_error() -> None:
    """lupa pushes a source outside any protected call: one beyond the cap must be refused before."""
    child = ("from emucore.lua import LuaScripts\nsource = 'x = 1 ' * 4_000_000\n"
             "print(LuaScripts.check_syntax(source, 'big.lua'))\n"
             "lua = LuaScripts([('big.lua', source), ('small.lua', 'function f() return 1 end')], object())\n"
             "lua.reload()\nprint(lua.load_errors[0])\nprint(lua.call('f'))\n")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    syntax, load, call = done.stdout.splitlines()
    assert syntax == "Lua load failed: not enough memory"
    assert load.startswith("Lua load failed: big.lua: not enough memory for its source")
    assert call == "1.0"


# ---------------------------------------------------------------------------------------------
# library calls the count hook does not see are priced before they run (rel-02, rel-03)

LONG_CALLS = [
    # a plain search, naive in C: 2e6 comparisons of up to 2e6 bytes
    ("local s, p = string.rep('a', 4e6), string.rep('a', 2e6) .. 'b'", "string.find(s, p, 1, true)",
     "search too costly"),
    ("local s, p = string.rep('a', 4e6), string.rep('a', 2e6) .. 'b'", "s:find(p, 1, true)", "search too costly"),
    ("local s, p = string.rep('a', 4e6), string.rep('a', 2e6) .. 'b'", "s:find(p)", "search too costly"),
    # 500,000 pattern items and no quantifier, tried at 2e6 positions
    ("local s, p = string.rep('a', 2e6), string.rep('%a', 5e5) .. 'b'", "string.find(s, p)", "pattern too complex"),
    ("local s, p = string.rep('a', 2e6), string.rep('.', 5e5) .. 'b'", "s:match(p)", "pattern too complex"),
    ("local s, p = string.rep('a', 2e6), string.rep('a', 5e5) .. '[b]'", "for x in s:gmatch(p) do end",
     "pattern too complex"),
    ("local s, p = string.rep('a', 2e6), string.rep('a', 5e5) .. '[b]'", "s:gsub(p, '')", "pattern too complex"),
    # sort's own comparison of two 4 MiB strings, 1e7 times
    ("collectgarbage() local big, t = string.rep('a', 2^22), {} for i = 1, 5e5 do t[i] = big end", "table.sort(t)",
     "time limit exceeded"),
]


def test_library_calls_that_could_run_for_minutes_are_refused(tmp_path: Path) -> None:
    """Each of these was one C call of minutes to hours in one step; now each step fails at once with
    a clear error (the child must finish well within its timeout), and the env goes on."""
    cases = "".join(f"  function() {setup} {call} end,\n" for setup, call, _ in LONG_CALLS)
    game = game_with(tmp_path, f"local cases = {{\n{cases}}}\ncalls = 0\n"
                               "function r() calls = calls + 1 local case = cases[calls - 1]"
                               " if case then case() end return calls end\n"
                               "function d() return false end\n")
    lines = run_child(game, steps=len(LONG_CALLS) + 1, timeout=60)
    for i, (_, call, message) in enumerate(LONG_CALLS):
        assert lines[f"step{i}"].startswith("error LuaError") and message in lines[f"step{i}"], (call, lines)
    assert lines[f"step{len(LONG_CALLS)}"] == f"ok {len(LONG_CALLS) + 2}.0"


def test_bounded_library_calls_keep_their_results() -> None:
    from emucore.lua import LuaScripts

    lua = LuaScripts([("s.lua", """
local text = string.rep('abcdefgh', 100000)
function far() return (text .. 'needle'):find('hneedle', 1, true) end
function absent() return text:find('hab' .. string.rep('x', 2000), 1, true) == nil end
function literal() return (text .. 'xy'):find('hxy') end
function sorted() local t = {'b', 'c', 'a'} table.sort(t) return t[1] .. t[2] .. t[3] == 'abc' end
function mixed() local ok, e = pcall(table.sort, {1, 'x'}) return not ok and e:find('compare') ~= nil end
function custom() local t = {1, 3, 2} table.sort(t, function(a, b) return a > b end) return t[1] end
function backref() return ('xaax'):find('(a)%1') end
""")], object())
    lua.reload()
    assert lua.load_errors == []
    assert lua.call("far") == 800000.0
    assert lua.call("absent") is True
    assert lua.call("literal") == 800000.0
    assert lua.call("sorted") is True
    assert lua.call("mixed") is True
    assert lua.call("custom") == 3.0
    assert lua.call("backref") == 2.0


# ---------------------------------------------------------------------------------------------
# a script's error or a non-finite result (rel-12)

FRAME_TIED = {"done": {"variables": {"lives": {"op": "equal", "reference": 0}}}, "reward": {"script": "lua:r"},
              "scripts": ["s.lua"]}
# fails at the evaluation of frame 39 only; else its reward is the frame it sees
FRAME_TIED_SCRIPT = "function r() if scenario.frame == 39 then error('boom at ' .. scenario.frame) end" \
                    " return scenario.frame end\n"


def test_frame_counts_when_the_script_raises(tmp_path: Path) -> None:
    """The frame the emulator ran counts though its evaluation raised: the error does not repeat."""
    game = game_with(tmp_path, FRAME_TIED_SCRIPT, FRAME_TIED)
    lines = run_child(game, steps=42)  # the reset evaluates frame 0, step i frame i + 1
    assert lines["step37"] == "ok 38.0"
    assert lines["step38"].startswith("error LuaError") and "boom at 39" in lines["step38"]
    assert lines["step39"] == "ok 40.0" and lines["step41"] == "ok 42.0"


def test_frame_counts_when_the_script_raises_with_frame_skip(tmp_path: Path) -> None:
    game = game_with(tmp_path, FRAME_TIED_SCRIPT, FRAME_TIED)
    lines = run_child(game, steps=12, frame_skip=4)  # step i evaluates frames 4i + 1 .. 4i + 4
    assert lines["step8"] == f"ok {33.0 + 34 + 35 + 36}"
    assert lines["step9"].startswith("error LuaError") and "boom at 39" in lines["step9"]
    assert lines["step10"] == f"ok {40.0 + 41 + 42 + 43}"  # frame 40 of step 9 never ran


def test_frame_counts_when_the_script_raises_in_a_vector_env(tmp_path: Path) -> None:
    from emucore.env import RetroVectorEnv
    from emucore.lua import LuaError

    game = game_with(tmp_path, FRAME_TIED_SCRIPT, FRAME_TIED)
    envs = RetroVectorEnv(str(game), 2, num_threads=1)
    try:
        envs.reset(seed=0)
        actions = envs.action_space.sample() * 0
        for step in range(38):
            _, rewards, *_ = envs.step(actions)
            assert rewards.tolist() == [step + 1.0] * 2
        with pytest.raises(LuaError, match="boom at 39"):
            envs.step(actions)
        _, rewards, *_ = envs.step(actions)
        assert rewards.tolist() == [40.0, 40.0]
    finally:
        envs.close()


def test_non_finite_results_are_errors_naming_the_script(tmp_path: Path) -> None:
    game = game_with(tmp_path, "calls = 0\nlocal results = {0/0, 1/0, -1/0, 1e39}\n"
                               "function r() calls = calls + 1 return results[calls - 1] or 1 end\n"
                               "dcalls = 0\nfunction d() dcalls = dcalls + 1 if dcalls == 7 then return 0/0 end"
                               " return 1/0 == 0 end\n")
    lines = run_child(game, steps=7)
    for step, shown in enumerate(("nan", "inf", "-inf", "1e+39")):
        assert lines[f"step{step}"] == (f"error LuaError Lua call failed: s.lua: the reward function 'lua:r'"
                                        f" returned {shown}, not a finite number in float32"), lines
    assert lines["step4"] == "ok 1.0"
    assert lines["step5"] == "error LuaError Lua call failed: s.lua: the done function 'lua:d' returned nan," \
                             " not a finite number"
    assert lines["step6"] == "ok 1.0"
