"""Where emucore finds its data: the repository's ``cores/`` and ``integrations/`` folders, and the studio's."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def descriptors_dir() -> Path:
    """The folder of core descriptors (``EMUCORE_CORES_DIR`` overrides it)."""
    return Path(os.environ.get("EMUCORE_CORES_DIR") or PROJECT_ROOT / "cores")


def integrations_dir() -> Path:
    """The project's own integrations."""
    return PROJECT_ROOT / "integrations"


def _xdg_data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def user_data_dir() -> Path:
    """Per-user data (system/BIOS files), following the XDG convention."""
    return _xdg_data_home() / "emucore"


def core_system_dir() -> Path:
    """The folder cores find their BIOS files in (GET_SYSTEM_DIRECTORY): ``EMUCORE_SYSTEM_DIR``, else ours."""
    return Path(os.environ.get("EMUCORE_SYSTEM_DIR") or user_data_dir() / "system")


def user_cache_dir() -> Path:
    """Per-user cache (the verdicts of ROM probes): ``$XDG_CACHE_HOME/emucore``, else ``~/.cache/emucore``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "emucore"


def studio_data_dir() -> Path:
    """The studio's per-user data folder: ``RETRO_STUDIO_DATA``, else ``$XDG_DATA_HOME/retro-studio``."""
    override = os.environ.get("RETRO_STUDIO_DATA")
    if override:
        return Path(override).expanduser()
    return _xdg_data_home() / "retro-studio"


def studio_integrations_dir() -> Path:
    """The integrations the studio creates; a standard lookup place (STABLE set) of ``emucore.data``."""
    return studio_data_dir() / "integrations"
