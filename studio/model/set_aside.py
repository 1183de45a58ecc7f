"""Files the studio cannot read when it opens them: the report, and setting the studio's own aside. No Qt.

An :class:`OpenProblem` names the file, the problem (and the key in it, when known) and what the
studio did instead. The studio's own files (settings, the recovery session, the workspace's
index, thumbnails and quick slots) are renamed to ``<name>.bad`` (``<name>.bad-<n>`` when that is
taken) by :func:`set_aside` and the defaults are used: nothing is deleted, and the next save does
not write over the bytes that could not be read. An integration's own files (data.json,
scenario.json, states, metadata.json) are the user's and stay where they are.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.errors import FileProblem
from emucore.fileio import read_json


@dataclass(frozen=True)
class OpenProblem:
    """A file that could not be read on open.

    Attributes:
        path: The file.
        problem: What is wrong with it.
        key: Where in the file (a dotted key path), or "".
        kept_as: Where the file was set aside, or None (left in place).
        consequence: What the studio does instead ("the default settings are used").
    """

    path: Path
    problem: str
    key: str = ""
    kept_as: Path | None = None
    consequence: str = ""

    def __str__(self) -> str:
        text = f"{self.path}: {self.problem}"
        if self.key and self.key not in self.problem:
            text += f" (key {self.key})"
        if self.kept_as is not None:
            text += f"; kept aside as {self.kept_as.name}"
        if self.consequence:
            text += f"; {self.consequence}"
        return text


def describe(exc: BaseException) -> str:
    """The problem an exception raised while reading a file stands for, without the file's name."""
    if isinstance(exc, FileProblem):
        return exc.problem
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start}: {exc.reason})"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
    if isinstance(exc, OSError):
        return f"cannot be read: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def problem_of(exc: BaseException, path: str | os.PathLike[str], consequence: str = "") -> OpenProblem:
    """The report of ``exc`` about ``path`` (emucore's errors name their own file and key)."""
    if isinstance(exc, FileProblem) and exc.path is not None:
        path = exc.path
    return OpenProblem(Path(path), describe(exc), getattr(exc, "key", "") or "", None, consequence)


def set_aside(path: str | os.PathLike[str]) -> Path | None:
    """Renames a studio-owned file to ``<name>.bad`` (``<name>.bad-<n>`` if that exists); never deletes it.

    Returns:
        Where it went, or None when it could not be moved (it is then left where it is).
    """
    path = Path(path)
    target, number = path.with_name(f"{path.name}.bad"), 1
    while target.exists() or target.is_symlink():
        target, number = path.with_name(f"{path.name}.bad-{number}"), number + 1
    try:
        path.rename(target)
    except OSError:
        return None
    return target


def set_aside_problem(path: str | os.PathLike[str], problem: str | BaseException, consequence: str,
                      key: str = "") -> OpenProblem:
    """Sets a studio-owned file aside and reports it (saying so when it could not be moved)."""
    text = describe(problem) if isinstance(problem, BaseException) else problem
    key = key or (getattr(problem, "key", "") or "" if isinstance(problem, BaseException) else "")
    kept = set_aside(path)
    if kept is None and Path(path).exists():
        consequence += f" (it could not be renamed to {Path(path).name}.bad)"
    return OpenProblem(Path(path), text, key, kept, consequence)


def read_owned_json(path: str | os.PathLike[str], report: Callable[[OpenProblem], None],
                    consequence: str) -> dict[str, Any] | None:
    """A studio-owned JSON file whose top level is an object: its content, None when there is
    none; one that cannot be read or is not an object is set aside and reported (None)."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        loaded = read_json(path)
        if not isinstance(loaded, dict):
            raise ValueError(f"the top level must be an object, not {type(loaded).__name__}")
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        report(set_aside_problem(path, exc, consequence))
        return None
    return loaded
