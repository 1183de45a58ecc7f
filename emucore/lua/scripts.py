"""``LuaScripts``: a scenario's Lua scripts in sandboxed states, one per scope."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable

import numpy as np

from emucore.lua.compile_cost import refusal
from emucore.lua.runtime import (
    DEFAULT_INSTRUCTION_LIMIT,
    DEFAULT_MEMORY_LIMIT,
    DEFAULT_TIME_LIMIT,
    ENTRY_ROOM,
    SYNTAX_CHECK,
    Limits,
    decoded,
    error_message,
    new_runtime,
)
from emucore.lua.scope import Scope
from emucore.lua.values import DataAccess, LuaError, to_done, to_reward

log = logging.getLogger("emucore.lua")


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
        self._scopes: dict[str, Scope] = {}
        self._references: dict[str, tuple[Scope, bytes]] = {}
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
                    limits = Limits(self.instruction_limit, self.time_limit, self.memory_limit)
                    scope = Scope(scope_name, self.data, self._print, limits)
                except Exception as exc:  # e.g. the memory limit is too small for the runtime itself
                    self.load_errors.append(LuaError(f"{file_name}: {error_message(exc)}", action="load"))
                    continue
                self._scopes[scope_name] = scope
            error = scope.run_file(file_name, source)
            if error is not None:
                log.info("%s", error)  # the env warns at make; the studio shows load_errors
                self.load_errors.append(error)

    def _print(self, text: str) -> None:
        self.print_handler(text)

    def _resolve(self, reference: str) -> tuple[Scope, bytes]:
        resolved = self._references.get(reference)
        if resolved is None:
            scope, function = self._find(reference)
            resolved = self._references[reference] = (scope, function.encode("utf-8"))
        return resolved

    def _find(self, reference: str) -> tuple[Scope, str]:
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
        """``call(reference)``'s result as a reward (:func:`to_reward`).

        Raises:
            LuaError: as ``call``, or the result is NaN or infinite (also once rounded to float32).
        """
        value = self.call(reference)
        reward = to_reward(value)
        if not math.isfinite(reward):
            raise self._not_finite(reference, "reward", value)
        return np.float32(reward)

    def done(self, reference: str) -> bool:
        """``call(reference)``'s result as done (:func:`to_done`).

        Raises:
            LuaError: as ``call``, or the result is NaN (neither zero nor a number to compare).
        """
        value = self.call(reference)
        if value != value:
            raise self._not_finite(reference, "done", value)
        return to_done(value)

    def _not_finite(self, reference: str, role: str, value: object) -> LuaError:
        scope, _ = self._resolve(reference)
        return LuaError(f"{', '.join(scope.files) or scope.name}: the {role} function '{reference}' returned"
                        f" {value}, not a finite number{' in float32' if role == 'reward' else ''}")

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
        # a file's undecodable bytes reach here as surrogates (the folder keeps them): pass them on as bytes
        encoded = source.encode("utf-8", "surrogateescape")
        chunkname = ("@" + name).encode("utf-8", "surrogateescape")
        refused = refusal(encoded, chunkname)  # compiling can cost more than the source's length says
        if refused is not None:
            return LuaError(decoded(refused), action="load")
        try:
            # room for the arguments, which lupa pushes outside any protected call
            runtime = new_runtime(DEFAULT_MEMORY_LIMIT + len(encoded) + len(chunkname) + ENTRY_ROOM)
            message = runtime.execute(SYNTAX_CHECK.encode(), encoded, chunkname, name=b"=emucore.lua")
        except Exception as exc:
            return LuaError(error_message(exc), action="load")
        return None if message is None else LuaError(decoded(message), action="load")
