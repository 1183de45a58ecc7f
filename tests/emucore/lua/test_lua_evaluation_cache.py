"""LuaScripts.prime/settle: during an evaluation, scripts read the values taken at its start
without calling into Python, and see their own writes."""

from __future__ import annotations

import pytest

from emucore.lua import LuaScripts
from tests.emucore.lua.test_lua import FakeData, scripts

pytest.importorskip("lupa")

NAMES = ("lives", "score", "7")


class CountingData(FakeData):
    """FakeData that counts the reads reaching Python."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lookups: list[str] = []
        self.frame_reads = 0

    def lookup(self, name: str):
        self.lookups.append(name)
        return super().lookup(name)

    @property  # type: ignore[override]
    def frame(self) -> int:
        self.frame_reads += 1
        return self._frame

    @frame.setter
    def frame(self, value: int) -> None:
        self._frame = value


def test_primed_reads_do_not_call_python():
    data = CountingData()
    lua = scripts("function f() return data.lives * 10 + data.score + scenario.frame + scenario.timestep end", data)
    lua.prime(NAMES, [4, 100, None], 10)
    assert lua.call("f") == 40 + 100 + 10 + 2
    assert data.lookups == [] and data.frame_reads == 0
    lua.settle()
    assert lua.call("f") == 30 + 1200 + 0 + 0  # FakeData's own values
    assert data.lookups == ["lives", "score"] and data.frame_reads == 2


def test_a_write_drops_the_cache():
    data = CountingData()
    lua = scripts("function f() local before = data.score; data.lives = 9; return before * 100 + data.lives end", data)
    lua.prime(NAMES, [4, 5, None], 0)
    assert lua.call("f") == 509
    assert data.lookups == ["lives"] and data.writes == [("lives", 9.0)]


def test_uncached_values_and_numeric_names_read_through():
    data = CountingData(base=0)
    lua = scripts('function f() return data.lives, data["7"] end', data)
    lua.prime(NAMES, [None, 5, 99], 0)  # None: not cached; "7" is byte 7, never a cached name
    assert lua.call("f") == 3
    assert data.lookups == ["lives"]
    assert scripts('function f() return data["7"] end', data).call("f") == 7


def test_unknown_names_stay_errors_while_primed():
    lua = scripts("function f() return data.nothing end")
    lua.prime(NAMES, [1, 2, 3], 0)
    with pytest.raises(Exception, match='unknown variable "nothing"'):
        lua.call("f")


def test_values_beyond_int64_arrive_as_doubles():
    lua = scripts("function f() return data.score end")
    lua.prime(NAMES, [1, 2**64 - 1, None], 0)
    assert lua.call("f") == float(2**64 - 1)


def test_every_scope_is_primed_and_settled():
    data = CountingData()
    lua = LuaScripts([("a.lua", "function f() return data.lives end"),
                      ("b.other", "function g() return data.score end")], data)
    lua.prime(NAMES, [8, 9, None], 0)
    assert (lua.call("lua:f"), lua.call("other:g")) == (8, 9)
    assert data.lookups == []
    lua.settle()
    assert (lua.call("lua:f"), lua.call("other:g")) == (3, 1200)


def test_reload_forgets_the_names():
    data = CountingData()
    lua = scripts("function f() return data.lives end", data)
    lua.prime(NAMES, [8, 9, None], 0)
    lua.settle()
    lua.reload()
    lua.prime(NAMES, [6, 9, None], 0)  # the same names object: sent again to the new state
    assert lua.call("f") == 6 and data.lookups == []


def test_a_short_call_reads_no_clock_and_a_long_one_is_still_timed(monkeypatch):
    import time

    reads = []

    def clock() -> float:
        reads.append(1)
        return time.process_time()

    monkeypatch.setattr(time, "thread_time", clock)  # what each new Lua state is given
    lua = scripts("function short() return data.lives + 1 end\n"
                  "function long() local s = ('a'):rep(4000) while true do s:find('a*b') end end",
                  time_limit=0.1)
    for _ in range(100):
        assert lua.call("short") == 4
    assert reads == []
    with pytest.raises(Exception, match="time limit exceeded"):
        lua.call("long")
    assert reads
