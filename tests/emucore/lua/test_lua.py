"""emucore.lua: stable-retro's scenario-script interface, and the sandbox around it."""

from __future__ import annotations

import importlib.util
import json
import math
import time
from pathlib import Path

import pytest

import emucore.lua as lua_module
import emucore.lua.runtime as lua_runtime
from emucore.lua import LuaError, LuaScripts, to_done, to_int64, to_reward

lupa = pytest.importorskip("lupa")


class FakeData:
    """A DataAccess: data.json variables, custom variables and 256 bytes of memory at 0x100."""

    def __init__(self, variables: dict[str, int] | None = None, *, base: int = 0x100):
        self.variables = dict(variables if variables is not None else {"lives": 3, "score": 1200})
        self.custom: dict[str, float | bool | None] = {}
        self.memory = bytearray(range(256))
        self.base = base
        self.frame = 0
        self.writes: list[tuple[str, object]] = []

    def lookup(self, name: str) -> int | float | bool | None:
        if name in self.custom:
            return self.custom[name]
        return self.variables[name]  # KeyError for an unknown name

    def set_value(self, name: str, value: int | float | bool | None) -> None:
        self.writes.append((name, value))
        if name in self.variables:
            self.variables[name] = to_int64(0.0 if value is None else float(value))
        else:
            self.custom[name] = value

    def read_byte(self, address: int) -> int:
        if not self.base <= address < self.base + len(self.memory):
            raise IndexError(address)
        return self.memory[address - self.base]


class ZeroData(FakeData):
    """Every name reads 0 (unless a script set it): enough to run the shipped scripts."""

    def lookup(self, name: str) -> int | float | bool | None:
        return self.custom.get(name, 0)


def scripts(source: str, data: FakeData | None = None, name: str = "script.lua", **kwargs) -> LuaScripts:
    lua = LuaScripts([(name, source)], data if data is not None else FakeData(), **kwargs)
    lua.reload()
    assert lua.load_errors == []
    return lua


def run(body: str, data: FakeData | None = None, **kwargs) -> object:
    """Call a function whose body is ``body`` (its first line is line 2 of script.lua)."""
    return scripts(f"function f()\n{body}\nend\n", data, **kwargs).call("lua:f")


def fails(body: str, data: FakeData | None = None, **kwargs) -> LuaError:
    with pytest.raises(LuaError) as info:
        run(body, data, **kwargs)
    return info.value


# ---------------------------------------------------------------------------------------------
# data and scenario


def test_data_reads_variables_custom_first():
    data = FakeData()
    assert run("return data.lives * 10 + data.score", data) == 1230.0
    data.custom["lives"] = 0.5
    assert run("return data.lives", data) == 0.5
    data.custom["flag"] = True
    assert run("return data.flag", data) is True
    data.custom["void"] = None
    assert run("return data.void == nil", data) is True


def test_data_reads_bytes_by_number():
    data = FakeData()
    assert run("return data[0x105]", data) == 5.0
    assert run('return data["0x106"] + data[" 263 "]', data) == 6.0 + 7.0  # numeric strings count
    assert run("return data[0x108 + 0.9]", data) == 8.0  # truncated toward zero


@pytest.mark.parametrize("address", ["-1", "0xFF", "0x200", "2^70", "0/0"])
def test_data_out_of_bounds(address):
    error = fails(f"local x = data[{address}]")
    assert str(error) == "Lua call failed: script.lua:2: Out of bounds access"
    assert (error.file, error.line) == ("script.lua", 2)


def test_unknown_name_is_an_error_not_nil():
    error = fails("local a = 1\nreturn data.nope == nil")
    assert 'unknown variable "nope"' in str(error)
    assert str(error).startswith("Lua call failed: script.lua:3: ")
    assert error.line == 3


def test_invalid_key_for_reading():
    assert "Invalid variable name" in str(fails("return data[true]"))


def test_writes_pass_numbers_as_floats():
    data = FakeData()
    run("data.lives = 2.9\ndata.ratio = 1\ndata.flag = true\ndata.gone = nil", data)
    assert data.writes == [("lives", 2.9), ("ratio", 1.0), ("flag", True), ("gone", None)]
    assert all(type(v) is float for _, v in data.writes[:2])
    assert data.variables["lives"] == 2  # the caller truncates for memory
    assert run("data.half = 0.5\nreturn data.half", data) == 0.5  # custom numbers stay floats


def test_number_keys_become_names():
    data = FakeData()
    run("data[7] = 1\ndata[1.5] = 2\ndata[2^53] = 3", data)
    assert [name for name, _ in data.writes] == ["7", "1.5", "9.007199254741e+15"]


@pytest.mark.parametrize("value", ['"text"', "{}", "function() end", "coroutine.create(print)"])
def test_invalid_variable_type(value):
    data = FakeData()
    error = fails(f"data.lives = {value}", data)
    assert str(error) == "Lua call failed: script.lua:2: Invalid variable type"
    assert data.writes == []


def test_invalid_key_for_writing():
    assert "Invalid variable name" in str(fails("data[true] = 1"))


def test_scenario_frame_and_timestep():
    data = FakeData()
    data.frame = 9
    lua = scripts("function f() return scenario.frame end\nfunction g() return scenario.timestep end", data)
    assert lua.call("f") == 9.0
    assert lua.call("g") == 2.0
    data.frame = 0
    assert lua.call("g") == 0.0


def test_scenario_unknown_property_and_ignored_writes():
    assert "Unknown scenario property" in str(fails("return scenario.reward"))
    assert run("scenario.frame = 100\nscenario.other = 1\nreturn scenario.frame") == 0.0


def test_data_access_errors_become_lua_errors():
    class Broken(FakeData):
        def lookup(self, name):
            raise RuntimeError("emulator gone")

        @property
        def frame(self):
            raise ValueError("no frame")

        @frame.setter
        def frame(self, value):
            pass

    error = fails("return data.lives", Broken())
    assert "RuntimeError: emulator gone" in str(error)
    assert "no frame" in str(fails("return scenario.frame", Broken()))
    # what a script catches is a plain string, never a Python exception object
    assert run("local ok, e = pcall(function() return data.lives end)\nreturn type(e) == 'string'", Broken())


def test_data_and_scenario_are_sealed():
    assert run("return getmetatable(data) == false and getmetatable(scenario) == false") is True
    assert "protected metatable" in str(fails("setmetatable(data, {})"))


# ---------------------------------------------------------------------------------------------
# calls, results, scopes, reload


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("3", 3.0),
        ("-0.25", -0.25),
        ("true", True),
        ("false", False),
        ("nil", None),
        ("'1'", None),
        ("{}", None),
        ("print", None),
        ("7, 8", 7.0),
        ("", None),
    ],
)
def test_first_return_value_converted(expression, expected):
    result = run(f"return {expression}")
    assert result == expected
    assert type(result) is type(expected)


def test_to_reward_and_to_done():
    assert to_reward(0.1) == 0.10000000149011612
    assert to_reward(3.0) == 3.0 and to_reward(True) == 1.0 and to_reward(False) == 0.0
    assert to_reward(None) == 0.0 and to_reward("5") == 0.0
    assert to_reward(1e40) == math.inf  # float32 overflow
    assert to_done(0.0) is False and to_done(-0.5) is True and to_done(True) is True
    assert to_done(None) is False and to_done("x") is False
    assert to_reward(run("return 0.1")) == 0.10000000149011612


def test_to_int64_truncates_like_the_cpp_cast():
    assert to_int64(2.9) == 2 and to_int64(-2.9) == -2 and to_int64(7) == 7
    assert to_int64(math.nan) == -(2**63) and to_int64(1e30) == -(2**63)


def test_scope_references():
    lua = scripts("function f() return 1 end")
    assert lua.scopes == ("lua",)
    assert lua.call("lua:f") == 1.0
    assert lua.call("f") == 1.0
    with pytest.raises(LuaError, match="scope 'py'"):
        lua.call("py:f")
    with pytest.raises(LuaError, match="function 'g' is not defined"):
        lua.call("lua:g")


def test_two_scopes_need_a_scope_in_the_reference():
    lua = LuaScripts([("a.lua", "function f() return 1 end"), ("b.extra", "function f() return 2 end")], FakeData())
    lua.reload()
    assert lua.scopes == ("lua", "extra")
    assert (lua.call("lua:f"), lua.call("extra:f")) == (1.0, 2.0)
    with pytest.raises(LuaError, match="2 scopes"):
        lua.call("f")


def test_no_scope_at_all():
    lua = LuaScripts([], FakeData())
    lua.reload()
    with pytest.raises(LuaError, match="0 scopes"):
        lua.call("f")


def test_files_of_one_scope_share_globals_in_load_order():
    lua = LuaScripts([("a.lua", "function helper() return 20 end"), ("b.lua", "base = helper() + 1")], FakeData())
    lua.reload()
    lua.scripts.append(("c.lua", "function f() return base end"))
    lua.reload()
    assert lua.call("f") == 21.0
    assert lua.functions() == {"lua": ["f", "helper"]}


def test_reload_resets_globals():
    lua = LuaScripts([("script.lua", "count = 0\nfunction f() count = count + 1 return count end")], FakeData())
    assert lua.call("f") == 1.0  # the first call loads implicitly
    assert lua.call("f") == 2.0
    lua.reload()
    assert lua.call("f") == 1.0


def test_load_errors_are_recorded_and_the_rest_loads():
    lua = LuaScripts(
        [
            ("good.lua", "function f() return 1 end"),
            ("bad.lua", "x = 1\n\nlocal = 2\n"),
            ("boom.lua", "y = 1\nerror('top level')\n"),
            ("after.lua", "function g() return y end"),
        ],
        FakeData(),
    )
    lua.reload()
    bad, boom = lua.load_errors
    assert (bad.file, bad.line) == ("bad.lua", 3)
    assert str(bad).startswith("Lua load failed: bad.lua:3: ")
    assert (boom.file, boom.line) == ("boom.lua", 2) and "top level" in str(boom)
    assert lua.call("f") == 1.0 and lua.call("g") == 1.0
    lua.reload()
    assert len(lua.load_errors) == 2  # recorded afresh, not accumulated


def test_runtime_error_has_file_and_line():
    error = fails("local t = nil\nreturn t.x")
    assert error.file == "script.lua" and error.line == 3
    assert str(error).startswith("Lua call failed: script.lua:3: attempt to index")


def test_error_objects_that_are_not_strings():
    assert str(fails("error({})")) == "Lua call failed: (error object is a table value)"
    assert str(fails("error(42, 0)")) == "Lua call failed: 42"


def test_check_syntax():
    assert LuaScripts.check_syntax("function f()\n  return 1\nend\n", "ok.lua") is None
    error = LuaScripts.check_syntax("function f()\n  local y = 1\n  x = \nend\n", "bad.lua")
    assert isinstance(error, LuaError)
    assert (error.file, error.line) == ("bad.lua", 4)
    assert LuaScripts.check_syntax("while true do end", "loop.lua") is None  # compiled, never run


def test_print_goes_to_the_handler():
    lines: list[str] = []
    lua = scripts("function f() print('x', 1, nil, true) print(('y'):rep(20000)) end", print_handler=lines.append)
    lua.call("f")
    assert lines[0] == "x\t1\tnil\ttrue"
    assert len(lines[1]) == lua_module.PRINT_LIMIT + 3


def test_string_methods_and_libraries_work():
    body = """
    local s = string.format("zone=%d,act=%d", 1, 2)
    local n = 0
    for w in s:gmatch("%d") do n = n + tonumber(w) end
    local t = {3, 1, 2}
    table.sort(t, function(a, b) return a > b end)
    local ok, e = pcall(error, "caught")
    local co = coroutine.wrap(function() coroutine.yield(5) end)
    return n + t[1] + #s:gsub("=", "") + math.abs(-1) + co() + select("#", s:find("act", 1, true))
    """
    assert run(body) == 3 + 3 + 10 + 1 + 5 + 2


def test_c_function_errors_name_the_function_and_the_line():
    assert str(fails("local a = 1\nlocal x = ('x'):rep()")) == (
        "Lua call failed: script.lua:3: bad argument #2 to 'rep' (number expected, got no value)"
    )
    assert "script.lua:2: bad argument #2 to 'format'" in str(fails("local x = string.format('%d', 'x')"))


# ---------------------------------------------------------------------------------------------
# the sandbox

ESCAPES = {
    "io": "return io.open('/etc/passwd')",
    "os": "return os.execute('true')",
    "require": "return require('os')",
    "package": "return package.loaded.os",
    "debug": "return debug.getregistry()",
    "loadfile": "return loadfile('/etc/passwd')",
    "dofile": "return dofile('/etc/passwd')",
    "string.dump": "return load(string.dump(function() end))",
    "dump via metatable": "return getmetatable('').__index.dump(print)",
    "python": "return python.eval('1')",
    "python builtins": "return python.builtins.open",
    "getfenv": "return getfenv(0).python",
    "setfenv": "setfenv(1, {})",
    "jit": "return jit.on()",
    "bit": "return bit.band(1, 1)",
    "ffi": "return require('ffi')",
    "newproxy": "return newproxy(true)",
    "collectgarbage stop": "collectgarbage('stop')",
    "module": "module('x')",
}


@pytest.mark.parametrize("body", list(ESCAPES.values()), ids=list(ESCAPES))
def test_escape_rejected(body):
    fails(body)


def test_loaded_chunks_see_only_the_sandbox():
    body = """
    local f = assert(loadstring("return io, os, debug, python, jit, require, getfenv"))
    local g = assert(load(function() local s = g_piece; g_piece = nil; return s end))
    return select("#", f()) == 7 and f() == nil and select(2, f()) == nil and select(4, f()) == nil
    """
    assert run("g_piece = 'return 1'\n" + body) is True


def test_nothing_reachable_is_a_python_object():
    # walk everything a script can reach: globals, nested tables, metatables of strings and tables
    body = """
    local seen, found = {}, {}
    local function walk(v)
      if seen[v] then return end
      local t = type(v)
      if t == "userdata" then found[#found + 1] = tostring(v) end
      if t ~= "table" then return end
      seen[v] = true
      for k, x in pairs(v) do walk(k) walk(x) end
      local mt = getmetatable(v)
      if mt then walk(mt) end
    end
    walk(_G)
    walk(getmetatable(""))
    return #found
    """
    assert run(body) == 0.0


def test_bytecode_is_rejected():
    dumper = lua_runtime._lupa.LuaRuntime(encoding=None)
    bytecode = dumper.eval("string.dump(function() return 42 end)")
    escaped = "".join(f"\\{byte}" for byte in bytecode)
    for loader in (
        f'loadstring("{escaped}")',
        f'load("{escaped}")',
        f'loadstring("#!x\\n{escaped}")',
        f'load(function() if done then return nil end done = true return "{escaped}" end)',
    ):
        error = fails(f"local f, message = {loader}\nassert(f, message)\nreturn f()")
        assert error.line == 3, loader
        assert "42" not in str(error)


def test_memory_flood():
    for body in (
        'return #getmetatable("").__index.rep("x", 2^30)',
        "local t = {} for i = 1, 100 do t[i] = ('x'):rep(2^20 + i) end",
        "local t = {} for i = 1, 1e8 do t[i] = {} end",
    ):
        assert "not enough memory" in str(fails(body))
    lua = scripts("t = {}\nfunction f() for i = 1, 1e8 do t[i] = i end end\nfunction g() t = nil return 1 end")
    with pytest.raises(LuaError, match="not enough memory"):
        lua.call("f")
    assert lua.call("g") == 1.0  # the state survives


def test_string_metatable_tricks_stay_inside_the_state():
    lua = scripts(
        "function f() getmetatable('').__index.upper = function() return 'pwned' end end\n"
        "function g() return ('a'):upper() == 'pwned' end"
    )
    lua.call("f")
    assert lua.call("g") is True
    lua.reload()
    assert lua.call("g") is False


def test_pattern_complexity_is_capped():
    started = time.perf_counter()
    for body in (
        'local i = string.find(string.rep("a", 2000), "a*a*b")',
        'local m = (("a"):rep(300)):match("a*a*a*a*b")',
    ):
        assert "pattern too complex" in str(fails(body))
    assert time.perf_counter() - started < 0.5
    assert run('return (("ab"):rep(100)):find("b+$")') == 200.0  # ordinary patterns are fine
    assert run('return select(2, (("a"):rep(5000)):gsub("a", ""))') == 5000.0


# ---------------------------------------------------------------------------------------------
# runaway scripts

RUNAWAYS = {
    "while": "while true do end",
    "for": "for i = 1, 1e15 do end",
    "repeat": "local x = 0 repeat x = x + 1 until false",
    "pcall loop": "while true do pcall(function() while true do end end) end",
    "xpcall handler": "while true do xpcall(function() while true do end end, function() while true do end end) end",
    "coroutine": "local co = coroutine.wrap(function() while true do end end) while true do pcall(co) end",
    "nested coroutines": (
        "local function f() while true do coroutine.resume(coroutine.create(function() "
        "while true do end end)) end end while true do pcall(f) end"
    ),
    "metamethod": 'getmetatable("").__index = function() while true do end end return ("x").y',
    "sort comparator": "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function() while true do end end)",
    "exponential pcall recursion": "local function f() pcall(f) pcall(f) end f()",
}


@pytest.mark.parametrize("body", list(RUNAWAYS.values()), ids=list(RUNAWAYS))
def test_runaway_call_is_stopped(body):
    started = time.perf_counter()
    error = fails(body)
    assert time.perf_counter() - started < 1.0
    assert "instruction limit exceeded" in str(error)
    assert error.file == "script.lua"


def test_runaway_top_level_is_a_load_error():
    lua = LuaScripts([("loop.lua", "x = 1\nwhile true do end\n"), ("ok.lua", "function f() return x end")], FakeData())
    started = time.perf_counter()
    lua.reload()
    assert time.perf_counter() - started < 1.0
    (error,) = lua.load_errors
    assert "instruction limit exceeded" in str(error) and (error.file, error.line) == ("loop.lua", 2)
    assert lua.call("f") == 1.0


def test_budget_is_per_call_and_configurable():
    lua = scripts(
        "function work(n) local s = 0 for i = 1, n do s = s + i end return s end\n"
        "function small() return work(100) end\nfunction big() return work(10000) end",
        instruction_limit=5000,
    )
    for _ in range(100):
        assert lua.call("small") == 5050.0
    with pytest.raises(LuaError, match=r"instruction limit exceeded \(limit: 5000 instructions\)"):
        lua.call("big")
    assert lua.call("small") == 5050.0  # a broken budget does not stick


@pytest.mark.parametrize(
    "body",
    [
        'local s = ("a"):rep(4000) for i = 1, 1e6 do local x = s:find("a*b") end',
        'local s = ("a"):rep(4000) while true do pcall(string.find, s, "a*b") end',
    ],
    ids=["loop", "pcall loop"],
)
def test_time_limit_catches_work_done_in_c(body):
    started = time.perf_counter()
    error = fails(body, time_limit=0.2)
    assert time.perf_counter() - started < 2.0  # CPU time: wall time may run ahead on a busy machine
    assert "time limit exceeded" in str(error)


@pytest.mark.parametrize(
    "body",
    [
        "local function f() return f() + 1 end return f()",
        "local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return t[k] end return t.x",
        'local function f(s) return (s:gsub(".", f)) end return f("ab")',  # C recursion: a crash if unchecked
        'local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return (("a"):gsub(".", t)) end '
        'return (("a"):gsub(".", t))',
        "local function f(a, b) table.sort({3, 2, 1}, f) return a < b end table.sort({1, 2}, f)",
        'local mt = {} mt.__tostring = function() return string.format("%s", setmetatable({}, mt)) end '
        "return tostring(setmetatable({}, mt))",
    ],
    ids=["lua", "metamethod", "gsub", "gsub table", "sort", "format"],
)
def test_deep_recursion_is_an_error(body):
    started = time.perf_counter()
    error = fails(body)
    assert time.perf_counter() - started < 1.0
    assert "stack overflow" in str(error) or "instruction limit" in str(error)


# ---------------------------------------------------------------------------------------------
# the Lua 5.1 fallback runtime


@pytest.fixture
def lua51(monkeypatch):
    module = pytest.importorskip("lupa.lua51")
    monkeypatch.setattr(lua_runtime, "_lupa", module)
    return module


@pytest.mark.parametrize(
    "body",
    [
        RUNAWAYS["coroutine"],
        RUNAWAYS["nested coroutines"],
        RUNAWAYS["xpcall handler"],
        ESCAPES["getfenv"],
        ESCAPES["string.dump"],
        'local f, e = loadstring("\\27Lua") assert(f, e)',
        'return ("x"):rep(2^30)',
        'return #(""):rep(1e12)',
    ],
)
def test_lua51_fallback_sandbox(lua51, body):
    if body.startswith("return #"):
        assert run(body) == 0.0
        return
    fails(body)


def test_lua51_fallback_basics(lua51):
    data = FakeData()
    data.frame = 8
    assert run("data.x = 0.5\nreturn data.lives + data[0x101] + scenario.timestep + data.x", data) == 6.5
    assert "script.lua:2: Out of bounds access" in str(fails("return data[-1]"))


# ---------------------------------------------------------------------------------------------
# the scripts stable-retro ships

DATA_ROOT = None
if importlib.util.find_spec("stable_retro") is not None:
    DATA_ROOT = Path(importlib.util.find_spec("stable_retro").origin).parent / "data"


def shipped_scripts() -> list[Path]:
    if DATA_ROOT is None or not DATA_ROOT.is_dir():
        return []
    return sorted(DATA_ROOT.rglob("*.lua"))


def referenced_functions(script: Path) -> set[str]:
    references = set()
    for path in script.parent.glob("*.json"):
        try:
            spec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(spec, dict) or script.name not in (spec.get("scripts") or []):
            continue
        for part in [spec.get("reward"), spec.get("done"), *(spec.get("rewards") or [])]:
            if isinstance(part, dict) and part.get("script"):
                references.add(part["script"])
    return references


@pytest.mark.skipif(not shipped_scripts(), reason="stable-retro's data is not installed")
def test_shipped_scripts_run():
    ran: dict[str, list[str]] = {}
    for script in shipped_scripts():
        lua = LuaScripts([(script.name, script.read_text())], ZeroData())
        lua.reload()
        assert lua.load_errors == [], script
        references = sorted(referenced_functions(script))
        if not references:  # e.g. NHL94: the script is there but no scenario names it
            references = [f"lua:{name}" for name in lua.functions()["lua"] if "reward" in name or "done" in name]
        assert references, script
        for frame in range(3):  # the reset-time evaluation, then two steps
            lua.data.frame = frame
            for reference in references:
                to_reward(lua.call(reference))
        ran[script.parent.name] = references
    assert len(ran) >= 50
    assert ran["SonicTheHedgehog-Genesis-v0"] == [
        "lua:contest_done",
        "lua:contest_reward",
        "lua:xpos_done",
        "lua:xpos_rew",
    ]
