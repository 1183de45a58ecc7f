"""The studio's settings: typed, versioned, stored as JSON in the user's config folder.

``RETRO_STUDIO_CONFIG`` names another folder (the tests use a temporary one). A settings file
that cannot be read is kept aside as ``settings.json.bad`` (``.bad-<n>``) and the defaults are used;
one with values of the wrong type keeps the others, and is set aside too. Either way the load
reports it (:class:`~studio.model.set_aside.OpenProblem`), for the window to show.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from emucore.fileio import atomic_write_text, read_json
from studio.model.set_aside import OpenProblem, set_aside_problem

VERSION = 1
MAX_RECENT = 10


def config_dir() -> Path:
    override = os.environ.get("RETRO_STUDIO_CONFIG")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "retro-studio"


@dataclass
class Settings:
    version: int = VERSION
    recent: list[str] = field(default_factory=list)
    # system -> player ("1", "2") -> button name -> key name; only what the user changed
    bindings: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    volume: float = 0.8
    muted: bool = False
    integer_scaling: bool = True
    rewind_seconds: int = 20
    window_geometry: str = ""  # Qt's saveGeometry(), base64
    window_state: str = ""  # Qt's saveState() (dock layout), base64
    search_types: dict[str, str] = field(default_factory=dict)  # system -> the search dock's type list title
    agent_run: dict[str, str | int | bool] = field(default_factory=dict)  # the Run agent dialog's last choices

    def add_recent(self, path: str) -> None:
        self.recent = [path] + [p for p in self.recent if p != path]
        del self.recent[MAX_RECENT:]

    @classmethod
    def load(cls, folder: Path | None = None, problems: list[OpenProblem] | None = None) -> Settings:
        """The saved settings; a file that cannot be used is set aside and reported in ``problems``."""
        path = (folder or config_dir()) / "settings.json"
        if not path.exists() and not path.is_symlink():
            return cls()
        try:
            raw = read_json(path)
            if not isinstance(raw, dict):
                raise ValueError(f"the top level must be an object, not {type(raw).__name__}")
        except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            problem = set_aside_problem(path, exc, "the default settings are used")
            if problems is not None:
                problems.append(problem)
            return cls()
        known = {f.name: f for f in fields(cls) if f.name != "version"}
        bad = [name for name, value in raw.items() if name in known and not _valid(name, value)]
        settings = cls(**{k: v for k, v in raw.items() if k in known and k not in bad})
        if bad:
            shown = ", ".join(f"{name} ({str(raw[name])[:30]!r})" for name in bad)
            problem = set_aside_problem(path, f"wrong type or value for {shown}",
                                        f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} back to the default",
                                        key=bad[0])
            if problems is not None:
                problems.append(problem)
        return settings

    def save(self, folder: Path | None = None) -> None:
        path = (folder or config_dir()) / "settings.json"
        atomic_write_text(path, json.dumps(asdict(self), indent=2, sort_keys=True) + "\n")


def _strings(value: object) -> bool:
    return isinstance(value, str)


def _mapping(value: object, check) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and check(v) for k, v in value.items())


_CHECKS = {
    "recent": lambda v: isinstance(v, list) and all(map(_strings, v)),
    "bindings": lambda v: _mapping(v, lambda p: _mapping(p, lambda b: _mapping(b, _strings))),
    "volume": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1,
    "muted": lambda v: isinstance(v, bool),
    "integer_scaling": lambda v: isinstance(v, bool),
    "rewind_seconds": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3600,
    "window_geometry": _strings,
    "window_state": _strings,
    "search_types": lambda v: _mapping(v, _strings),
    "agent_run": lambda v: _mapping(v, lambda x: isinstance(x, str | int | bool)),
}


def _valid(name: str, value: object) -> bool:
    """True when ``value`` is usable as the setting ``name`` (what the file holds is untrusted)."""
    check = _CHECKS.get(name)
    return check is None or check(value)
