"""Generated Lua scenario scripts: library calls with hostile arguments (long subjects and patterns,
huge repeats, deep recursion, metatables, errors of every type), loops that run long, and memory
that grows, as the reward and done functions of a scenario."""

from __future__ import annotations

from hypothesis import strategies as st

PATTERN_ITEMS = ["%a", ".", "a", "%d", "[a-z]", "[^b]", "%b()", "%f[%w]", "(", ")", "()", "%1", "*", "+", "-",
                 "?", "^", "$", "%", "[", "]", "%z", "\\0"]
NUMBERS = ["0", "1", "-1", "1e9", "-1e9", "1/0", "0/0", "2^53", "2^31", "1e308", "math.huge", "-math.huge",
           "0.5", "42"]
STRINGS = ["''", "'a'", "string.rep('a', {n})", "string.rep('%a', {n})", "string.rep('ab', {n}, ',')",
           "tostring({n})", "('x'):rep({n}) .. 'b'"]


@st.composite
def _string(draw: st.DrawFn) -> str:
    n = draw(st.sampled_from(["3", "1000", "100000", "2000000", "4000000", "1e9", "-1", "0/0"]))
    return draw(st.sampled_from(STRINGS)).format(n=n)


@st.composite
def _pattern(draw: st.DrawFn) -> str:
    items = draw(st.lists(st.sampled_from(PATTERN_ITEMS), max_size=8))
    literal = "'" + "".join(items).replace("\\", "\\\\").replace("'", "\\'") + "'"
    repeat = draw(st.sampled_from(["1", "2", "1000", "500000"]))
    return draw(st.sampled_from([literal, f"string.rep({literal}, {repeat})"]))


@st.composite
def _expression(draw: st.DrawFn) -> str:
    s, p, n = draw(_string()), draw(_pattern()), draw(st.sampled_from(NUMBERS))
    return draw(st.sampled_from([
        f"string.find({s}, {p})", f"string.find({s}, {p}, {n}, true)", f"string.match({s}, {p})",
        f"select(2, string.gsub({s}, {p}, '%0%0'))", f"select(2, string.gsub({s}, {p}, function(x) return x end))",
        f"(function() local c = 0 for _ in string.gmatch({s}, {p}) do c = c + 1 end return c end)()",
        f"#string.rep({s}, {n})", f"string.format('%5.1f %s %d', {n}, {s}, {n})", f"string.format({s}, {n})",
        f"#table.concat({{{s}, {s}}}, {s})", f"string.byte({s}, {n}, {n})", f"string.char({n})",
        f"tonumber({s})", f"math.floor({n})", f"math.max({n}, {n})", f"select('#', unpack({{{n}, {n}}}))",
        f"(function() local t = {{}} for i = 1, {n} do t[i] = i end table.sort(t, function(a, b) return a > b end)"
        " return #t end)()",
        f"(function() local t = {{}} for i = 1, {n} do t[#t + 1] = {s} end return #t end)()",
        "(function() local function f(x) return f(x + 1) + 1 end return f(0) end)()",
        "(function() while true do end end)()",
        "(function() local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x end)()",
        f"(function() error({n}) end)()", "(function() error(setmetatable({}, {__tostring = error})) end)()",
        f"pcall(error, {s})", "coroutine and coroutine.wrap(function() coroutine.yield(1) end)()",
        f"(data and data.lives or {n})", f"scenario.frame % {n}", "collectgarbage('count')",
        f"(function() local s = {s} for i = 1, 30 do s = s .. s end return #s end)()",
        "load and load('return 1')()", "os and os.time()", "io and io.open('/etc/passwd')",
        "string.dump and string.dump(print)", "getmetatable('').__index.rep('a', 3)",
        f"({n}) .. ''", "next({})", "rawlen and rawlen({})",
    ]))


@st.composite
def lua_programs(draw: st.DrawFn) -> bytes:
    """A script with ``r`` (the reward) and ``d`` (done), and maybe work at load time."""
    top = draw(st.sampled_from(["", "local t = {} for i = 1, 1e7 do t[i] = {i} end",
                                f"local warm = {draw(_expression())}", "error('at load')", "x = ("]))
    reward = draw(st.sampled_from(["return {e}", "return ({e}) and 1 or 0", "return tonumber(tostring({e})) or 0",
                                   "local v = {e} return 0/0", "return 1/0", "return 'text'", "return {{}}"]))
    done = draw(st.sampled_from(["return false", "return {e}", "return ({e}) ~= nil"]))
    source = (f"{top}\nfunction r() {reward.format(e=draw(_expression()))} end\n"
              f"function d() {done.format(e=draw(_expression()))} end\n")
    return source.encode()
