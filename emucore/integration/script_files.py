"""The Lua files a scenario's ``scripts`` lists, confined to the scenario's folder.

A scenario is shared and downloaded, so its ``scripts`` entries are untrusted: an absolute path,
a ``..`` that climbs out, or a symlink that points elsewhere would run (or leak, through the load
error) a file from outside the integration. Each entry is resolved with symlinks followed and
must stay inside the folder that holds the scenario file.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from emucore.fileio import atomic_write_text
from emucore.integration.common import IntegrationError, read_file

MAX_SCRIPT_BYTES = 4 << 20
"""The largest Lua file a scenario may load (stable-retro's scripts are a few KiB)."""


def script_path(folder: str | os.PathLike[str], name: str, scenario_file: str | os.PathLike[str]) -> Path:
    """Where a ``scripts`` entry points, refusing anything outside ``folder``.

    Args:
        folder: The folder that holds the scenario file (entries are relative to it).
        name: The entry as written in the scenario.
        scenario_file: The scenario, for error messages.

    Raises:
        IntegrationError: The entry is absolute, or resolves (symlinks followed) outside ``folder``.
    """
    root = Path(folder).resolve()
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute() or PureWindowsPath(name).drive:
        raise _outside(scenario_file, name, "an absolute path")
    if "\x00" in name:
        raise _outside(scenario_file, name, "a name with a NUL character")
    try:
        resolved = (root / name).resolve()
    except (OSError, RuntimeError, ValueError) as e:  # a symlink loop, a name the file system cannot encode
        raise _outside(scenario_file, name, f"a path that cannot be resolved ({e})") from e
    if resolved != root and root not in resolved.parents:
        raise _outside(scenario_file, name, f"a path outside the integration folder {root}")
    return resolved


def _outside(scenario_file: str | os.PathLike[str], name: str, what: str) -> IntegrationError:
    shown = repr(name) if len(name) <= 80 else repr(name[:80]) + "..."
    return IntegrationError(
        scenario_file,
        f"key scripts: the script {shown} is {what}; scripts must be files inside the scenario's folder",
        "scripts",
    )


def read_script(path: Path) -> str:
    """A Lua file's text: UTF-8, at most ``MAX_SCRIPT_BYTES``; an IntegrationError naming it otherwise."""
    data = read_file(path, MAX_SCRIPT_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise IntegrationError(path, f"the script is not UTF-8 text (byte {e.start})") from e


def write_script(path: Path, source: str) -> None:
    """Writes a Lua file atomically (``path`` from :func:`script_path`, so inside the folder)."""
    atomic_write_text(Path(path), source)


def read_scripts(
    names: list[str], scenario_file: str | os.PathLike[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """The scripts a scenario lists, as ``(name, source)`` in order, and the names with no file.

    Entries are relative to the scenario file's folder; a missing file is skipped, as
    stable-retro does, and returned so that the caller can say so.

    Raises:
        IntegrationError: An entry outside the folder, or a file that cannot be read as UTF-8.
    """
    folder = Path(scenario_file).parent
    loaded: list[tuple[str, str]] = []
    missing: list[str] = []
    for name in names:
        path = script_path(folder, name, scenario_file)
        try:
            present = path.is_file()
        except OSError as e:  # a name too long for the file system
            raise _outside(scenario_file, name, f"a name the file system refuses ({e.strerror})") from e
        if present:
            loaded.append((name, read_script(path)))
        else:
            missing.append(name)
    return loaded, missing
