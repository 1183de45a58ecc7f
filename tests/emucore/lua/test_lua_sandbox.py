"""Scenario Lua runs sandboxed: no escapes, and runaway scripts stop with a clear error."""

from __future__ import annotations

import time

import pytest

from emucore.lua import LuaError, LuaScripts, to_done, to_reward


class FakeData:
    def __init__(self) -> None:
        self.values = {"score": 10, "lives": 3}
        self.custom: dict = {}
        self.memory = {0x10: 7}
        self.frame = 4

    def lookup(self, name: str):
        if name in self.custom:
            return self.custom[name]
        return self.values[name]

    def set_value(self, name: str, value) -> None:
        if name in self.values:
            self.values[name] = int(value)
        else:
            self.custom[name] = value

    def read_byte(self, address: int) -> int:
        if address not in self.memory:
            raise IndexError("No known mapping")
        return self.memory[address]


def run(source: str, function: str = "f"):
    scripts = LuaScripts([("script.lua", source)], FakeData())
    scripts.reload()
    if scripts.load_errors:
        raise scripts.load_errors[0]
    return scripts.call(f"lua:{function}")


def test_data_and_scenario_access():
    data = FakeData()
    scripts = LuaScripts([("script.lua", """
        function f() data.lives = data.lives - 1; data.note = 2.5; return data.score + data[16] + scenario.frame end
        function g() return scenario.timestep end
    """)], data)
    scripts.reload()
    assert scripts.call("lua:f") == 21 and data.values["lives"] == 2 and data.custom["note"] == 2.5
    assert scripts.call("g") == 1
    with pytest.raises(LuaError, match="Lua call failed"):
        run("function f() return data.nosuchname end")
    with pytest.raises(LuaError, match="Out of bounds"):
        run("function f() return data[99] end")
    with pytest.raises(LuaError, match="Invalid variable type"):
        run("function f() data.x = {} end")


def test_conversions():
    assert to_reward(0.1) == 0.10000000149011612
    assert to_reward(True) == 1.0 and to_reward("x") == 0.0
    assert to_done(2) is True and to_done(0) is False and to_done(None) is False


def test_reload_starts_from_scratch():
    data = FakeData()
    scripts = LuaScripts([("s.lua", "n = 0\nfunction f() n = n + 1; return n end")], data)
    scripts.reload()
    assert [scripts.call("f") for _ in range(3)] == [1, 2, 3]
    scripts.reload()
    assert scripts.call("f") == 1


def test_syntax_errors_name_the_line():
    error = LuaScripts.check_syntax("x = 1\nfunction (\n", "bad.lua")
    assert error is not None and "bad.lua:2" in str(error)
    scripts = LuaScripts([("bad.lua", "x = 1\nfunction (\n")], FakeData())
    scripts.reload()
    assert scripts.load_errors and "bad.lua:2" in str(scripts.load_errors[0])


@pytest.mark.parametrize(
    "escape",
    [
        "return io.open('/etc/passwd')",
        "return os.execute('true')",
        "return require('os')",
        "return debug.getinfo(1)",
        "return loadfile('/etc/passwd')",
        "return dofile('/etc/passwd')",
        "return load(string.dump(function() end))",
        "return loadstring('\\27LuaJ')",
        "return python.eval('1')",
        "return python.builtins.open",
        "return getfenv(0).io",
        "return setfenv(1, {})",
        "return jit.status()",
        "return ffi.C",
        "return package.loaded",
        "return collectgarbage('count') and nil or nil, getmetatable('').__index.rep('x', 2^40)",
    ],
)
def test_escapes_are_refused(escape):
    with pytest.raises(LuaError):
        value = run(f"function f() {escape} end")
        if value is None:  # a missing global reads as nil: calling through it must fail
            raise LuaError("nil")


@pytest.mark.parametrize(
    "runaway",
    [
        "function f() while true do end end",
        "function f() local t = {} while true do t[#t + 1] = 1 end end",
        "function f() return f() end",
        "function f() local s = string.rep('a', 1e6) for i = 1, 1e9 do s = s:gsub('a', 'aa') end end",
    ],
)
def test_runaway_scripts_stop_quickly(runaway):
    start = time.perf_counter()
    with pytest.raises(LuaError):
        run(runaway)
    assert time.perf_counter() - start < 5


def test_runaway_top_level_is_a_load_error():
    scripts = LuaScripts([("loop.lua", "while true do end")], FakeData())
    start = time.perf_counter()
    scripts.reload()
    assert scripts.load_errors and time.perf_counter() - start < 5
