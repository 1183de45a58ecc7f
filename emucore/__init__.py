"""emucore: a libretro host and Gymnasium env layer, compatible with stable-retro.

``import emucore as retro`` gives stable-retro's names where they exist.
"""

from emucore.emulator import Emulator
from emucore.errors import (
    CoreLoadError,
    CoreNotFoundError,
    EmucoreError,
    GameLoadError,
    RomError,
    RomNotFoundError,
    StateError,
    UnknownSystemError,
)
from emucore.systems import get_system, system_for_path

RetroEmulator = Emulator

__version__ = "0.1.0"

__all__ = [
    "CoreLoadError",
    "CoreNotFoundError",
    "EmucoreError",
    "Emulator",
    "GameLoadError",
    "RetroEmulator",
    "RomError",
    "RomNotFoundError",
    "StateError",
    "UnknownSystemError",
    "get_system",
    "system_for_path",
]
