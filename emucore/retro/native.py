"""stable-retro's compiled module, ``retro._retro`` (under :mod:`emucore.retro.alias`): its names, on
emucore's classes.

- ``RetroEmulator``: :class:`emucore.host.emulator.Emulator` (``load_core_info`` included).
- ``GameDataGlue``: :class:`emucore.retro.gamedata.GameData` (``retro.data.GameData``), which is what
  stable-retro's glue is used for: made empty, then ``load(data, scen)``-ed, or subclassed. (An env's
  ``env.data`` is one too, bound to the env's evaluator.)
- ``Movie``: :class:`emucore.movie.Movie`; ``Memory`` and ``Search``: what ``data.memory`` and
  ``data.get_search(name)`` return (:mod:`emucore.retro.search_handles`, :mod:`emucore.retro.gamedata_search`).
- ``core_path(hint=None)``: :func:`emucore.core_path`; ``data_path(hint=None)``: :func:`emucore.data.path`
  (``RETRO_DATA_PATH``, else ``hint``, else an installed stable-retro's ``data`` folder).
"""

from __future__ import annotations

from emucore import core_path
from emucore.data import path as data_path
from emucore.host.emulator import Emulator as RetroEmulator
from emucore.movie import Movie
from emucore.retro.gamedata import GameData as GameDataGlue
from emucore.retro.gamedata_search import Search
from emucore.retro.search_handles import Memory

__all__ = ["GameDataGlue", "Memory", "Movie", "RetroEmulator", "Search", "core_path", "data_path"]
