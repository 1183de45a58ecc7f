"""``env.data.load(data, scen)`` (stable-retro's ``GameData.load``, :meth:`GameData.load
<emucore.retro.gamedata.GameData.load>`) on a live evaluator: its files' variables and scenario
put in place over the same memory and action groups, with the checks the loader makes at ``make()``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from emucore.errors import ScriptWarning
from emucore.integration import SCENARIO_FILE, IntegrationError, read_scripts
from emucore.integration.datafile import VariableLike
from emucore.scenario.load_checks import check_references, check_script_functions
from emucore.scenario.model import Scenario, ScenarioError

if TYPE_CHECKING:
    from emucore.scenario.evaluator import Evaluator


def reload_evaluator(
    data: Evaluator, variables: Mapping[str, VariableLike], raw: dict | None, source: Path | None
) -> None:
    """Rebuilds ``data`` on ``variables`` and, when ``source`` is given, the scenario ``raw`` decoded from it
    with the Lua scripts it lists (else the scenario and scripts in force), as a new evaluator would be: the
    episode's rewards, totals and custom variables start again. Its memory, action groups, search types
    and searches stay.

    Raises:
        IntegrationError: naming the scenario file: the scenario is malformed, names a variable that
            ``variables`` lacks, or names a Lua function with no script loaded. ``data`` is unchanged then.
    """
    scenario, scripts = data.scenario, list(data.lua.scripts) if data.lua is not None else []
    where = source or Path(SCENARIO_FILE)
    if source is not None:
        try:
            scenario = Scenario.parse(raw)
        except ScenarioError as e:
            raise IntegrationError(source, str(e)) from e
        scripts, missing = read_scripts(scenario.scripts, source)
        for name in missing:
            warnings.warn(f"{source}: script {name!r} not found; it is not loaded", ScriptWarning, stacklevel=4)
    else:
        raw = data.scenario_json
    if raw is not None:
        check_references(raw, where, variables, bool(scripts))
        check_script_functions(raw, where, bool(scripts))
    compile_, search_types = data.compile, data.search_types
    type(data).__init__(data, variables, scenario, data._memory, data.actions, scripts)
    data.compile = compile_
    data.search_types, data.scenario_json = search_types, raw
    if data.lua is not None:
        for error in data.lua.load_errors:
            warnings.warn(f"{where}: a script failed to load: {error}", ScriptWarning, stacklevel=4)
