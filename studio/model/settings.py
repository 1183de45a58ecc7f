"""The studio's settings: typed, versioned, stored as JSON in the user's config folder.

``RETRO_STUDIO_CONFIG`` names another folder (the tests use a temporary one). A settings file
that cannot be read is kept aside as ``settings.json.bad`` and the defaults are used.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from emucore.fileio import atomic_write_text

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

    def add_recent(self, path: str) -> None:
        self.recent = [path] + [p for p in self.recent if p != path]
        del self.recent[MAX_RECENT:]

    @classmethod
    def load(cls, folder: Path | None = None) -> Settings:
        path = (folder or config_dir()) / "settings.json"
        if not path.exists():
            return cls()
        try:
            raw = json.loads(path.read_text("utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not an object")
            known = {f.name for f in fields(cls)}
            settings = cls(**{k: v for k, v in raw.items() if k in known})
            settings.version = VERSION
            return settings
        except (OSError, ValueError, TypeError):
            path.replace(path.with_name("settings.json.bad"))
            return cls()

    def save(self, folder: Path | None = None) -> None:
        path = (folder or config_dir()) / "settings.json"
        atomic_write_text(path, json.dumps(asdict(self), indent=2, sort_keys=True) + "\n")
