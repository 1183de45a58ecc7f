"""Sandboxed scenario scripts: stable-retro's Lua interface (integration-format.md §5.5, §8).

A scenario's ``scripts`` are loaded, per scope, into one Lua state; ``reward.script`` and
``done.script`` name functions in them (``"lua:func"`` or a bare ``"func"``). Scripts see two globals:

* ``data``: ``data.<name>`` reads a custom variable or a data.json variable (an unknown name is an
  error, never ``nil``), ``data[<number>]`` (numeric strings too) reads one byte, and
  ``data.<name> = v`` writes one (``v`` nil, number or boolean; a number key is named by Lua's
  ``tostring``, as ``lua_tostring`` does: ``data[7] = 1`` sets ``"7"``).
* ``scenario``: ``scenario.frame`` and ``scenario.timestep`` (``frame // 4``); writes are ignored.

The runtime is LuaJIT 2.1 (lupa's ``lupa.luajit21``), the engine stable-retro embeds, so the language
and the numbers (all doubles) are the same; Lua 5.1 (``lupa.lua51``) is the fallback when lupa was
built without LuaJIT. The JIT compiler is off, so the count hook sees every instruction: scripts
run interpreted, which only costs speed.

Numbers cross as doubles both ways: ``set_value`` gets a ``float`` (the evaluator truncates it with
``to_int64`` for a memory write, and stores it as a float for a custom variable) and ``call`` returns
a ``float``.

Differences from stable-retro, all on purpose:

* A sandbox. Scripts get ``base``, ``coroutine``, ``table``, ``string`` and ``math``, but not
  ``dofile``, ``loadfile``, ``getfenv``, ``setfenv``, ``newproxy``, ``module``, ``require`` or
  ``string.dump``; ``load``/``loadstring`` compile source text only (no bytecode) into the script's
  own globals; ``collectgarbage`` only accepts ``"collect"``, ``"count"`` and ``"step"``; ``print``
  goes to a handler (default: this module's logger). ``io``, ``os``, ``debug``, ``jit``, ``bit``,
  ``ffi`` and lupa's ``python`` module are unreachable (stable-retro lacks most of them too), and no
  Python object is reachable at all. The metatables of ``data`` and ``scenario`` are hidden.
* Limits, per script load and per call: an instruction budget (a count hook that, once the budget
  is spent, fails at every instruction so that ``pcall`` cannot swallow it; an ``xpcall`` handler is
  then skipped); a CPU-time net (the calling thread's CPU time, so that other threads of a vector
  env do not count) for work done inside C functions, where no instruction is counted; a memory
  cap per state; Lua's stack limit; a cap on how deep C functions that call back into Lua
  nest (LuaJIT does not count C levels, and nested ``gsub`` callbacks would overflow the C stack and
  kill the process); and a worst-case cost cap on string pattern matching.
* A file that fails to load is recorded in ``LuaScripts.load_errors`` (stable-retro ignores it).
* Error messages carry the file and line (``"script.lua:12: Out of bounds access"``). An unknown
  variable says so instead of stable-retro's ``"C++ exception"``; a missing function says
  ``"function 'f' is not defined"``.
* Every scope runs Lua (stable-retro only registers ``lua``).
"""

from __future__ import annotations

import importlib
import logging
import math
import re
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, NamedTuple, Protocol

import numpy as np

from emucore.errors import EmucoreError

__all__ = [
    "DEFAULT_INSTRUCTION_LIMIT",
    "DEFAULT_MEMORY_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "DataAccess",
    "LuaError",
    "LuaScripts",
    "RUNTIME_NAME",
    "to_done",
    "to_int64",
    "to_reward",
]

log = logging.getLogger(__name__)

DEFAULT_INSTRUCTION_LIMIT = 10_000_000
"""Lua VM instructions one script load or one call may execute."""

DEFAULT_TIME_LIMIT = 1.0
"""CPU seconds (of the calling thread) one script load or one call may take: a net for work done inside C functions."""

DEFAULT_MEMORY_LIMIT = 16 * 1024 * 1024
"""Bytes one Lua state (one scope) may allocate. It also bounds what one string operation copies."""

PATTERN_COST_LIMIT = 5e7
"""Worst-case steps one string pattern match may take (a few tenths of a second of C time)."""

PRINT_LIMIT = 10_000
"""Characters of one ``print`` line passed on to the handler; the rest is cut."""

MAX_CALLBACK_NESTING = 20
"""How deep C functions that call back into Lua (``gsub``, ``format``, ``sort``) may nest."""

_HOOK_GRAIN = 100  # instructions between two count-hook calls
_INT64_MIN = -(2**63)
_INT64_RANGE = 2.0**63
_FLOAT32_SAFE = 3.4e38  # doubles below this in magnitude round to a finite float32


def _load_runtime() -> tuple[ModuleType, str]:
    for name, label in (("luajit21", "LuaJIT 2.1"), ("lua51", "Lua 5.1")):
        try:
            return importlib.import_module(f"lupa.{name}"), label
        except ImportError:
            continue
    raise ImportError("emucore.lua needs lupa>=2.0 built with LuaJIT 2.1 or Lua 5.1 (lupa.luajit21 / lupa.lua51)")


_lupa, RUNTIME_NAME = _load_runtime()


# ---------------------------------------------------------------------------------------------
# errors and conversions


class LuaError(EmucoreError, RuntimeError):
    """A Lua script failed to load or to run.

    ``str(error)`` is ``"Lua call failed: <message>"`` like stable-retro's ``RuntimeError``
    (``"Lua load failed: ..."`` for files that do not load).

    Attributes:
        message: Lua's own message, e.g. ``"script.lua:12: attempt to index a nil value"``.
        file: the script file the message points at, if it names one.
        line: the line it points at, if it names one.
    """

    def __init__(self, message: str, *, action: str = "call"):
        self.message = message
        self.file: str | None = None
        self.line: int | None = None
        where = re.match(r"(.+?):(\d+): ", message)
        if where:
            self.file, self.line = where.group(1), int(where.group(2))
        super().__init__(f"Lua {action} failed: {message}")


def to_reward(value: object) -> float:
    """A script's return value as a reward: a number rounded to float32, a boolean 1.0/0.0, else 0.0.

    >>> to_reward(0.1)
    0.10000000149011612
    """
    if type(value) is float and -_FLOAT32_SAFE < value < _FLOAT32_SAFE:  # what scripts return, fast
        return float(np.float32(value))
    if isinstance(value, (bool, np.bool_)):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float, np.integer, np.floating)):
        with np.errstate(over="ignore"):
            return float(np.float32(value))  # beyond float32: +-inf, as the C++ cast gives
    return 0.0


def to_done(value: object) -> bool:
    """A script's return value as done: a number is true when non-zero, a boolean as is, else False."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return bool(value != 0)
    return False


def to_int64(value: float) -> int:
    """A Lua number truncated toward zero to int64, as stable-retro's C++ cast does for memory writes.

    NaN and values outside the int64 range give ``-2**63`` (what x86-64 produces for that cast).
    """
    if isinstance(value, int):
        return int(value) if -_INT64_RANGE <= value < _INT64_RANGE else _INT64_MIN
    if math.isnan(value) or not -_INT64_RANGE <= value < _INT64_RANGE:
        return _INT64_MIN
    return int(value)


class DataAccess(Protocol):
    """What scripts reach through ``data`` and ``scenario``; the evaluator implements it."""

    def lookup(self, name: str) -> int | float | bool | None:
        """A custom variable, else a data.json variable's value; ``KeyError`` for an unknown name."""
        ...

    def set_value(self, name: str, value: int | float | bool | None) -> None:
        """Write a data.json variable to memory, else create or update a custom variable.

        Numbers arrive as ``float`` (Lua numbers are doubles). stable-retro truncates them toward
        zero for a memory write (``to_int64``) and stores them as floats in a custom variable.
        """
        ...

    def read_byte(self, address: int) -> int:
        """The byte at an absolute address; ``IndexError`` if it is unmapped."""
        ...

    @property
    def frame(self) -> int:
        """Evaluations since the last reset (``scenario.frame``)."""
        ...


# ---------------------------------------------------------------------------------------------
# the trusted Lua side: runs with the real globals, builds one sandbox and returns its entry points

_BOOTSTRAP = r"""
local py_lookup, py_set, py_byte, py_scenario, py_print, grain, pattern_limit, print_limit, max_nesting,
      thread_clock = ...

local type, tostring, tonumber, error, select, pairs, ipairs, next =
      type, tostring, tonumber, error, select, pairs, ipairs, next
local pcall, xpcall, setmetatable, getmetatable = pcall, xpcall, setmetatable, getmetatable
local collectgarbage, load, loadstring, setfenv = collectgarbage, load, loadstring, setfenv
local concat = table.concat
local sbyte, ssub, sfind, smatch, sgmatch, sgsub = string.byte, string.sub, string.find, string.match,
                                                   string.gmatch, string.gsub
local create, resume = coroutine.create, coroutine.resume
local clock = thread_clock  -- this thread's CPU time: other threads' work must not count
local sethook, getinfo = debug.sethook, debug.getinfo
local is_luajit = jit ~= nil

if is_luajit then
  -- compiled traces skip count hooks: interpret everything so the budget sees every instruction
  jit.off()
  jit.flush()
end

-- budget: instructions (count hook) and, as a net for work done inside C functions, CPU time --
local budget = { remaining = 0, deadline = 0, tripped = false, pending = false, reason = "" }
local hook

local function where()
  -- "file:line: " of the innermost frame of a script (not of this file, not a C function)
  local level = 2
  while true do
    local info = getinfo(level, "Sl")
    if not info then return "" end
    if info.what ~= "C" and info.source ~= "=emucore.lua" and info.currentline > 0 then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
    level = level + 1
  end
end

local function join(a, b) return a .. b end

-- Spending the budget allocates nothing and raises nothing here: it switches the hook to fire at
-- every instruction, and the hook raises the error from then on, in every frame and coroutine,
-- so that pcall loops cannot swallow it (nor a memory error keep it from being recorded).
local function trip(reason)
  if budget.tripped then return end
  -- the hook may fire between these statements: it must find the reason before the flag
  budget.reason = reason
  budget.pending = true
  budget.tripped = true
  sethook(hook, "", 1)
end

hook = function()
  if not budget.tripped then
    local left = budget.remaining - grain
    budget.remaining = left
    if left < 0 then
      trip("instruction limit exceeded")
    elseif clock() > budget.deadline then
      trip("time limit exceeded")
    else
      return
    end
  end
  sethook(hook, "", 1)  -- this thread too (Lua 5.1 keeps a hook per coroutine)
  if budget.pending then
    budget.pending = false
    local ok, at = pcall(where)
    if ok then
      local joined, message = pcall(join, at, budget.reason)
      if joined then budget.reason = message end
    end
  end
  error(budget.reason, 0)
end

local function charge(instructions)
  local left = budget.remaining - instructions
  budget.remaining = left
  if left < 0 then trip("instruction limit exceeded") end
end

local function check_time(...)
  if clock() > budget.deadline then trip("time limit exceeded") end
  return ...
end

local nesting

local function arm(limit, seconds)
  nesting = 0
  budget.remaining = limit
  budget.deadline = clock() + seconds
  budget.tripped = false
  budget.pending = false
  sethook(hook, "", grain)
end

-- the sandbox -------------------------------------------------------------------------------
local env = {}

local function compile(source, chunkname)
  if is_luajit then
    return load(source, chunkname, "t", env)  -- text only: no bytecode, even after a '#!' line
  end
  if sbyte(source, 1) == 27 then
    return nil, "attempt to load a binary chunk"
  end
  local f, err = loadstring(source, chunkname)
  if f then setfenv(f, env) end
  return f, err
end

for _, name in ipairs({ "assert", "error", "ipairs", "next", "pairs", "rawequal", "rawget", "rawset",
                        "select", "setmetatable", "getmetatable", "tonumber", "tostring", "type",
                        "unpack", "gcinfo" }) do
  env[name] = _G[name]
end
env._VERSION = _VERSION
env._G = env

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- C functions that call back into Lua nest on the C stack (gsub takes ~9 KB a level and LuaJIT
-- does not count C levels: deep nesting crashes the process), so their nesting is capped
nesting = 0

local function enter()
  if nesting >= max_nesting then
    error("C stack overflow (callbacks nested too deeply)", 3)
  end
  nesting = nesting + 1
end

local function finish(name, nests, ok, ...)
  if nests then nesting = nesting - 1 end
  if not ok then
    local e = ...
    if type(e) == "string" and not smatch(e, "^[^\n]-:%d+: ") then
      -- the C function's own error: give it the script's position and the function's name, as an
      -- unwrapped call would have ("script.lua:3: bad argument #1 to 'rep' (...)")
      e = sgsub(e, "to '%?'", "to '" .. name .. "'", 1)
      error(e, 2)
    end
    error(e, 0)
  end
  return check_time(...)
end

-- The count hook does not see the work a C function does: check the clock after each call.
-- The call runs under pcall, so an error cannot skip the nesting count down.
local function wrap(name, f, nests)
  if type(f) ~= "function" then return f end
  if nests then
    return function(...)
      enter()
      return finish(name, true, pcall(f, ...))
    end
  end
  return function(...) return finish(name, false, pcall(f, ...)) end
end

local function pattern_cost(subject, pattern)
  -- worst case of Lua's backtracking matcher: each quantified item may retry every position
  local n = #subject + 1
  local quantifiers, optionals = 0, 0
  local i, len = 1, #pattern
  while i <= len do
    local c = sbyte(pattern, i)
    if c == 37 then                            -- '%'
      if sbyte(pattern, i + 1) == 98 then      -- %bxy
        quantifiers = quantifiers + 1
        i = i + 4
      else
        i = i + 2
      end
    elseif c == 91 then                        -- '[': skip the set
      i = i + 1
      if sbyte(pattern, i) == 94 then i = i + 1 end
      if sbyte(pattern, i) == 93 then i = i + 1 end
      while i <= len and sbyte(pattern, i) ~= 93 do
        if sbyte(pattern, i) == 37 then i = i + 1 end
        i = i + 1
      end
      i = i + 1
    else
      if c == 42 or c == 43 or c == 45 then    -- '*', '+', '-'
        quantifiers = quantifiers + 1
      elseif c == 63 then                      -- '?'
        optionals = optionals + 1
      end
      i = i + 1
    end
  end
  local cost = n * 2 ^ optionals
  for k = 1, quantifiers do
    cost = cost * n / (k + 1)
    if cost > pattern_limit then break end
  end
  return cost
end

local function guard(subject, pattern)
  local ts, tp = type(subject), type(pattern)
  if (ts == "string" or ts == "number") and (tp == "string" or tp == "number") then
    if pattern_cost(tostring(subject), tostring(pattern)) > pattern_limit then
      error("pattern too complex for the sandbox", 3)
    end
  end
end

-- the string library is also the string metatable's __index: harden the real table
string.dump = nil
local reentrant = { gsub = true, format = true, sort = true, foreach = true, foreachi = true }
for name, f in pairs(string) do string[name] = wrap(name, f, reentrant[name]) end
local find, match, gsub, rep = string.find, string.match, string.gsub, string.rep
string.rep = function(...)
  -- Lua 5.1 loops n times even for an empty string, unseen by the count hook
  local s, n, sep = ...
  if s == "" and (sep == nil or sep == "") and type(n) == "number" then return "" end
  return rep(...)
end
local gmatch_iter = wrap("gmatch", function(iterate) return iterate() end)
string.find = function(s, p, init, plain)
  if not plain then guard(s, p) end
  return find(s, p, init, plain)
end
string.match = function(s, p, init)
  guard(s, p)
  return match(s, p, init)
end
string.gmatch = function(s, p)
  guard(s, p)
  local iterate = sgmatch(s, p)
  return function() return gmatch_iter(iterate) end
end
string.gsub = function(s, p, repl, n)
  guard(s, p)
  return gsub(s, p, repl, n)
end
env.string = string

env.table = copy(table)
for name, f in pairs(env.table) do env.table[name] = wrap(name, f, reentrant[name]) end
env.math = copy(math)
env.coroutine = copy(coroutine)

-- Whoever catches an error restores the nesting (defensive: the wrappers count down themselves).
-- Catching a stack overflow costs a stack reallocation, much C work for few instructions: charge it.
local function after_catch(depth, ok, ...)
  nesting = depth
  if not ok then
    local e = ...
    if type(e) == "string" and sfind(e, "stack overflow", 1, true) then charge(10000) end
  end
  return ok, ...
end

env.pcall = function(...)
  return after_catch(nesting, pcall(...))
end

-- an error handler runs inside the hook that raised the error, where no hook fires: once the
-- budget is spent, skip the script's handler so it cannot loop unseen
env.xpcall = function(f, handler, ...)
  return after_catch(nesting, xpcall(f, function(e)
    if budget.tripped then return e end
    return handler(e)
  end, ...))
end

env.coroutine.resume = function(...)
  return after_catch(nesting, resume(...))
end

if not is_luajit then
  -- Lua 5.1 keeps a Lua hook per thread: give every new coroutine the budget's hook (LuaJIT's
  -- hook is global)
  local sandbox_resume = env.coroutine.resume
  local function hooked_create(f)
    local co = create(f)
    sethook(co, hook, "", budget.tripped and 1 or grain)
    return co
  end
  local function rethrow(ok, ...)
    if not ok then error((...), 0) end
    return ...
  end
  env.coroutine.create = hooked_create
  env.coroutine.wrap = function(f)
    local co = hooked_create(f)
    return function(...) return rethrow(sandbox_resume(co, ...)) end
  end
end

env.print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do
    parts[i] = tostring((select(i, ...)))
  end
  local line = concat(parts, "\t")
  if #line > print_limit then line = ssub(line, 1, print_limit) .. "..." end
  py_print(line)
end
env.loadstring = function(source, chunkname)
  if type(source) ~= "string" then
    error("bad argument #1 to 'loadstring' (string expected, got " .. type(source) .. ")", 2)
  end
  return compile(source, chunkname or source)
end

env.load = function(chunk, chunkname)
  if type(chunk) == "string" then
    return compile(chunk, chunkname or chunk)
  end
  if type(chunk) ~= "function" then
    error("bad argument #1 to 'load' (function expected, got " .. type(chunk) .. ")", 2)
  end
  local parts = {}
  while true do
    local piece = chunk()
    if piece == nil or piece == "" then break end
    if type(piece) ~= "string" then return nil, "reader function must return a string" end
    parts[#parts + 1] = piece
  end
  return compile(concat(parts), chunkname or "=(load)")
end

local gc_options = { collect = true, count = true, step = true }
env.collectgarbage = function(option, arg)
  option = option or "collect"
  if not gc_options[option] then
    error("collectgarbage option '" .. tostring(option) .. "' is not allowed in the sandbox", 2)
  end
  return collectgarbage(option, arg)
end

-- data and scenario -------------------------------------------------------------------------
-- During an evaluation the values read at its start are cached (prime): a read is a table lookup,
-- not a call into Python. A write may change any of them, so it drops the cache.
local cached_names = {}   -- position in prime's values -> name (false: a name that reads a byte)
local cache = nil         -- name -> value, while primed
local cached_frame = nil

local function cache_names(...)
  local names = { ... }
  for i = 1, select("#", ...) do
    if tonumber(names[i]) ~= nil then names[i] = false end
  end
  cached_names = names
end

local function prime(frame, ...)
  local values, c = { ... }, {}
  for i = 1, select("#", ...) do
    local name, value = cached_names[i], values[i]
    if name and value ~= nil then c[name] = value end
  end
  cache, cached_frame = c, frame
end

local function settle()
  cache, cached_frame = nil, nil
end

env.data = setmetatable({}, {
  __metatable = false,
  __index = function(_, key)
    local c = cache
    if c ~= nil then
      local value = c[key]
      if value ~= nil then return value end
    end
    local ok, value
    local address = tonumber(key)
    if address ~= nil then
      ok, value = py_byte(address)
    elseif type(key) == "string" then
      ok, value = py_lookup(key)
    else
      error("Invalid variable name", 2)
    end
    if not ok then error(value, 2) end
    return value
  end,
  __newindex = function(_, key, value)
    local kt = type(key)
    if kt == "number" then
      key = tostring(key)
    elseif kt ~= "string" then
      error("Invalid variable name", 2)
    end
    local vt = type(value)
    if vt ~= "nil" and vt ~= "number" and vt ~= "boolean" then
      error("Invalid variable type", 2)
    end
    cache = nil
    local ok, message = py_set(key, value)
    if not ok then error(message, 2) end
  end,
})

env.scenario = setmetatable({}, {
  __metatable = false,
  __index = function(_, key)
    if key ~= "frame" and key ~= "timestep" then
      error("Unknown scenario property", 2)
    end
    local frame = cached_frame
    if frame ~= nil then
      if key == "frame" then return frame end
      return (frame - frame % 4) / 4
    end
    local ok, value = py_scenario(key)
    if not ok then error(value, 2) end
    return value
  end,
  __newindex = function() end,
})

local builtins = {}
for name in pairs(env) do builtins[name] = true end

-- entry points for Python -------------------------------------------------------------------
local function message(e)
  if type(e) == "string" then return e end
  if type(e) == "number" then return tostring(e) end
  return "(error object is a " .. type(e) .. " value)"
end

-- the script's function runs under the raw pcall, so an error a C function raises in a tail call
-- has no position rather than one inside this file
local function run_file(source, chunkname, limit, seconds)
  local f, err = compile(source, chunkname)
  if not f then return false, err end
  arm(limit, seconds)
  local ok, e = pcall(f)
  sethook()
  if not ok then return false, message(e) end
  return true, ""
end

local function call(name, limit, seconds)
  arm(limit, seconds)
  local f = env[name]
  if f == nil then
    sethook()
    return false, "function '" .. name .. "' is not defined"
  end
  local ok, result = pcall(f)
  sethook()
  if not ok then return false, message(result) end
  return true, result
end

local function functions(limit, seconds)
  arm(limit, seconds)
  local names = {}
  for name, value in pairs(env) do
    if type(name) == "string" and type(value) == "function" and not builtins[name] then
      names[#names + 1] = name
    end
  end
  return names
end

python = nil
if package and package.loaded then package.loaded.python = nil end

return run_file, call, functions, sethook, cache_names, prime, settle
"""

_SYNTAX_CHECK = r"""
local source, chunkname = ...
if jit then
  local f, err = load(source, chunkname, "t")
  return err
end
if string.byte(source, 1) == 27 then return "attempt to load a binary chunk" end
local f, err = loadstring(source, chunkname)
return err
"""


class _Limits(NamedTuple):
    instructions: int
    seconds: float
    memory: int


def _deny_attributes(obj: object, name: Any, is_setting: bool) -> Any:
    raise AttributeError("Python attributes are not accessible from Lua scripts")


def _new_runtime(memory_limit: int) -> Any:
    return _lupa.LuaRuntime(
        encoding=None,
        register_eval=False,
        register_builtins=False,
        unpack_returned_tuples=True,
        attribute_filter=_deny_attributes,
        max_memory=memory_limit,
    )


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _error_message(exc: BaseException) -> str:
    """Lua's message from a lupa exception, without lupa's traceback."""
    if isinstance(exc, (MemoryError, getattr(_lupa, "LuaMemoryError", MemoryError))):
        return "not enough memory"
    message = _text(exc.args[0]) if exc.args else ""
    message = message.split("\nstack traceback:", 1)[0]
    if not message:
        message = "(error object is not a string)"
    return message


def _explain(message: str, limits: _Limits) -> str:
    if message.endswith("not enough memory"):
        return f"{message} (limit: {limits.memory} bytes per script scope)"
    if message.endswith("instruction limit exceeded"):
        return f"{message} (limit: {limits.instructions} instructions)"
    if message.endswith("time limit exceeded"):
        return f"{message} (limit: {limits.seconds:g} s of CPU time)"
    return message


def _describe(exc: Exception) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _lua_value(value: object, name: str) -> tuple[bool, object]:
    """A DataAccess value as (ok, Lua value or error message)."""
    if value is None:
        return True, None
    if isinstance(value, (bool, np.bool_)):
        return True, bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return True, float(value)  # Lua numbers are doubles
    return False, f'variable "{name}" has a value Lua cannot hold ({type(value).__name__})'.encode()


class _Scope:
    """One Lua state with its sandbox, built fresh by every reload."""

    def __init__(
        self,
        name: str,
        data: DataAccess,
        print_handler: Callable[[str], None],
        limits: _Limits,
    ):
        self.name = name
        self._data = data
        self._print = print_handler
        self._limits = limits
        self._runtime = _new_runtime(limits.memory)
        self._cached_names: tuple[str, ...] | None = None
        (self._run_file, self._call, self._functions, self._sethook,
         self._cache_names, self._prime, self._settle) = self._runtime.execute(
            _BOOTSTRAP.encode(),
            self._lookup,
            self._set,
            self._byte,
            self._scenario,
            self._emit,
            min(_HOOK_GRAIN, limits.instructions),
            PATTERN_COST_LIMIT,
            PRINT_LIMIT,
            MAX_CALLBACK_NESTING,
            time.thread_time,
            name=b"=emucore.lua",
        )

    # ---- callbacks: never raise into Lua, answer (ok, value-or-message) ----

    def _lookup(self, key: bytes) -> tuple[bool, object]:
        name = _text(key)
        try:
            value = self._data.lookup(name)
        except KeyError:
            return False, f'unknown variable "{name}"'.encode()
        except IndexError:
            return False, f'Out of bounds access (variable "{name}")'.encode()
        except Exception as exc:
            return False, f'reading "{name}": {_describe(exc)}'.encode()
        return _lua_value(value, name)

    def _set(self, key: bytes, value: object) -> tuple[bool, object]:
        name = _text(key)
        if not isinstance(value, bool) and isinstance(value, (int, float)):
            value = float(value)  # a Lua number is a double; lupa hands integral ones over as int
        try:
            self._data.set_value(name, value)  # type: ignore[arg-type]
        except IndexError:
            return False, f'Out of bounds access (variable "{name}")'.encode()
        except Exception as exc:
            return False, f'writing "{name}": {_describe(exc)}'.encode()
        return True, None

    def _byte(self, number: float) -> tuple[bool, object]:
        address = to_int64(number)  # stable-retro: int64_t address = lua_tonumber(L, 2)
        if address < 0:
            return False, b"Out of bounds access"
        try:
            value = self._data.read_byte(address)
        except IndexError:
            return False, b"Out of bounds access"
        except Exception as exc:
            return False, f"reading address {address:#x}: {_describe(exc)}".encode()
        return _lua_value(value, f"{address:#x}")

    def _scenario(self, key: bytes) -> tuple[bool, object]:
        try:
            frame = int(self._data.frame)
        except Exception as exc:
            return False, f"reading scenario.frame: {_describe(exc)}".encode()
        return True, float(frame // 4 if key == b"timestep" else frame)

    def _emit(self, text: bytes) -> None:
        try:
            self._print(_text(text))
        except Exception:
            log.exception("Lua print handler failed")

    # ---- entry points ----

    def _stop_hook(self) -> None:
        try:
            self._sethook()  # a C function: runs no Lua instruction, so no hook can fire
        except Exception:
            pass

    def run_file(self, file_name: str, source: str) -> LuaError | None:
        """Run one script's top level; the error if it fails to compile or to run."""
        chunkname = ("@" + file_name).encode("utf-8")
        try:
            ok, message = self._run_file(
                source.encode("utf-8"), chunkname, self._limits.instructions, self._limits.seconds
            )
        except Exception as exc:
            return LuaError(_explain(_error_message(exc), self._limits), action="load")
        finally:
            self._stop_hook()
        if not ok:
            return LuaError(_explain(_text(message), self._limits), action="load")
        return None

    def prime(self, names: tuple[str, ...], values: list[int | float | bool | None], frame: int) -> None:
        """Cache ``values`` (those of ``names``; None: not cached) and ``frame`` until ``settle``.
        Where the state cannot take them (its memory is full), reads stay calls into Python."""
        try:
            if names is not self._cached_names:
                self._cached_names = None
                self._cache_names(*(name.encode("utf-8") for name in names))
                self._cached_names = names
            try:
                self._prime(frame, *values)
            except OverflowError:  # an int beyond int64: lupa takes it as a float, as _lookup gives it
                self._prime(frame, *(value if value is None or isinstance(value, bool) else float(value)
                                     for value in values))
        except Exception:
            self.settle()

    def settle(self) -> None:
        try:
            self._settle()  # allocates nothing and runs with no hook set
        except Exception:
            log.exception("Lua scope %s: the evaluation's cache could not be dropped", self.name)

    def call(self, function: bytes) -> object:
        """Call a global function (its UTF-8 name) with no arguments; its first result as Python."""
        try:
            ok, result = self._call(function, self._limits.instructions, self._limits.seconds)
        except Exception as exc:  # the budget tripped after the script returned, or lupa failed
            self._stop_hook()  # a normal return has stopped it already
            raise LuaError(_explain(_error_message(exc), self._limits)) from None
        if not ok:
            raise LuaError(_explain(_text(result), self._limits))
        if isinstance(result, bool):
            return result
        if isinstance(result, (int, float)):
            return float(result)
        return None

    def functions(self) -> list[str]:
        """The global functions the scripts defined."""
        try:
            names = self._functions(self._limits.instructions, self._limits.seconds)
        except Exception:
            return []
        finally:
            self._stop_hook()
        return sorted(_text(name) for name in names.values())


def _log_print(text: str) -> None:
    log.info("Lua: %s", text)


class LuaScripts:
    """A scenario's Lua scripts, in sandboxed states, one per scope.

    The constructor loads nothing: ``reload()`` (re)creates the states and runs the scripts, and a
    ``call()`` before the first ``reload()`` does it implicitly.

    Args:
        scripts: ``(file name, source)`` pairs in load order. The scope of a file is the text after
            the last ``.`` of its name (``script.lua`` -> ``lua``). Every scope runs Lua (stable-retro
            only knows ``lua``); files of one scope share one state and its globals.
        data: what ``data`` and ``scenario`` reach.
        instruction_limit: Lua VM instructions allowed per script load and per call.
        time_limit: CPU seconds allowed per script load and per call (a net for C-side work).
        memory_limit: bytes each Lua state may allocate.
        print_handler: receives each line a script prints (default: logged at INFO).
    """

    def __init__(
        self,
        scripts: Iterable[tuple[str, str]],
        data: DataAccess,
        *,
        instruction_limit: int = DEFAULT_INSTRUCTION_LIMIT,
        time_limit: float = DEFAULT_TIME_LIMIT,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        print_handler: Callable[[str], None] | None = None,
    ):
        self.scripts: list[tuple[str, str]] = list(scripts)
        self.data = data
        self.instruction_limit = max(1, int(instruction_limit))
        self.time_limit = float(time_limit)
        self.memory_limit = max(1, int(memory_limit))
        self.print_handler = print_handler or _log_print
        self.load_errors: list[LuaError] = []
        self._scopes: dict[str, _Scope] = {}
        self._references: dict[str, tuple[_Scope, bytes]] = {}
        self._loaded = False

    @property
    def scopes(self) -> tuple[str, ...]:
        """The scopes loaded by the last ``reload()``, in load order."""
        return tuple(self._scopes)

    def reload(self) -> None:
        """Discard every state, create fresh ones and run every script's top level in order.

        A file that fails (syntax error, runtime error, broken limit) is recorded in ``load_errors``
        and the others still load; what its top level defined before failing stays defined.
        """
        self._scopes = {}
        self._references = {}
        self.load_errors = []
        self._loaded = True
        for file_name, source in self.scripts:
            scope_name = file_name.rsplit(".", 1)[-1]
            scope = self._scopes.get(scope_name)
            if scope is None:
                try:
                    limits = _Limits(self.instruction_limit, self.time_limit, self.memory_limit)
                    scope = _Scope(scope_name, self.data, self._print, limits)
                except Exception as exc:  # e.g. the memory limit is too small for the runtime itself
                    self.load_errors.append(LuaError(f"{file_name}: {_error_message(exc)}", action="load"))
                    continue
                self._scopes[scope_name] = scope
            error = scope.run_file(file_name, source)
            if error is not None:
                log.info("%s", error)  # the env warns at make; the studio shows load_errors
                self.load_errors.append(error)

    def _print(self, text: str) -> None:
        self.print_handler(text)

    def _resolve(self, reference: str) -> tuple[_Scope, bytes]:
        resolved = self._references.get(reference)
        if resolved is None:
            scope, function = self._find(reference)
            resolved = self._references[reference] = (scope, function.encode("utf-8"))
        return resolved

    def _find(self, reference: str) -> tuple[_Scope, str]:
        if not self._loaded:
            self.reload()
        scope_name, colon, function = reference.partition(":")
        if colon:
            scope = self._scopes.get(scope_name)
            if scope is None:
                raise LuaError(f"no script is loaded in scope '{scope_name}' (for '{reference}')")
            return scope, function
        if len(self._scopes) != 1:
            raise LuaError(
                f"'{reference}' names no scope and {len(self._scopes)} scopes are loaded; write 'lua:{reference}'"
            )
        return next(iter(self._scopes.values())), reference

    def call(self, reference: str) -> object:
        """Call ``"scope:function"`` (or a bare ``"function"`` when exactly one scope is loaded).

        Returns:
            The first return value: a Lua number as ``float`` (LuaJIT numbers are doubles), a
            boolean as ``bool``, anything else (nil, string, table, ...) as ``None``.

        Raises:
            LuaError: unknown scope or function, a runtime error, or a broken limit.
        """
        scope, function = self._resolve(reference)
        return scope.call(function)

    def reward(self, reference: str) -> np.float32:
        """``call(reference)``'s result as a reward (:func:`to_reward`)."""
        return np.float32(to_reward(self.call(reference)))

    def done(self, reference: str) -> bool:
        """``call(reference)``'s result as done (:func:`to_done`)."""
        return to_done(self.call(reference))

    def prime(self, names: tuple[str, ...], values: list[int | float | bool | None], frame: int) -> None:
        """Start an evaluation: until ``settle()``, ``data.<name>`` reads ``values`` (those of ``names``,
        in order; None for one not cached) and ``scenario`` reads ``frame``, without calling into
        Python. The values must be what ``DataAccess`` would answer now; a script's write drops them.
        Pass the same ``names`` object each time (it is sent to Lua when it changes)."""
        if not self._loaded:
            self.reload()
        for scope in self._scopes.values():
            scope.prime(names, values, frame)

    def settle(self) -> None:
        """End the evaluation ``prime()`` started: reads call into Python again."""
        for scope in self._scopes.values():
            scope.settle()

    def functions(self) -> dict[str, list[str]]:
        """The global functions each scope's scripts define (for pickers in the studio)."""
        if not self._loaded:
            self.reload()
        return {name: scope.functions() for name, scope in self._scopes.items()}

    @staticmethod
    def check_syntax(source: str, name: str) -> LuaError | None:
        """Compile ``source`` without running it.

        Args:
            source: the script's text.
            name: its file name, used in the message (``"script.lua:3: '=' expected near 'x'"``).

        Returns:
            The syntax error, or None if it compiles.
        """
        try:
            runtime = _new_runtime(DEFAULT_MEMORY_LIMIT)
            message = runtime.execute(
                _SYNTAX_CHECK.encode(), source.encode("utf-8"), ("@" + name).encode("utf-8"), name=b"=emucore.lua"
            )
        except Exception as exc:
            return LuaError(_error_message(exc), action="load")
        return None if message is None else LuaError(_text(message), action="load")
