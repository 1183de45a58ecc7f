"""One Lua state with its sandbox (``Scope``): the scripts of one scope run in it, and its callbacks
answer their reads and writes of ``data`` and ``scenario``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from emucore.lua.runtime import (
    BOOTSTRAP,
    HOOK_GRAIN,
    MAX_CALLBACK_NESTING,
    PATTERN_COST_LIMIT,
    PRINT_LIMIT,
    Limits,
    decoded,
    describe,
    error_message,
    explain,
    lua_value,
    new_runtime,
)
from emucore.lua.values import DataAccess, LuaError, to_int64

log = logging.getLogger("emucore.lua")


class Scope:
    """One Lua state with its sandbox, built fresh by every reload."""

    def __init__(
        self,
        name: str,
        data: DataAccess,
        print_handler: Callable[[str], None],
        limits: Limits,
    ):
        self.name = name
        self._data = data
        self._print = print_handler
        self._limits = limits
        self._runtime = new_runtime(limits.memory)
        self._cached_names: tuple[str, ...] | None = None
        (self._run_file, self._call, self._functions, self._sethook,
         self._cache_names, self._prime, self._settle) = self._runtime.execute(
            BOOTSTRAP.encode(),
            self._lookup,
            self._set,
            self._byte,
            self._scenario,
            self._emit,
            min(HOOK_GRAIN, limits.instructions),
            PATTERN_COST_LIMIT,
            PRINT_LIMIT,
            MAX_CALLBACK_NESTING,
            time.thread_time,
            name=b"=emucore.lua",
        )

    # ---- callbacks: never raise into Lua, answer (ok, value-or-message) ----

    def _lookup(self, key: bytes) -> tuple[bool, object]:
        name = decoded(key)
        try:
            value = self._data.lookup(name)
        except KeyError:
            return False, f'unknown variable "{name}"'.encode()
        except IndexError:
            return False, f'Out of bounds access (variable "{name}")'.encode()
        except Exception as exc:
            return False, f'reading "{name}": {describe(exc)}'.encode()
        return lua_value(value, name)

    def _set(self, key: bytes, value: object) -> tuple[bool, object]:
        name = decoded(key)
        if not isinstance(value, bool) and isinstance(value, (int, float)):
            value = float(value)  # a Lua number is a double; lupa hands integral ones over as int
        try:
            self._data.set_value(name, value)  # type: ignore[arg-type]
        except IndexError:
            return False, f'Out of bounds access (variable "{name}")'.encode()
        except Exception as exc:
            return False, f'writing "{name}": {describe(exc)}'.encode()
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
            return False, f"reading address {address:#x}: {describe(exc)}".encode()
        return lua_value(value, f"{address:#x}")

    def _scenario(self, key: bytes) -> tuple[bool, object]:
        try:
            frame = int(self._data.frame)
        except Exception as exc:
            return False, f"reading scenario.frame: {describe(exc)}".encode()
        return True, float(frame // 4 if key == b"timestep" else frame)

    def _emit(self, text: bytes) -> None:
        try:
            self._print(decoded(text))
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
            return LuaError(explain(error_message(exc), self._limits), action="load")
        finally:
            self._stop_hook()
        if not ok:
            return LuaError(explain(decoded(message), self._limits), action="load")
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
            raise LuaError(explain(error_message(exc), self._limits)) from None
        if not ok:
            raise LuaError(explain(decoded(result), self._limits))
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
        return sorted(decoded(name) for name in names.values())
