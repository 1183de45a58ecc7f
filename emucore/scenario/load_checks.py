"""Checks at load (``make()``) of what stable-retro only finds at the first evaluation (or never).

stable-retro raises a bare ``ValueError(<name>)`` at ``reset()`` for a scenario term whose
variable data.json does not define, and ``IndexError("No known mapping")`` for one whose address
no memory block holds. Both are decided by the files and the core alone, so they are errors at
load here, naming the file, the key and the variable.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from emucore.errors import EmucoreError
from emucore.host.memory import AddressSpace
from emucore.integration import IntegrationError, variable_references
from emucore.integration import scenario_walk as walk
from emucore.scenario.model import Scenario


class UnmappedVariableError(IntegrationError, IndexError):
    """A data.json variable the scenario uses whose address is in no memory block of the core."""


def check_references(raw_scenario: dict, path: Path, variables: Mapping, has_scripts: bool) -> None:
    """Every variable a reward term or done test names must be in data.json.

    With scripts loaded a name may be a custom variable a script sets, so it is left to the
    evaluation, which names it if it is still unknown.

    Raises:
        IntegrationError: naming the scenario file, the key and the variable.
    """
    if has_scripts:
        return
    for key, name in variable_references(raw_scenario):
        if name not in variables:
            raise IntegrationError(
                path, f"key {key}: variable {name!r} is not defined in data.json (and no script sets it)", key
            )


def check_script_functions(raw_scenario: dict, path: Path, has_scripts: bool) -> None:
    """A reward or done that names a Lua function needs a script (stable-retro crashes without one).

    Raises:
        IntegrationError: naming the scenario file and the key of the first such function.
    """
    if has_scripts:
        return
    places = [(at, spec) for at, spec in walk.reward_specs(raw_scenario) if walk.player(at) is not None]
    places += [(at, node) for at, node, top in walk.done_nodes(raw_scenario) if top]
    places.sort(key=lambda place: place[0][0] == walk.REWARDS)  # reward, done, then rewards[i]
    for at, spec in places:
        if isinstance(spec, dict) and isinstance(spec.get(walk.SCRIPT), str) and spec[walk.SCRIPT]:
            key = walk.key((*at, walk.SCRIPT))
            raise IntegrationError(
                path, f"key {key}: names the Lua function {spec[walk.SCRIPT]!r}, but no script is loaded", key
            )


def check_mapped(variables: Mapping, scenario: Scenario, path: Path | None, memory: AddressSpace) -> list[str]:
    """A variable the scenario uses must be mapped; others that are not are left out of ``info``.

    Returns:
        A warning for each variable left out.

    Raises:
        UnmappedVariableError: naming data.json, the key and the address.
    """
    used = scenario.variable_names()
    left_out = []
    for name, variable in variables.items():
        if memory.is_mapped(variable.address):
            continue
        key = f"info.{name}.address"
        problem = f"the address {variable.address:#x} of {name!r} is in no memory block of the core"
        if name in used:
            raise UnmappedVariableError(path, f"key {key}: {problem}, and the scenario uses it", key)
        left_out.append(f"{path}: {problem}; it is left out of info")
    return left_out


def check_script_functions_defined(scenario: Scenario, lua: Any, path: Path) -> None:
    """A reward or done naming a Lua function that a script which failed to load would have defined:
    the env could not compute it at any step, so it is an error at ``make()`` (after the ScriptWarning),
    not at the first evaluation.

    Raises:
        IntegrationError: naming the scenario file, the function and the script's load error.
    """
    if lua is None or not lua.load_errors:
        return
    try:
        defined = lua.functions()
    except EmucoreError:  # a scope left at its memory cap runs nothing: none of its functions is usable
        defined = {}
    references = [spec.script for spec in scenario.rewards if spec.script]
    references += [scenario.done_script] if scenario.done_script else []
    for reference in references:
        scope, colon, function = reference.partition(":")
        names = defined.get(scope, []) if colon else [name for found in defined.values() for name in found]
        if (function if colon else reference) not in names:
            raise IntegrationError(path, f"the Lua function {reference!r} the scenario uses is not defined, as a "
                                         f"script failed to load: {lua.load_errors[0]}")
