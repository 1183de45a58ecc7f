"""Movies: stable-retro's ``.bk2`` (read and written exactly), BizHawk ``.bk2`` and FCEUX ``.fm2`` (read).

* :class:`Movie` - stable-retro's ``retro.Movie`` API (read, or record frame by frame);
* :class:`MovieRecorder` - records from an emulator the caller drives (the studio);
* :class:`MovieError` - every problem with a movie file.

A movie played through an env, with video, info and monitor-CSV export (``emucore playback``), is the env's:
:class:`emucore.env.MoviePlayer`, :func:`emucore.env.replay`.

The format is described in the project spec ``movie-format.md``.
"""

from __future__ import annotations

from emucore.errors import MovieError
from emucore.movie.movie import Movie
from emucore.movie.recorder import MovieRecorder

__all__ = ["Movie", "MovieError", "MovieRecorder"]
