"""The one way from an integration's files to its evaluator (:class:`~emucore.scenario.evaluator.Evaluator`).

The env, the studio's live scenario preview, its episode recorder and its regression replays all
build their evaluator here, so they agree on what a folder means: data.json's variables (entries
stable-retro skips are refused when the scenario uses them), the scenario, its Lua scripts
(relative to the scenario file), the action groups (the scenario's, else the system's) and the
checks at load of what stable-retro only finds at the first evaluation.

An editor passes its unsaved copies (``variables``, ``scenario``, ``scripts``) instead of files.
Warnings are returned rather than issued, so that each caller reports them its own way (the env
as Python warnings at the user's ``make()``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from emucore.errors import ScriptWarning
from emucore.host.memory import AddressSpace
from emucore.integration import (
    DATA_FILE,
    SCENARIO_FILE,
    IntegrationError,
    read_data_json,
    read_scenario_json,
    read_scripts,
)
from emucore.integration.datafile import VariableLike
from emucore.scenario.actions import ActionGroups
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.load_checks import check_mapped, check_references, check_script_functions
from emucore.scenario.model import Scenario, ScenarioError
from emucore.systems import System


@dataclass(frozen=True)
class GameDataSources:
    """Where an evaluator's parts come from: files, or an editor's copies in memory.

    Attributes:
        data_path: data.json (None: no variables, unless ``variables`` is given).
        scenario_path: The scenario file; its folder is where scripts are found. None: no scenario
            file (then ``scenario``, if given, is a scenario not yet saved anywhere).
        variables: The variables to use instead of reading ``data_path``.
        scenario: The decoded scenario to use instead of reading ``scenario_path``.
        scripts: Script sources by file name to use instead of reading them beside ``scenario_path``.
    """

    data_path: Path | None = None
    scenario_path: Path | None = None
    variables: Mapping[str, VariableLike] | None = None
    scenario: dict | None = None
    scripts: Mapping[str, str] | None = None

    @classmethod
    def of_folder(cls, folder: str | os.PathLike[str], **copies) -> GameDataSources:
        """The folder's data.json and scenario.json (each only if present), with ``copies`` in their place.

        A scenario copy is taken as the folder's scenario.json, present or not: its scripts are the folder's.
        """
        folder = Path(folder)
        data, scenario = folder / DATA_FILE, folder / SCENARIO_FILE
        has_scenario = scenario.is_file() or copies.get("scenario") is not None
        return cls(data if data.is_file() else None, scenario if has_scenario else None, **copies)


@dataclass
class LoadedGameData:
    """An evaluator and what its caller should warn about (message, warning class)."""

    data: Evaluator
    warnings: list[tuple[str, type[Warning]]] = field(default_factory=list)


def read_sources(sources: GameDataSources) -> tuple[Mapping[str, VariableLike], list[str], dict | None, Scenario]:
    """The files (or copies) read and parsed, nothing checked against memory or a system:
    (variables, names data.json skips, the decoded scenario or None, the parsed scenario).

    Raises:
        IntegrationError: A file cannot be read or is malformed (the message names it).
    """
    variables: Mapping[str, VariableLike]
    skipped: list[str] = []
    if sources.variables is not None:
        variables = sources.variables
    elif sources.data_path is not None:
        variables, skipped = read_data_json(sources.data_path)
    else:
        variables = {}
    raw = sources.scenario
    if raw is None and sources.scenario_path is not None:
        raw = read_scenario_json(sources.scenario_path)
    try:
        scenario = Scenario.parse(raw)
    except ScenarioError as e:
        raise IntegrationError(sources.scenario_path or SCENARIO_FILE, str(e)) from e
    return variables, skipped, raw, scenario


def load_game_data(
    sources: GameDataSources, system: System, memory: Callable[[], AddressSpace]
) -> LoadedGameData:
    """The evaluator of an integration over an emulator's memory.

    Args:
        sources: The files (or copies) to build it from.
        system: The game's system (its buttons and default action groups).
        memory: Gives the emulator's address space (called each time it is read; the core must be
            loaded, as memory is checked here).

    Raises:
        IntegrationError: A file cannot be read or is malformed, the scenario uses a variable that
            data.json skips, lacks, or maps nowhere, or names a Lua function with no script loaded.
            The message names the file and the key.
    """
    notes: list[tuple[str, type[Warning]]] = []
    data_path, scenario_path = sources.data_path, sources.scenario_path
    variables, skipped, raw, scenario = read_sources(sources)
    if data_path is not None and set(skipped) & scenario.variable_names():
        read_data_json(data_path, strict=True)  # raises, naming the line and key
    notes += [(f"{data_path}: variable {name!r} is skipped: its type string is not valid", UserWarning)
              for name in skipped]
    scripts, missing = _scripts(scenario, sources)
    where = scenario_path or Path(SCENARIO_FILE)
    notes += [(f"{where}: script {name!r} not found; it is not loaded", ScriptWarning) for name in missing]
    if raw is not None:
        check_references(raw, where, variables, bool(scripts))
        check_script_functions(raw, where, bool(scripts))
    notes += [(text, UserWarning) for text in check_mapped(variables, scenario, data_path, memory())]
    groups = ActionGroups(scenario.actions or system.actions, system.buttons)
    data = Evaluator(variables, scenario, memory, groups, scripts)
    data.search_types = system.types
    data.scenario_json = raw
    if data.lua is not None:
        notes += [(f"{where}: a script failed to load: {error}", ScriptWarning) for error in data.lua.load_errors]
    return LoadedGameData(data, notes)


def _scripts(scenario: Scenario, sources: GameDataSources) -> tuple[list[tuple[str, str]], list[str]]:
    if sources.scripts is not None:
        given = sources.scripts
        return [(n, given[n]) for n in scenario.scripts if n in given], [n for n in scenario.scripts if n not in given]
    if sources.scenario_path is None:
        return [], list(scenario.scripts)
    return read_scripts(scenario.scripts, sources.scenario_path)


__all__ = ["GameDataSources", "LoadedGameData", "load_game_data"]
