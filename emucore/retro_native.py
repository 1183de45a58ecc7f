"""Deprecated: stable-retro's ``retro._retro`` is :mod:`emucore.retro.native` (the alias maps it there)."""

import warnings

from emucore.retro.native import GameDataGlue, Memory, Movie, RetroEmulator, Search, core_path, data_path

warnings.warn("emucore.retro_native is emucore.retro.native now", DeprecationWarning, stacklevel=2)

__all__ = ["GameDataGlue", "Memory", "Movie", "RetroEmulator", "Search", "core_path", "data_path"]
