"""A movie against its integration: which game it plays, and whether it was recorded on that game.

:func:`resolve_game` finds the integration (the game given, else the header's ``GameName``, else
the game whose ``rom.sha`` lists the header's SHA-1); :func:`check_movie` checks that the header's
platform is the game's system and that a real ``SHA1`` is one of the integration's ``rom.sha``
hashes (or its ROM's). A movie that fails the check raises :class:`MovieMismatchError`.
"""

from __future__ import annotations

from typing import Any

from emucore.errors import MovieError
from emucore.integration import SHA_FILE, read_rom_sha
from emucore.movie.header import resolve_platform
from emucore.movie.movie import Movie


class MovieMismatchError(MovieError):
    """A movie recorded on another system or ROM than its integration's (``emucore playback`` exits 1)."""


def _is_integration(game: str, inttype: Any) -> bool:
    from emucore import data

    return bool(game) and game != "?" and data.get_file_path(game, SHA_FILE, inttype) is not None


def resolve_game(movie: Movie, game: str | None, inttype: Any) -> str:
    """The integration a movie plays: ``game`` if given, else its ``GameName``, else the game
    whose ``rom.sha`` lists the header's SHA-1.

    Raises:
        MovieError: none of them is an integration.
    """
    from emucore import data
    from emucore.data.lookup import unknown_game_hint

    named = game or movie.get_game()
    if _is_integration(named, inttype):
        return named
    sha1 = movie.data.sha1 if movie.data is not None else None
    if not game and sha1:
        known = data.get_known_hashes(inttype)
        if sha1 in known:
            return known[sha1][0]
    where = ", ".join(data.resolve(inttype).folders) or "no integration folders"
    if named in ("", "?"):
        problem = "names no game (GameName is missing or '?'); pass --game NAME"
    else:
        problem = f"is for the game {named!r}, which is not an integration (searched {where})"
        problem += unknown_game_hint(named, inttype)
    if sha1 and not game:
        problem += f"; no integration lists its ROM SHA-1 {sha1}"
    raise MovieError(movie.path, problem)


def check_movie(movie: Movie, game: str, inttype: Any) -> str:
    """Checks the movie against the integration; returns the integration's ROM path.

    Raises:
        MovieError: the ROM is missing.
        MovieMismatchError: the platform differs, or the header's SHA-1 is not the ROM's.
    """
    from emucore import data
    from emucore.integration import rom_sha1
    from emucore.systems import system_for_path

    try:
        rom = data.get_romfile_path(game, inttype)
    except FileNotFoundError:
        raise MovieError(movie.path, f"the ROM of {game!r} is not imported (run `emucore import`)") from None
    system = system_for_path(rom).name
    platform = movie.data.platform if movie.data is not None else ""
    if platform:
        recorded = resolve_platform(platform)
        if recorded is None:
            raise MovieError(movie.path, f"its platform {platform!r} is not one emucore knows")
        if recorded != system:
            raise MovieMismatchError(movie.path,
                                     f"was recorded on {recorded} ({platform}), but {game} is a {system} game")
    sha1 = movie.data.sha1 if movie.data is not None else None
    if sha1:
        sha_file = data.get_file_path(game, SHA_FILE, inttype)
        listed = set(read_rom_sha(sha_file)) if sha_file else set()
        if sha1 not in listed and sha1 != rom_sha1(rom):
            expected = ", ".join(sorted(listed)) or rom_sha1(rom)
            raise MovieMismatchError(movie.path,
                                     f"was recorded with the ROM SHA-1 {sha1}, but {game}'s ROM is {expected}")
    return rom
