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
  env do not count) for work done inside C functions, where no instruction is counted, timed from
  the first check (the first count hook, or after the first library call), so that a short call
  never reads the clock; a memory cap per state (a state still within ``ENTRY_ROOM`` of it after a
  load or call, once its garbage is collected, runs nothing more: lupa pushes a call's arguments
  unprotected, where running out of memory would end the process; its calls raise ``LuaError`` until
  reload); Lua's stack limit; a cap on how deep C functions that call back into Lua nest (LuaJIT
  does not count C levels, and nested ``gsub`` callbacks would overflow the C stack and kill the
  process); a worst-case cost cap on string searches (``find``, ``match``, ``gmatch``, ``gsub``,
  plain or not: ``PATTERN_COST_LIMIT``); and ``table.sort`` comparing in Lua, so that the hook sees
  each comparison.
* During an evaluation (``LuaScripts.prime``), ``data`` reads the variables' values taken at its
  start, without calling into Python; a script's write drops them.
* A file that fails to load is recorded in ``LuaScripts.load_errors`` (stable-retro ignores it).
* A reward that is NaN or infinite (once rounded to float32), or a done that is NaN, is a ``LuaError``
  naming the script (``LuaScripts.reward`` / ``done``), where stable-retro passes it on.
* Error messages carry the file and line (``"script.lua:12: Out of bounds access"``). An unknown
  variable says so instead of stable-retro's ``"C++ exception"``; a missing function says
  ``"function 'f' is not defined"``.
* Every scope runs Lua (stable-retro only registers ``lua``).
"""

from __future__ import annotations

from emucore.lua.runtime import (
    DEFAULT_INSTRUCTION_LIMIT,
    DEFAULT_MEMORY_LIMIT,
    DEFAULT_TIME_LIMIT,
    MAX_CALLBACK_NESTING,
    PATTERN_COST_LIMIT,
    PRINT_LIMIT,
    RUNTIME_NAME,
)
from emucore.lua.scripts import LuaScripts
from emucore.lua.values import DataAccess, LuaError, to_done, to_int64, to_reward

__all__ = [
    "DEFAULT_INSTRUCTION_LIMIT",
    "DEFAULT_MEMORY_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "MAX_CALLBACK_NESTING",
    "PATTERN_COST_LIMIT",
    "PRINT_LIMIT",
    "DataAccess",
    "LuaError",
    "LuaScripts",
    "RUNTIME_NAME",
    "to_done",
    "to_int64",
    "to_reward",
]
