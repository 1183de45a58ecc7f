"""The error every movie module raises: :class:`MovieError`, naming the file and the problem."""

from __future__ import annotations

from emucore.errors import FileProblem


class MovieError(FileProblem, RuntimeError):
    """A movie that is missing, corrupt, oversized, or does not fit the game it names.

    A ``RuntimeError`` too, so code written for stable-retro (which raises
    ``RuntimeError("Could not load movie")``) keeps catching it.
    """

    what = "movie"
