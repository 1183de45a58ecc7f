"""One Lua state with its sandbox (``Scope``): the scripts of one scope run in it, and its callbacks
answer their reads and writes of ``data`` and ``scenario``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from emucore.lua.compile_cost import chunk_label, refusal
from emucore.lua.runtime import (
    BOOTSTRAP,
    ENTRY_ROOM,
    HOOK_GRAIN,
    MAX_CALLBACK_NESTING,
    MEMORY_HEADROOM,
    MOVE_LIMIT,
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
        self.files: list[str] = []  # those run in this state, in order
        self._failed: list[str] = []  # those of them that failed to load
        self._exhausted = False
        # no cap while the trusted chunk is built: lupa pushes its arguments unprotected
        self._runtime = new_runtime(0)
        self._used = self._runtime.get_memory_used
        self._ceiling = limits.memory - ENTRY_ROOM  # the most a state may use when Python calls into it
        base = self._runtime.get_memory_used(total=True) - self._used()
        self._cached_names: tuple[str, ...] | None = None
        self._prime_size = 0  # bytes pushing the cached names' values may take
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
            base + limits.memory - MEMORY_HEADROOM,
            self._refusal,
            MOVE_LIMIT,
            name=b"=emucore.lua",
        )
        self._runtime.set_max_memory(limits.memory)
        if self._full():
            raise MemoryError(f"the memory limit ({limits.memory} bytes) leaves no room for the sandbox")

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

    @staticmethod
    def _refusal(source: bytes, chunkname: bytes, deadline: float | None) -> bytes | None:
        try:
            return refusal(source, chunkname, deadline)
        except Exception as exc:
            return f"{chunk_label(chunkname)}: could not be priced for compiling ({describe(exc)})".encode()

    def _emit(self, text: bytes) -> None:
        try:
            self._print(decoded(text))
        except Exception:
            log.exception("Lua print handler failed")

    # ---- memory: lupa pushes a call's arguments outside any protected call ----

    def _has_room(self, size: int) -> bool:
        """Whether ``size`` bytes of arguments can be pushed now without running out of memory."""
        return self._used() + size <= self._ceiling

    def _full(self) -> bool:
        """Whether the state is out of memory for good: nothing may run in it again."""
        if not self._exhausted and not self._has_room(0):
            self._exhausted = True
            self._runtime.set_max_memory(0)  # nothing runs in it now; lupa's own cleanup must not fail
        return self._exhausted

    def _out_of_memory(self, action: str = "call") -> LuaError:
        files = ", ".join(self.files) or self.name
        return LuaError(
            f"{files}: not enough memory (limit: {self._limits.memory} bytes per script scope): the state"
            f" of scope '{self.name}' is still full after collecting its garbage, so nothing runs in it"
            " until the scripts are reloaded (reset)",
            action=action,
        )

    # ---- entry points ----

    def _stop_hook(self) -> None:
        try:
            self._sethook()  # a C function: runs no Lua instruction, so no hook can fire
        except Exception:
            pass

    def run_file(self, file_name: str, source: str) -> LuaError | None:
        """Run one script's top level; the error if it fails to compile or to run."""
        self.files.append(file_name)
        error = self._load(file_name, source)
        if error is not None:
            self._failed.append(file_name)
        return error

    def _load(self, file_name: str, source: str) -> LuaError | None:
        if self._full():
            return self._out_of_memory("load")
        chunkname = ("@" + file_name).encode("utf-8")
        encoded = source.encode("utf-8")
        if not self._has_room(len(encoded) + len(chunkname)):
            return LuaError(f"{file_name}: not enough memory for its source"
                            f" (limit: {self._limits.memory} bytes per script scope)", action="load")
        try:
            ok, message = self._run_file(encoded, chunkname, self._limits.instructions, self._limits.seconds)
        except Exception as exc:  # the budget tripped (while compiling, or after the script returned)
            message = explain(error_message(exc), self._limits)
            if not message.startswith(file_name):
                message = f"{file_name}: {message}"
            return LuaError(message, action="load")
        finally:
            self._stop_hook()
        if not ok:
            return LuaError(explain(decoded(message), self._limits), action="load")
        return None

    def prime(self, names: tuple[str, ...], values: list[int | float | bool | None], frame: int) -> None:
        """Cache ``values`` (those of ``names``; None: not cached) and ``frame`` until ``settle``.
        Where the state cannot take them (its memory is full), reads stay calls into Python."""
        if self._exhausted:
            return
        try:
            if names is not self._cached_names:
                self._cached_names = None
                encoded = [name.encode("utf-8") for name in names]
                # the names' strings and twice the stack for the values (lupa may grow it)
                self._prime_size = sum(len(name) + 48 for name in encoded) + 32 * (len(names) + 1)
                if not self._has_room(self._prime_size):
                    return  # reads stay calls into Python
                self._cache_names(*encoded)
                self._cached_names = names
            if self._used() > self._ceiling - self._prime_size:
                return  # reads stay calls into Python
            try:
                self._prime(frame, *values)
            except OverflowError:  # an int beyond int64: lupa takes it as a float, as _lookup gives it
                self._prime(frame, *(value if value is None or isinstance(value, bool) else float(value)
                                     for value in values))
        except Exception:
            self.settle()

    def settle(self) -> None:
        if self._exhausted:
            return
        try:
            self._settle()  # allocates nothing and runs with no hook set
        except Exception:
            log.exception("Lua scope %s: the evaluation's cache could not be dropped", self.name)

    def call(self, function: bytes) -> object:
        """Call a global function (its UTF-8 name) with no arguments; its first result as Python."""
        if self._exhausted or self._used() > self._ceiling - len(function):
            self._full()
            raise self._out_of_memory()
        try:
            ok, result = self._call(function, self._limits.instructions, self._limits.seconds)
        except Exception as exc:  # the budget tripped after the script returned, or lupa failed
            self._stop_hook()  # a normal return has stopped it already
            raise LuaError(explain(error_message(exc), self._limits)) from None
        if not ok:
            message = explain(decoded(result), self._limits)
            if self._failed and result == b"function '" + function + b"' is not defined":
                message += f" ({', '.join(self._failed)} failed to load)"
            raise LuaError(message)
        if isinstance(result, bool):
            return result
        if isinstance(result, (int, float)):
            return float(result)
        return None

    def functions(self) -> list[str]:
        """The global functions the scripts defined."""
        if self._full():
            return []
        try:
            names = self._functions(self._limits.instructions, self._limits.seconds)
        except Exception:
            return []
        finally:
            self._stop_hook()
        return sorted(decoded(name) for name in names.split(b"\0")) if names else []
