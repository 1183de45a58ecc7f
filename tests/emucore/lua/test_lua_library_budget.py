"""No Lua call outruns its budget in one library call (issue 57, rel5-07): every call whose work its
arguments set is priced before it runs, or bounded by LuaJIT or the memory cap (the list is in
emucore/lua/strings.lua)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("lupa")

from emucore.lua import LuaError, LuaScripts  # noqa: E402
from emucore.lua.runtime import MOVE_LIMIT  # noqa: E402

# library calls whose work their arguments set (rel5-07): each would run for seconds to minutes

LIBRARY_CALLS = [
    ("table.insert({}, -2^31 + 1, 1)", "table.insert: position -2147483647 would shift 2147483649 slots"),
    ("table.insert({}, -1e9, 1)", f"would shift 1000000002 slots (limit: {MOVE_LIMIT} per call)"),
    ("table.insert({}, 1e10, 1)", "table.insert: position 10000000000 is beyond a 32-bit integer"),
    ("table.insert({}, 0/0, 1)", "table.insert: position nan is beyond a 32-bit integer"),
    ("table.insert({}, '-1e9', 1)", "would shift 1000000002 slots"),
    ("table.remove({}, -1e9)", "table.remove: position -1000000000 would shift 1000000001 slots"),
    ("string.gsub(string.rep('a', 1e5), '', string.rep('%0', 1e4))", "replacement too costly for the sandbox"),
    # bounded by LuaJIT or by the memory cap: they fail at once
    ("unpack({}, 1, 1e8)", "too many results to unpack"),
    ("unpack({}, -2^31, 2^31 - 1)", "too many results to unpack"),
    ("table.concat({}, '', 1, 2^31 - 1)", "invalid value (nil) at index 1 in table for 'concat'"),
    ("string.rep('x', 1e9, 'y')", "not enough memory"),
    ("string.rep('ab', 1e9)", "not enough memory"),
    ("string.format('%100d', 1)", "invalid option"),
    ("string.byte(string.rep('a', 1e6), 1, 1e9)", "string slice too long"),
    ("string.format(string.rep('%%', 8e6))", "not enough memory"),
]


@pytest.mark.parametrize(("call", "message"), LIBRARY_CALLS, ids=[call for call, _ in LIBRARY_CALLS])
def test_library_call_priced_by_its_arguments_fails_at_once(call: str, message: str) -> None:
    lua = LuaScripts([("s.lua", f"function f() local r = {call} return 1 end\n")], object())
    lua.reload()
    start = time.thread_time()
    with pytest.raises(LuaError) as raised:
        lua.call("f")
    assert time.thread_time() - start < 0.5
    assert message in str(raised.value), str(raised.value)


def test_priced_library_calls_keep_their_meaning() -> None:
    lua = LuaScripts([("s.lua", """
function inserts() local t = {1, 2, 3} table.insert(t, 1, 0) table.insert(t, 9) table.insert(t, 5, 4)
  return table.concat(t, ',') == '0,1,2,3,4,9' end
function removes() local t = {1, 2, 3, 4} return table.remove(t, 1) + table.remove(t) * 10 + #t * 100 end
function big() local t = {} for i = 1, 1e5 do t[i] = i end table.insert(t, 1, 0) return table.remove(t, 1) + #t end
function escapes() return (('abc'):gsub('(%w)', '<%1%%>')) == '<a%><b%><c%>' end
function bounded() return select(2, ('aaaa'):gsub('', '%0', 2)) end
""")], object())
    assert lua.call("inserts") is True
    assert lua.call("removes") == 1 + 40 + 200
    assert lua.call("big") == 100000.0
    assert lua.call("escapes") is True
    assert lua.call("bounded") == 2.0


# ---------------------------------------------------------------------------------------------
# the memory cap's error names it (issue 57, item 10: once "(error object is a function value)")

SEVEN_MB = "local s = string.rep('x', 7 * 2^20) "
MEMORY_ERRORS = [
    "local t = s .. s .. s",
    "local t = s .. s .. s .. s .. s .. s",
    "for i = 1, 30 do s = s .. s end",
    "local t = {} for i = 1, 10 do t[i] = s .. i end",
    "local ok, e = pcall(function() return s .. s .. s end) error(e, 0)",
    "local ok, e = xpcall(function() return s .. s .. s end, function(e) return e end) error(e, 0)",
    "local ok, e = coroutine.resume(coroutine.create(function() return s .. s .. s end)) error(e, 0)",
    "coroutine.wrap(function() return s .. s .. s end)()",
    "string.gsub('ab', '.', function(c) return s .. s .. c end)",
    "table.sort({3, 1, 2}, function(a, b) local t = s .. s .. a return a < b end)",
    "local t = table.concat({s, s, s})",
    "local t = string.format('%s%s%s', s, s, s)",
]


@pytest.mark.parametrize("body", MEMORY_ERRORS)
@pytest.mark.parametrize("where", ["load", "call"])
def test_memory_cap_error_names_the_limit(body: str, where: str) -> None:
    source = SEVEN_MB + body + "\n" if where == "load" else f"function f() {SEVEN_MB} {body} end\n"
    lua = LuaScripts([("s.lua", "function g() return 1 end\n" + source)], object())
    lua.reload()
    if where == "load":
        assert len(lua.load_errors) == 1
        message = str(lua.load_errors[0])
    else:
        with pytest.raises(LuaError) as raised:
            lua.call("f")
        message = str(raised.value)
    assert "not enough memory (limit: 16777216 bytes per script scope)" in message, message
    assert "error object" not in message
    assert lua.call("g") == 1.0  # the garbage is collected: the state goes on
