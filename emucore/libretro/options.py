"""Core options: what a core declares, and the answer the host gives to GET_VARIABLE.

A core declares its options through SET_VARIABLES (legacy), SET_CORE_OPTIONS[_INTL] (v1) or
SET_CORE_OPTIONS_V2[_INTL] (v2). The answer to a key is, in order of precedence: the user's
override, the per-core compatibility table (the answers stable-retro's cores effectively run
with; None there leaves the key unanswered, so the core keeps its built-in fallback), then the
core's declared default. A key with none of these is not answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from emucore.libretro._native import ffi

MAX_OPTION_VALUES = 128


@dataclass
class CoreOption:
    """One option as the core declared it."""

    key: str
    description: str
    values: list[str]
    default: str | None
    info: str = ""


def _text(ptr: Any) -> str | None:
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


@dataclass
class OptionStore:
    """Declared options plus the answers this host gives for them."""

    compat_answers: Mapping[str, str | None] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    declared: dict[str, CoreOption] = field(default_factory=dict)
    _buffers: dict[str, Any] = field(default_factory=dict, repr=False)

    def answer(self, key: str) -> str | None:
        """The value this host gives for ``key``, or None when it gives none."""
        if key in self.overrides:
            return self.overrides[key]
        if key in self.compat_answers:
            return self.compat_answers[key]
        option = self.declared.get(key)
        return option.default if option else None

    def answer_buffer(self, key: str) -> Any:
        """A C string holding the answer, kept alive until the key is answered again."""
        value = self.answer(key)
        if value is None:
            return ffi.NULL
        buffer = ffi.new("char[]", value.encode())
        self._buffers[key] = buffer
        return buffer

    def set_override(self, key: str, value: str) -> None:
        option = self.declared.get(key)
        if option and option.values and value not in option.values:
            raise ValueError(f"option {key!r} takes one of {option.values}, not {value!r}")
        self.overrides[key] = value

    # ---- parsing what the core declares ----

    def declare_variables(self, data: Any) -> None:
        """SET_VARIABLES: {key, "Description; first|second|..."} until key is NULL."""
        variables = ffi.cast("struct retro_variable *", data)
        i = 0
        while variables[i].key != ffi.NULL:
            key = _text(variables[i].key) or ""
            spec = _text(variables[i].value) or ""
            description, _, choices = spec.partition("; ")
            values = choices.split("|") if choices else []
            self.declared[key] = CoreOption(key, description, values, values[0] if values else None)
            i += 1

    def _declare_definition(self, definition: Any) -> None:
        key = _text(definition.key) or ""
        values: list[str] = []
        for j in range(MAX_OPTION_VALUES):
            value = definition.values[j].value
            if value == ffi.NULL:
                break
            values.append(_text(value) or "")
        default = _text(definition.default_value)
        if default is None and values:
            default = values[0]
        self.declared[key] = CoreOption(
            key, _text(definition.desc) or "", values, default, _text(definition.info) or ""
        )

    def declare_v1(self, definitions: Any) -> None:
        """SET_CORE_OPTIONS: an array of v1 definitions ending at key NULL."""
        if definitions == ffi.NULL:
            return
        i = 0
        while definitions[i].key != ffi.NULL:
            self._declare_definition(definitions[i])
            i += 1

    def declare_v1_intl(self, data: Any) -> None:
        self.declare_v1(ffi.cast("struct retro_core_options_intl *", data).us)

    def declare_v2(self, options: Any) -> None:
        """SET_CORE_OPTIONS_V2: {categories, definitions}; only the definitions matter here."""
        if options == ffi.NULL:
            return
        definitions = options.definitions
        if definitions == ffi.NULL:
            return
        i = 0
        while definitions[i].key != ffi.NULL:
            self._declare_definition(definitions[i])
            i += 1

    def declare_v2_intl(self, data: Any) -> None:
        self.declare_v2(ffi.cast("struct retro_core_options_v2_intl *", data).us)
