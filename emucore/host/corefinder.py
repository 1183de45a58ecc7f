"""Finding libretro core libraries on this machine.

Core binaries come from the user's own folders or from packages, never from a download:
``EMUCORE_CORE_PATH`` (os.pathsep-separated folders), the ``cores`` folder of an installed
stable-retro wheel (found without importing its compiled module), the user's RetroArch cores
folder, and Debian's libretro folder (``libretro-*`` packages).

For each system the descriptor lists candidate cores, the one stable-retro uses first. For a
given core, a build in ``EMUCORE_CORE_PATH`` wins, then stable-retro's own build (so states
and integrations made with either tool agree: Debian's gambatte, for one, cannot read
stable-retro's states), then RetroArch's, then Debian's.
"""

from __future__ import annotations

import glob
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from emucore.errors import CoreNotFoundError
from emucore.systems import System, get_system, library


@dataclass(frozen=True)
class FoundCore:
    lib: str
    path: Path
    source: str  # "EMUCORE_CORE_PATH", "stable-retro", "RetroArch", "Debian" or "path"


def stable_retro_cores_dir() -> Path | None:
    """The ``cores`` folder of an installed stable-retro, without importing it."""
    try:
        spec = importlib.util.find_spec("stable_retro")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "cores"
        if candidate.is_dir():
            return candidate
    return None


def search_dirs() -> list[tuple[str, Path]]:
    """The folders searched for cores, in order of preference, with their source names."""
    dirs: list[tuple[str, Path]] = []
    for entry in os.environ.get("EMUCORE_CORE_PATH", "").split(os.pathsep):
        if entry:
            dirs.append(("EMUCORE_CORE_PATH", Path(entry).expanduser()))
    stable = stable_retro_cores_dir()
    if stable is not None:
        dirs.append(("stable-retro", stable))
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    dirs.append(("RetroArch", config / "retroarch" / "cores"))
    dirs.append(("RetroArch", Path.home() / ".var/app/org.libretro.RetroArch/config/retroarch/cores"))
    for debian in sorted(glob.glob("/usr/lib/*/libretro")) + ["/usr/lib/libretro"]:
        dirs.append(("Debian", Path(debian)))
    return dirs


def find_library(lib: str) -> list[FoundCore]:
    """Every copy of ``<lib>_libretro.so`` found, best first."""
    name = library(lib).file_name
    found = []
    seen: set[Path] = set()
    for source, folder in search_dirs():
        path = folder / name
        if path.is_file():
            real = path.resolve()
            if real not in seen:
                seen.add(real)
                found.append(FoundCore(lib, path, source))
    return found


def find_core(system: System | str, core: str | os.PathLike[str] | None = None) -> FoundCore:
    """The core to run ``system`` with.

    ``core`` may name a library (``"nestopia"``), a file name, or a path to a ``.so``.
    Raises CoreNotFoundError, naming the package that provides the core, if none is found.
    """
    if isinstance(system, str):
        system = get_system(system)
    if core is not None:
        text = os.fspath(core)
        if os.sep in text or text.endswith(".so"):
            path = Path(text).expanduser()
            if not path.is_file():
                raise CoreNotFoundError(f"core {path}: no such file")
            return FoundCore(path.stem.removesuffix("_libretro"), path, "path")
        lib = text.removesuffix("_libretro")
        copies = find_library(lib)
        if not copies:
            raise CoreNotFoundError(f"no {lib} core found for {system.title}: {library(lib).provider_text(system)}")
        return copies[0]
    for lib in system.cores:
        copies = find_library(lib)
        if copies:
            return copies[0]
    wanted = library(system.cores[0])
    raise CoreNotFoundError(
        f"no core found for {system.title} (tried {', '.join(system.cores)}); "
        f"for {wanted.lib}, {wanted.provider_text(system)}"
    )
