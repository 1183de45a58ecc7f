"""Where emucore finds its data: the package's own (core descriptors, the demo integrations), the user's and
the studio's folders.

The package's data lives in ``emucore/resources`` and is found with :mod:`importlib.resources`, so a wheel, an
sdist and a checkout find the same files. Integrations and descriptors are folders that cores and users open by
path, so the package must be installed as files (as pip installs every wheel), not imported from a zip.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path


def package_resources() -> Path:
    """The ``resources`` folder inside the installed package."""
    folder = files("emucore") / "resources"
    if not isinstance(folder, Path):
        raise RuntimeError(f"emucore's data is not on the file system ({folder}): install emucore unzipped")
    return folder


def descriptors_dir() -> Path:
    """The folder of system and core descriptors (``EMUCORE_CORES_DIR`` overrides it)."""
    return Path(os.environ.get("EMUCORE_CORES_DIR") or package_resources() / "cores")


def integrations_dir() -> Path:
    """The project's own integrations (the demo games)."""
    return package_resources() / "integrations"


def schemas_dir() -> Path:
    """The JSON Schemas of data.json, scenario.json and metadata.json (``data.schema.json``, ...), for editors and
    validators; the documentation site publishes the same files."""
    return package_resources() / "schemas"


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


def user_config_dir() -> Path:
    """Per-user configuration (the ROM probe's key): ``$XDG_CONFIG_HOME/emucore``, else ``~/.config/emucore``."""
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "emucore"


def studio_data_dir() -> Path:
    """The studio's per-user data folder: ``RETRO_STUDIO_DATA``, else ``$XDG_DATA_HOME/retro-studio``."""
    override = os.environ.get("RETRO_STUDIO_DATA")
    if override:
        return Path(override).expanduser()
    return _xdg_data_home() / "retro-studio"


def studio_integrations_dir() -> Path:
    """The integrations the studio creates; a standard lookup place (STABLE set) of ``emucore.data``."""
    return studio_data_dir() / "integrations"
