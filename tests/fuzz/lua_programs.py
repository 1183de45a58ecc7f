"""Generated Lua scenario scripts: library calls with hostile arguments (long subjects and patterns,
huge repeats, deep recursion, metatables, errors of every type, positions and ranges far out of a
table, huge widths), loops that run long, memory that grows, and chunks whose compiling is
superlinear (long elseif, and/or, break and goto chains, many labels, names through nested
functions' locals) as script files and through load, as the reward and done functions of a scenario."""

from __future__ import annotations

from hypothesis import strategies as st

PATTERN_ITEMS = ["%a", ".", "a", "%d", "[a-z]", "[^b]", "%b()", "%f[%w]", "(", ")", "()", "%1", "*", "+", "-",
                 "?", "^", "$", "%", "[", "]", "%z", "\\0"]
NUMBERS = ["0", "1", "-1", "1e9", "-1e9", "1/0", "0/0", "2^53", "2^31", "1e308", "math.huge", "-math.huge",
           "0.5", "42"]
STRINGS = ["''", "'a'", "string.rep('a', {n})", "string.rep('%a', {n})", "string.rep('ab', {n}, ',')",
           "tostring({n})", "('x'):rep({n}) .. 'b'"]


POSITIONS = ["1", "0", "-1", "2", "-1e8", "-2^31+1", "-2^31", "2^31", "1e10", "0/0", "'-1e9'", "1e9"]
COUNTS = ["10", "2000", "30000", "100000"]
# chunks built in Lua (the program stays small) whose compiling costs count**2, or nesting x count
CHUNKS = [
    "'local x if x then ' .. string.rep('elseif x then ', {c}) .. 'end'",
    "'return 1' .. string.rep(' and 1', {c})",
    "'local x if x' .. string.rep(' or x', {c}) .. ' then end'",
    "'local x while x do ' .. string.rep('do break end ', {c}) .. 'end'",
    "'local x ' .. string.rep('if x then goto l end ', {c}) .. '::l::'",
    "(string.rep('::l@:: ', {c}):gsub('@', function() n = (n or 0) + 1 return n end))",
    "string.rep('return function() local ' .. string.rep('a, ', 190) .. 'a ', 45) .. string.rep('g = g ', 5 * {c})"
    " .. string.rep(' end', 45)",
]


@st.composite
def _chunk(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(CHUNKS)).format(c=draw(st.sampled_from(COUNTS)))


@st.composite
def _library(draw: st.DrawFn) -> str:
    """A library call whose work its arguments set."""
    s, n, p = draw(_string()), draw(st.sampled_from(NUMBERS)), draw(st.sampled_from(POSITIONS))
    return draw(st.sampled_from([
        f"(function() local t = {{1, 2}} table.insert(t, {p}, 3) return #t end)()",
        f"(function() local t = {{1, 2}} table.remove(t, {p}) return #t end)()",
        f"select('#', unpack({{1, 2}}, {p}, {n}))", f"#table.concat({{'a', 'b'}}, {s}, {p}, {n})",
        f"#string.rep({s}, {n}, {s})", f"string.format('%' .. {draw(st.sampled_from(['5', '99', '100', '099.99']))}"
        f" .. 'f', {n})", f"select(2, string.gsub({s}, '', string.rep('%0', {n})))",
        f"select('#', string.byte({s}, {p}, {n}))", f"#string.sub({s}, {p}, {n})",
        f"(load({draw(_chunk())}) or print)()", f"(loadstring({draw(_chunk())}) or print)()",
    ]))


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
        f"({n}) .. ''", "next({})", "rawlen and rawlen({})", draw(_library()), draw(_library()),
    ]))


# the same constructs as a script file's own text (seconds to minutes of compiling when unpriced)
FILE_CHUNKS = ["local x if x then " + "elseif x then " * 60000 + "end", "local y = x" + " or x" * 60000,
               "while x do " + "do break end " * 60000 + "end"]


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


@st.composite
def lua_budget_programs(draw: st.DrawFn) -> bytes:
    """A script whose load or calls meet what could outrun the budget in one C call: a file whose
    compiling is superlinear, a chunk like it through load, a library call whose work its arguments set."""
    top = draw(st.sampled_from(["", "file", f"local warm = {draw(_library())}"]))
    if top == "file":
        top = draw(st.sampled_from(FILE_CHUNKS))
    reward = draw(st.sampled_from(["return {e}", "local v = {e} return 1", "return pcall(function() return {e} end)"]))
    source = (f"{top}\nfunction r() {reward.format(e=draw(_library()))} end\n"
              f"function d() return ({draw(_library())}) == nil end\n")
    return source.encode()


def lua_budget_examples() -> list[bytes]:
    """One script per construct at its worst, run before the drawn ones (each was seconds to minutes of
    one C call before it was priced): what the draws reach by chance, every run checks for sure."""
    calls = [f"(load({chunk.format(c=100000)}) or print)()" for chunk in CHUNKS]
    calls += ["table.insert({}, -2^31+1, 1)", "table.insert({}, 1e10, 1)", "table.insert({}, 0/0, 1)",
              "table.remove({}, -1e9)", "select(2, string.gsub(string.rep('a', 1e5), '', string.rep('%0', 1e5)))",
              "select('#', unpack({}, -2^31, 2^31 - 1))", "table.concat({}, '', 1, 2^31 - 1)",
              "#string.rep('ab', 1e9, 'x')", "string.format('%100d', 1)"]
    scripts = [f"function r() return {call} end\nfunction d() return false end\n" for call in calls]
    scripts += [f"{chunk}\nfunction r() return 1 end\nfunction d() return false end\n" for chunk in FILE_CHUNKS]
    return [script.encode() for script in scripts]
