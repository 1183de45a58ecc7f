"""The integration's own files as the studio reads them on open: what can be read, and a report of
what cannot (:class:`~studio.model.set_aside.OpenProblem`). No Qt.

These files are the user's: one that cannot be read is left where it is, and the studio saves
nothing over it until it has been fixed and read again, or the user replaces it explicitly.
"""

from __future__ import annotations

from pathlib import Path

from emucore.integration import SCENARIO_FILE, IntegrationError, read_scenario_json
from emucore.integration.script_files import read_script as read_lua_file
from emucore.integration.script_files import script_path
from studio.model.set_aside import OpenProblem, problem_of

SCENARIO_UNREAD = "the scenario is empty and read-only until the file is fixed and reloaded; nothing is saved over it"


def read_scenario(path: Path) -> tuple[dict, OpenProblem | None]:
    """scenario.json decoded (``{}`` when there is none), or ``{}`` and why it cannot be read."""
    if not path.exists():
        return {}, None
    try:
        return read_scenario_json(path), None
    except IntegrationError as exc:
        return {}, problem_of(exc, path, SCENARIO_UNREAD)


def script_file(folder: Path, name: str) -> Path:
    """The Lua file ``name`` of the integration in ``folder``.

    Raises:
        IntegrationError: ``name`` leads outside the folder (scenario.json may name any path): the
            studio neither reads nor writes it.
    """
    return script_path(folder, name, folder / SCENARIO_FILE)


def read_script(folder: Path, name: str) -> tuple[str | None, OpenProblem | None]:
    """A Lua file's text (None when there is no such file), or None and why it cannot be read."""
    try:
        path = script_file(folder, name)
        if not path.is_file():
            return None, None
        return read_lua_file(path), None
    except (OSError, IntegrationError) as exc:
        return None, problem_of(exc, folder / name, "the script is left out of the evaluation")
