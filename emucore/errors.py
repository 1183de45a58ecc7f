"""The exceptions emucore raises for bad input. Each names the file and the problem."""

from __future__ import annotations

import os
from pathlib import Path

DISTRIBUTION = "retro-integration-studio"
"""The name pip installs emucore and the studio by."""


def did_you_mean(close: list[str]) -> str:
    """``"did you mean A, B or C?"`` for the names close to an unknown one, ``""`` for none."""
    if not close:
        return ""
    names = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f"did you mean {names}?"


class EmucoreError(Exception):
    """Base class of emucore's errors."""


class MissingExtraError(EmucoreError, ModuleNotFoundError):
    """A feature whose optional dependency is not installed; the message names the extra that brings it."""

    def __init__(self, feature: str, module: str, extra: str):
        self.extra = extra
        super().__init__(
            f"{feature} needs {module}, which is not installed: pip install '{DISTRIBUTION}[{extra}]'", name=module
        )


class FileProblem(EmucoreError):
    """A problem with one file: ``path`` and ``problem`` are kept for callers."""

    what = "file"

    def __init__(self, path: str | os.PathLike[str] | None, problem: str):
        self.path = Path(path) if path is not None else None
        self.problem = problem
        where = f"{self.what} {self.path}" if self.path is not None else self.what
        super().__init__(f"{where}: {problem}")


class RomError(FileProblem, ValueError):
    """A ROM that is missing, empty, truncated or corrupt."""

    what = "ROM"


class RomNotFoundError(RomError, FileNotFoundError):
    """A ROM path that does not exist."""


class UnknownSystemError(RomError):
    """A ROM whose file name matches no system emucore knows."""


class CoreNotFoundError(EmucoreError, FileNotFoundError):
    """No core library for a system; the message says which package provides one."""


class CoreLoadError(FileProblem):
    """A core library that cannot be loaded or is not a libretro core."""

    what = "core"


class GameLoadError(FileProblem):
    """The core refused to load a ROM."""

    what = "ROM"


class StateError(FileProblem, ValueError):
    """A save state that is truncated, corrupt or from another core."""

    what = "state"


class GameNotFoundError(EmucoreError, FileNotFoundError):
    """A game name with no integration folder or no ROM (stable-retro's wording, as a FileNotFoundError)."""


class MovieError(FileProblem, RuntimeError):
    """A movie that is missing, corrupt, oversized, or does not fit the game it names.

    A ``RuntimeError`` too, so code written for stable-retro (which raises
    ``RuntimeError("Could not load movie")``) keeps catching it.
    """

    what = "movie"


class StateNotFoundError(FileProblem, FileNotFoundError, TypeError):
    """A save state asked for by name or path that does not exist (also a TypeError, which stable-retro
    raises there, so code catching either works)."""

    what = "state"


class UnmappedAddressError(EmucoreError, IndexError):
    """An address in no memory block of the core (stable-retro raises ``IndexError("No known mapping")``)."""

    def __init__(self, address: int, variable: str | None = None):
        self.address = address
        self.variable = variable
        of = f" (variable {variable!r})" if variable is not None else ""
        super().__init__(f"No known mapping: address {address:#x}{of} is in no memory block of the core")


class CoreError(EmucoreError, RuntimeError):
    """A core failed inside a call (it threw a C++ exception, caught at the boundary); its state is undefined."""


class EmulatorClosedError(EmucoreError, RuntimeError, AttributeError):
    """A call on an emulator (or core session, or env) after ``close()``.

    Also an ``AttributeError``: stable-retro deletes the emulator at close, so code written for it
    catches ``AttributeError`` there.
    """


class EmulatorBusyError(EmucoreError, RuntimeError):
    """A call into an emulator while another thread is inside it: one thread at a time."""


class ScriptWarning(UserWarning):
    """A scenario script that is missing or failed to load: the env runs, but without it."""


class RLlibSpacesWarning(UserWarning):
    """RLlib makes an env whose spaces its default models cannot take (MultiBinary actions, uint8 screens);
    a warning, not an error: the user's connectors or RLModule may take them."""
