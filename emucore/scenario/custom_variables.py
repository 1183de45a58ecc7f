"""Custom variables: values a scenario's scripts (or ``set_value``) keep under names data.json does
not define, for one episode. They join the info dict, in stable-retro's order."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from emucore.scenario.info_order import StringTable
from emucore.scenario.model import ScenarioError

MAX_CUSTOM_VARIABLES = 4096
"""Custom variables one episode may create (stable-retro's integrations use a handful)."""
MAX_CUSTOM_NAME = 256
"""Characters in a custom variable's name: with the count, custom variables stay under ~1 MiB."""

Value = float | bool | None


def as_int(value: Any) -> int:
    """A custom variable as stable-retro's info dict gives it: floats truncated, bools 1/0."""
    if value is None:
        return 0
    if isinstance(value, float):
        from emucore.lua import to_int64  # NaN and infinities as the C++ cast gives them

        return to_int64(value)
    return int(value)


class CustomVariables(Mapping[str, Value]):
    """The episode's custom variables by name; ``names()`` in stable-retro's table order."""

    def __init__(self) -> None:
        self._values: dict[str, Value] = {}
        self._table = StringTable()  # stable-retro's map of them: its order survives clear()

    def __getitem__(self, name: str) -> Value:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __setitem__(self, name: str, value: int | float | bool | None) -> None:
        if name not in self._values:
            self._check_new(name)
            self._table.insert(name)
        self._values[name] = value if isinstance(value, bool) or value is None else float(value)

    def clear(self) -> None:
        self._values.clear()
        self._table.clear()

    def names(self) -> list[str]:
        """The names in the order stable-retro's map of them iterates."""
        return list(self._table)

    def _check_new(self, name: str) -> None:
        if len(self._values) >= MAX_CUSTOM_VARIABLES:
            raise ScenarioError(
                f"custom variable {name[:40]!r}: an episode may set at most {MAX_CUSTOM_VARIABLES} custom variables"
            )
        if len(name) > MAX_CUSTOM_NAME:
            raise ScenarioError(
                f"custom variable {name[:40]!r}...: its name has {len(name)} characters, more than {MAX_CUSTOM_NAME}"
            )
