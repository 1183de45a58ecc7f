"""A trial run of an integration for ``emucore verify``: what only the core and Lua can tell.

Lint reads the files; some faults show only when the game runs: a script whose top level fails
(stable-retro only logs it, and the env then steps with reward 0), a variable the scenario uses
at an address the core does not map, a reward or done function that fails at the first
evaluation. The trial makes the env from the folder (its ROM and default state), resets it and
takes one step, and reports each of those as an error finding.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from emucore.errors import EmucoreError, ScriptWarning
from emucore.integration import SCENARIO_FILE, LintFinding
from emucore.integration.listing import list_folder
from emucore.lua import LuaError


def trial_findings(folder: str | Path) -> list[LintFinding]:
    """Errors found by running the integration in ``folder`` for one step; [] when it has no ROM."""
    folder = Path(folder).resolve()
    try:
        if not list_folder(folder).roms:
            return []
    except EmucoreError:
        return []  # lint reports an unreadable folder
    from emucore.env.make import make

    found: list[LintFinding] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ScriptWarning)
        try:
            env = make(str(folder))
        except EmucoreError as e:
            return [_finding(folder, e, "the game cannot be made into an env")]
        try:
            env.reset()
            env.step(env.action_space.sample())
        except EmucoreError as e:
            found.append(_finding(folder, e, "the first step fails"))
        finally:
            env.close()
    for warning in caught:
        if issubclass(warning.category, ScriptWarning):
            message = f"{warning.message} (stable-retro ignores it)"
            found.insert(0, LintFinding("error", SCENARIO_FILE, "scripts", message))
    return found


def _finding(folder: Path, error: EmucoreError, what: str) -> LintFinding:
    path = getattr(error, "path", None)
    key = getattr(error, "key", "")
    if isinstance(error, LuaError):
        return LintFinding("error", error.file or SCENARIO_FILE, "", f"{what}: {error}")
    file = str(Path(path).relative_to(folder)) if path is not None and Path(path).is_relative_to(folder) else ""
    return LintFinding("error", file, key or "", f"{what}: {getattr(error, 'problem', None) or error}")
