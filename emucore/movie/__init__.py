"""Movies: stable-retro's ``.bk2`` (read and written exactly), BizHawk ``.bk2`` and FCEUX ``.fm2`` (read).

* :class:`Movie` - stable-retro's ``retro.Movie`` API (read, or record frame by frame);
* :class:`MovieRecorder` - records from an emulator the caller drives (the studio);
* :func:`replay` / :class:`MoviePlayer` - play a movie through an env, with video, info and
  monitor-CSV export (``emucore playback``); they live with the env (:mod:`emucore.env.replay`,
  :mod:`emucore.env.movie_player`) and are loaded from there on first use, as they need Gymnasium;
* :class:`MovieError` - every problem with a movie file.

The format is described in the project spec ``movie-format.md``.
"""

from __future__ import annotations

import importlib
from typing import Any

from emucore.movie.errors import MovieError
from emucore.movie.movie import Movie
from emucore.movie.recorder import MovieRecorder

_LAZY = {
    "replay": "emucore.env.replay",
    "MoviePlayer": "emucore.env.movie_player",
    "ReplaySummary": "emucore.env.replay",
    "PlaybackStep": "emucore.env.movie_player",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'emucore.movie' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["Movie", "MovieError", "MoviePlayer", "MovieRecorder", "PlaybackStep", "ReplaySummary", "replay"]
