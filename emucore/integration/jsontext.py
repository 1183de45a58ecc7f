"""JSON text for integration files: decoding with line/column/key in errors, and stable-retro's layout.

``json`` reports where a syntax error is but not which key it belongs to, and a semantic error
found after decoding (``"address": "0x10"``) has no position at all. :class:`KeyLocator`
walks the text once and maps every key path to its line and column, so errors can name both.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any, TypeGuard

from emucore.integration.common import IntegrationError

KeyPath = tuple["str | int", ...]
MAX_INTEGER_DIGITS = 309  # a longer integer overflows a double

_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|NaN|-?Infinity")
_SPACE = re.compile(r"[ \t\n\r]*")


def is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number as decoded: an int or a float, not a boolean (which Python counts as an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def format_key(path: KeyPath) -> str:
    """``("info", "lives", "type")`` -> ``"info.lives.type"``; indices as ``[i]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


class _Stop(Exception):
    pass


class KeyLocator:
    """Positions of the values in a JSON text, by key path; tolerant of a broken text.

    On a malformed text the walk stops at the first fault, and :attr:`last` is the key path
    being read there (the key the syntax error belongs to).
    """

    def __init__(self, text: str):
        self.text = text
        self.positions: dict[KeyPath, int] = {}
        self.last: KeyPath = ()
        self._i = 0
        try:
            self._value(())
        except (_Stop, IndexError, ValueError, RecursionError):
            pass  # ValueError: a bad escape inside a string

    def line_col(self, path: KeyPath) -> tuple[int, int] | None:
        """1-based line and column where the value at ``path`` starts, or None if unknown."""
        pos = self.positions.get(tuple(path))
        if pos is None:
            return None
        line = self.text.count("\n", 0, pos) + 1
        return line, pos - (self.text.rfind("\n", 0, pos) + 1) + 1

    def _space(self) -> None:
        space = _SPACE.match(self.text, self._i)
        assert space is not None  # [ \t\n\r]* matches the empty string too
        self._i = space.end()

    def _expect(self, char: str) -> None:
        self._space()
        if self.text[self._i] != char:
            raise _Stop
        self._i += 1

    def _string(self) -> str:
        m = _STRING.match(self.text, self._i)
        if not m:
            raise _Stop
        self._i = m.end()
        return json.loads(m.group())

    def _value(self, path: KeyPath) -> None:
        self._space()
        self.positions[path] = self._i
        self.last = path
        char = self.text[self._i]
        if char == "{":
            self._i += 1
            self._space()
            if self.text[self._i] == "}":
                self._i += 1
                return
            while True:
                self._space()
                key = self._string()
                self.last = (*path, key)
                self._expect(":")
                self._value((*path, key))
                self._space()
                self._i += 1
                if self.text[self._i - 1] == "}":
                    return
                if self.text[self._i - 1] != ",":
                    raise _Stop
        elif char == "[":
            self._i += 1
            self._space()
            if self.text[self._i] == "]":
                self._i += 1
                return
            index = 0
            while True:
                self._value((*path, index))
                self._space()
                self._i += 1
                if self.text[self._i - 1] == "]":
                    return
                if self.text[self._i - 1] != ",":
                    raise _Stop
                index += 1
        elif char == '"':
            self._string()
        else:
            m = _SCALAR.match(self.text, self._i)
            if not m:
                raise _Stop
            self._i = m.end()


def where(text: str | None, path: KeyPath, locator: KeyLocator | None = None) -> str:
    """``"line 7 column 15, key info.lives.address"`` for a key path in ``text`` (line left out if unknown)."""
    parts = []
    if text is not None:
        found = (locator or KeyLocator(text)).line_col(path)
        if found:
            parts.append(f"line {found[0]} column {found[1]}")
    if path:
        parts.append(f"key {format_key(path)}")
    return ", ".join(parts)


def semantic_error(file: Path, text: str | None, path: KeyPath, problem: str) -> IntegrationError:
    """An IntegrationError for a decoded value stable-retro rejects, naming its line and key."""
    place = where(text, path)
    return IntegrationError(file, f"{place}: {problem}" if place else problem, format_key(path))


class _OutOfRange(ValueError):
    def __init__(self, literal: str):
        super().__init__(literal)
        self.literal = literal


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _OutOfRange(literal)
    return value


def _int(literal: str) -> int:
    if len(literal) > MAX_INTEGER_DIGITS + 1:  # also keeps int() below Python's digit limit
        raise _OutOfRange(literal)
    value = int(literal)
    if abs(value) > sys.float_info.max:
        raise _OutOfRange(literal)
    return value


def _constant(literal: str) -> Any:
    raise _OutOfRange(literal)


def _number_error(file: Path, text: str, literal: str) -> IntegrationError:
    """stable-retro's JSON reader refuses NaN, Infinity and numbers beyond a double's range too."""
    shown = literal if len(literal) <= 24 else literal[:20] + "..."
    problem = f"the number {shown} is out of range (JSON numbers must be finite doubles)"
    at = text.find(literal)
    if at < 0:
        return IntegrationError(file, problem)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return IntegrationError(file, f"line {line} column {column}: {problem}")


def decode(text: str | bytes, file: Path) -> Any:
    """Decodes JSON; a syntax error becomes an IntegrationError naming the line, column and key.

    NaN, Infinity and numbers that overflow a double are errors, as in stable-retro's reader.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise IntegrationError(file, f"not UTF-8 text (byte {e.start})") from e
    try:
        return json.loads(text, parse_float=_float, parse_int=_int, parse_constant=_constant)
    except _OutOfRange as e:
        raise _number_error(file, text, e.literal) from None
    except json.JSONDecodeError as e:
        locator = KeyLocator(text)
        key = f", key {format_key(locator.last)}" if locator.last else ""
        raise IntegrationError(file, f"line {e.lineno} column {e.colno}{key}: {e.msg}", format_key(locator.last)) from e
    except RecursionError as e:
        raise IntegrationError(file, "nested too deeply") from e


def dump(value: Any) -> str:
    """stable-retro's writer layout: keys sorted at every level, 2-space indent, a final newline."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
