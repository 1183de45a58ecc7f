"""What crosses between Lua and the evaluator: errors, the conversions of results and numbers, and
``DataAccess``, what scripts reach through ``data`` and ``scenario``."""

from __future__ import annotations

import math
import re
from typing import Protocol

import numpy as np

from emucore.errors import EmucoreError

_INT64_MIN = -(2**63)
_INT64_RANGE = 2.0**63
_FLOAT32_SAFE = 3.4e38  # doubles below this in magnitude round to a finite float32


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
