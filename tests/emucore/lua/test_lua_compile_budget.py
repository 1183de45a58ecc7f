"""No Lua load outruns its budget (issue 57, rel5-03): the compiler's superlinear paths (jump lists,
gotos and labels, names looked up through nested functions) are priced before it runs, for script
files, load, loadstring and the syntax check, and compiling counts against the CPU-time net."""

from __future__ import annotations

import time

import pytest

from emucore.lua.compile_cost import COMPILE_COST_LIMIT, _Scan, refusal

pytest.importorskip("lupa")

from emucore.lua import LuaError, LuaScripts  # noqa: E402
from emucore.lua.runtime import new_runtime  # noqa: E402

LOCALS = "local " + ", ".join(f"v{i}" for i in range(190)) + " "

# Each builds a chunk of n repetitions of one construct whose compile time grows as n**2 (or as its
# nesting): refused at 100,000 (seconds to minutes of one C call), compiled at 2,000.
CONSTRUCTS = {
    "elseif chain": lambda n: "local x = false\nif x then\n" + "elseif x then\n" * n + "end\n",
    "and chain": lambda n: "local x local y = x" + " and x" * n + "\n",
    "or chain in a condition": lambda n: "local x if x" + " or x" * n + " then end\n",
    "and chain through parentheses": lambda n: "local x local y = (x" + " and x" * (n // 2) + ") and not (x"
                                               + " and x" * (n // 2) + ")\n",
    "breaks of one loop": lambda n: "local x while x do " + "do break end " * n + "end\n",
    "gotos to one label": lambda n: "local x " + "if x then goto l end " * n + "::l::\n",
    "labels": lambda n: "local x " + "".join(f"::l{i}:: x = 1 " for i in range(n)) + "\n",
    "names through nested functions": lambda n: "local h = " + ("function() " + LOCALS + "return ") * 50
                                                + "function() " + "g = g " * n + "end" + " end" * 50 + "\n",
}


def thread_seconds(action):
    start = time.thread_time()
    result = action()
    return result, time.thread_time() - start


def raw_compile_seconds(source: str) -> float:
    runtime = new_runtime(0)
    compile_ = runtime.eval("function(s) local f, e = load(s) return e end")
    return thread_seconds(lambda: compile_(source.encode()))[1]


@pytest.mark.parametrize("construct", CONSTRUCTS, ids=list(CONSTRUCTS))
def test_script_file_too_costly_to_compile_is_refused_quickly(construct: str) -> None:
    source = CONSTRUCTS[construct](100_000) + "function f() return 1 end\n"
    lua = LuaScripts([("big.lua", source), ("small.lua", "function g() return 2 end")], object())
    _, seconds = thread_seconds(lua.reload)
    assert seconds < 3, seconds  # unpriced, the slowest of these compiles for minutes
    assert len(lua.load_errors) == 1, lua.load_errors
    message = str(lua.load_errors[0])
    assert message.startswith("Lua load failed: big.lua: too costly to compile in the sandbox: "), message
    assert f"(limit: {COMPILE_COST_LIMIT:.3g} per chunk)" in message
    assert lua.call("g") == 2.0
    assert LuaScripts.check_syntax(source, "big.lua") is not None


@pytest.mark.parametrize("construct", CONSTRUCTS, ids=list(CONSTRUCTS))
def test_same_constructs_of_reasonable_size_compile(construct: str) -> None:
    source = CONSTRUCTS[construct](2_000) + "function f() return 1 end\n"
    lua = LuaScripts([("s.lua", source)], object())
    lua.reload()
    assert lua.load_errors == []
    assert lua.call("f") == 1.0


@pytest.mark.slow  # pathological sources compiled
@pytest.mark.parametrize("construct", CONSTRUCTS, ids=list(CONSTRUCTS))
def test_the_price_bounds_the_compile_time(construct: str) -> None:
    """Soundness: the largest chunk of each construct the price lets through compiles in well under the
    1 s CPU-time net (LuaJIT itself, no sandbox)."""
    low, high = 100, 40_000
    while high - low > max(50, low // 50):  # the largest n whose chunk is priced within the limit
        middle = (low + high) // 2
        if refusal(CONSTRUCTS[construct](middle).encode(), b"@s.lua") is None:
            low = middle
        else:
            high = middle
    assert raw_compile_seconds(CONSTRUCTS[construct](low)) < 0.6, low


def test_the_scan_follows_the_blocks_that_bound_each_list() -> None:
    def cost(source: str) -> float:
        scan = _Scan()
        scan.feed(source.encode(), None)
        return scan.cost  # the walks of the lists and the gotos, without the name lookups
    chain = cost("x = a" + " and a" * 1000)
    assert chain >= 1000 ** 2 / 2
    assert cost(("x = a" + " and a" * 10 + "\n") * 100) < chain / 50  # separate statements: separate lists
    assert cost(("f(a" + " and a" * 10 + ")\n") * 100) < chain / 50  # a call's arguments end there
    assert cost("x = (a" + " and a" * 500 + ") and (a" + " and a" * 499 + ")") >= chain  # parentheses do not
    assert cost("x = a" + " and function() end and a" * 500) >= chain  # nor a function in the chain
    # keywords and names in comments and strings are not code
    assert cost("-- " + "elseif " * 5000 + "\n--[==[" + " or" * 5000 + "]==] x = '" + " and" * 5000 + "'") < 1000
    assert cost("for i = 1, 2 do " + "if x then break end " * 1000 + "end") >= 1000 ** 2 / 2  # breaks: the loop's


def test_load_of_a_chunk_too_costly_to_compile_is_an_error_naming_the_limit() -> None:
    lua = LuaScripts([("s.lua", """
local chain = 'local x = false if x then ' .. string.rep('elseif x then ', 100000) .. 'end'
function viaload() load(chain) return 0 end
function viastring() loadstring(chain) return 0 end
function viareader() local done = false
  load(function() if not done then done = true return chain end end) return 0 end
function fine() return load('return 1 + 1')() + loadstring('return 3')() end
""")], object())
    for function in ("viaload", "viastring", "viareader"):
        start = time.thread_time()
        with pytest.raises(LuaError) as raised:
            lua.call(function)
        assert time.thread_time() - start < 1
        message = str(raised.value)
        assert "s.lua:" in message and "too costly to compile in the sandbox" in message, message
        assert "an if with over" in message and "elseif branches" in message and "limit: 1e+08" in message
    assert lua.call("fine") == 5.0


def test_compiling_counts_against_the_cpu_time_net() -> None:
    """One load() of a cheap but long chunk (120 KB) is C work after which the call has no instruction
    left to run: the clock is read around the compiler."""
    script = "function f() return load(string.rep('x = 1 ', 20000)) ~= nil end\n"
    assert LuaScripts([("s.lua", script)], object()).call("f") is True
    lua = LuaScripts([("s.lua", script)], object(), time_limit=0.0005)
    with pytest.raises(LuaError, match="time limit exceeded"):
        lua.call("f")


@pytest.mark.slow  # pathological sources compiled
def test_pricing_a_long_script_file_is_not_the_scripts_time() -> None:
    """A plain 3.4 MB script (under the 4 MiB cap) is walked whole to be priced, which takes longer than
    LuaJIT's own compiling: that is the host's work, not the load's 1 s."""
    body = "".join(f"  c = c + a * {k} - b\n" for k in range(25))
    source = "".join(f"function f{i}(a, b)\n  local c = {i}\n{body}  return c\nend\n" for i in range(6_000))
    source += "function g() return f7(1, 2) end\n"
    assert len(source) > 3_000_000 and refusal(source.encode(), b"@big.lua") is None
    lua = LuaScripts([("big.lua", source)], object())
    lua.reload()
    assert lua.load_errors == []
    assert lua.call("g") == 7 + sum(range(25)) - 2 * 25
