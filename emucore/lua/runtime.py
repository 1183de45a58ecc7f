"""The Lua runtime: lupa's LuaJIT (or Lua 5.1), the limits, the trusted chunk that builds the sandbox
(sandbox.lua, strings.lua and bindings.lua), and the helpers that turn lupa's answers into ours."""

from __future__ import annotations

import importlib
from importlib.resources import files
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from emucore.errors import MissingExtraError

DEFAULT_INSTRUCTION_LIMIT = 10_000_000
"""Lua VM instructions one script load or one call may execute."""

DEFAULT_TIME_LIMIT = 1.0
"""CPU seconds (of the calling thread) one script load or one call may take: a net for work done inside C functions."""

DEFAULT_MEMORY_LIMIT = 16 * 1024 * 1024
"""Bytes one Lua state (one scope) may allocate. It also bounds what one string operation copies."""

MEMORY_HEADROOM = 256 * 1024
"""Bytes below its cap from which a state collects its garbage at the end of every load or call."""

ENTRY_ROOM = 64 * 1024
"""Bytes a state must have free before Python calls into it: lupa pushes the arguments outside any
protected call, where running out of memory would end the process. A state fuller than that (after
the collection above) is out of memory: nothing runs in it again until it is rebuilt."""

PATTERN_COST_LIMIT = 5e7
"""Worst-case steps one string pattern match may take (a few tenths of a second of C time)."""

MOVE_LIMIT = 10_000_000
"""Table slots one ``table.insert`` or ``table.remove`` may shift (about 0.1 s of C time; a table
the memory cap allows has at most about a million)."""

PRINT_LIMIT = 10_000
"""Characters of one ``print`` line passed on to the handler; the rest is cut."""

MAX_CALLBACK_NESTING = 20
"""How deep C functions that call back into Lua (``gsub``, ``format``, ``sort``) may nest."""

HOOK_GRAIN = 100  # instructions between two count-hook calls


def _load_runtime() -> tuple[ModuleType, str]:
    for name, label in (("luajit21", "LuaJIT 2.1"), ("lua51", "Lua 5.1")):
        try:
            return importlib.import_module(f"lupa.{name}"), label
        except ImportError:
            continue
    raise MissingExtraError("Lua scenarios (emucore.lua)", "lupa>=2.0 with LuaJIT 2.1 or Lua 5.1", "env")


_lupa, RUNTIME_NAME = _load_runtime()


BOOTSTRAP = "".join((files("emucore.lua") / name).read_text(encoding="utf-8")
                    for name in ("sandbox.lua", "strings.lua", "bindings.lua"))
"""The trusted chunk: runs with the real globals, builds one sandbox and returns its entry points."""

SYNTAX_CHECK = r"""
local source, chunkname = ...
if jit then
  local f, err = load(source, chunkname, "t")
  return err
end
if string.byte(source, 1) == 27 then return "attempt to load a binary chunk" end
local f, err = loadstring(source, chunkname)
return err
"""


class Limits(NamedTuple):
    instructions: int
    seconds: float
    memory: int


def _deny_attributes(obj: object, name: Any, is_setting: bool) -> Any:
    raise AttributeError("Python attributes are not accessible from Lua scripts")


def new_runtime(memory_limit: int) -> Any:
    """A bare runtime allowed ``memory_limit`` bytes beyond what it uses now (0: no limit)."""
    return _lupa.LuaRuntime(
        encoding=None,
        register_eval=False,
        register_builtins=False,
        unpack_returned_tuples=True,
        attribute_filter=_deny_attributes,
        max_memory=memory_limit,
    )


def decoded(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def error_message(exc: BaseException) -> str:
    """Lua's message from a lupa exception, without lupa's traceback."""
    if isinstance(exc, (MemoryError, getattr(_lupa, "LuaMemoryError", MemoryError))):
        return "not enough memory"
    message = decoded(exc.args[0]) if exc.args else ""
    message = message.split("\nstack traceback:", 1)[0]
    if not message:
        message = "(error object is not a string)"
    return message


def explain(message: str, limits: Limits) -> str:
    if message.endswith("not enough memory"):
        return f"{message} (limit: {limits.memory} bytes per script scope)"
    if message.endswith("instruction limit exceeded"):
        return f"{message} (limit: {limits.instructions} instructions)"
    if message.endswith("time limit exceeded"):
        return f"{message} (limit: {limits.seconds:g} s of CPU time)"
    return message


def describe(exc: Exception) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def lua_value(value: object, name: str) -> tuple[bool, object]:
    """A DataAccess value as (ok, Lua value or error message)."""
    if value is None:
        return True, None
    if isinstance(value, (bool, np.bool_)):
        return True, bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return True, float(value)  # Lua numbers are doubles
    return False, f'variable "{name}" has a value Lua cannot hold ({type(value).__name__})'.encode()
