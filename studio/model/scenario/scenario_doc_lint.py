"""What the studio says is wrong with the open scenario: lint, Lua syntax errors and its own checks. No Qt.

emucore's :func:`~emucore.integration.lint` checks the whole integration folder; the scenario dock
shows only what concerns scenario.json and the scripts it lists. To those it adds the syntax
errors of the listed scripts that lint did not report, and a check lint cannot make because it
needs the system: that an agent can press START at all.
"""

from __future__ import annotations

from pathlib import Path

from emucore.integration import SCENARIO_FILE, LintFinding, lint
from emucore.lua import LuaError
from emucore.systems import System


def scenario_findings(folder: Path, scripts: list[str], lua_errors: dict[str, LuaError], system: System,
                      actions: list | None) -> list[LintFinding]:
    """Lint findings about scenario.json and ``scripts``, plus the studio's own.

    Args:
        folder: The integration folder.
        scripts: The Lua files the scenario lists.
        lua_errors: Syntax errors of those files by file name (one lint did not report is added).
        system: The game's system (its buttons and default actions).
        actions: The scenario's action groups, or None for the system's.
    """
    files = {SCENARIO_FILE, *scripts}
    findings = [f for f in lint(folder) if f.file in files]
    findings.extend(start_findings(system, actions))
    for name, error in lua_errors.items():
        if any(f.file == name and f.level == "error" for f in findings):
            continue  # lint reported this syntax error already
        findings.append(LintFinding("error", name, f"line {error.line}" if error.line else "", error.message))
    return findings


def start_findings(system: System, actions: list | None) -> list[LintFinding]:
    """A warning when no action group contains START, so an agent restricted to them can never press it."""
    if "START" not in system.buttons:
        return []
    groups = actions or system.actions
    if any("START" in combo for group in groups for combo in group):
        return []
    source = "the scenario's" if actions else "the system's default"
    return [LintFinding(
        "warning", SCENARIO_FILE, "actions",
        f"START can never be pressed by a FILTERED/DISCRETE agent: no group of {source} actions contains it; "
        'add ["START"] to a group if the game needs START to begin or continue',
    )]
