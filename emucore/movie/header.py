"""A movie's ``Header.txt``, its ``Platform`` codes, and :class:`MovieData`: a movie as read.

stable-retro writes eight header lines (:func:`render_header`); any ``key value`` lines are read
(:func:`parse_header`). BizHawk platform codes (``GEN``, ``SNES``, ``NES``, ``A26``, ``GB``, ``GBC``,
``GBA``, ``SMS``, ``GG``, ``32X``, ``PCE``, ``SAT``, ``N64``, ``NDS``) and stable-retro system tokens
both name a platform (:func:`resolve_platform`); stable-retro writes four of the codes
(:func:`write_platform`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from emucore.systems import systems

_SHA1 = re.compile(r"^[0-9a-fA-F]{40}$")


# ---------------------------------------------------------------------------------------------
# Platforms


def resolve_platform(platform: str | None) -> str | None:
    """The system token a header ``Platform`` names (BizHawk code or token), or None if unknown."""
    if not platform:
        return None
    platform = platform.strip()
    table = systems()
    if platform in table:
        return platform
    upper = platform.upper()
    for system in table.values():  # a BizHawk code (the descriptors' bizhawk_platform)
        if system.bizhawk_platform is not None and system.bizhawk_platform in (platform, upper):
            return system.name
    for name in table:  # stable-retro tokens in another case ("32X" is already an alias)
        if name.lower() == platform.lower():
            return name
    return None


def write_platform(system: str) -> str:
    """The ``Platform`` value stable-retro writes for a system token (its descriptor's ``movie_platform``:
    BizHawk's code for four systems, the token for the others)."""
    known = systems().get(system)
    return known.movie_platform or system if known is not None else system


# ---------------------------------------------------------------------------------------------
# The header


def render_header(game: str, platform: str) -> str:
    """``Header.txt`` exactly as stable-retro writes it (eight lines, LF, final LF)."""
    return (
        "MovieVersion Retro\n"
        "Author ?\n"
        "emuVersion ?\n"
        f"Platform {platform}\n"
        f"GameName {game}\n"
        "SHA1 ?\n"
        "Core ?\n"
        "rerecordCount 1\n"
    )


def parse_header(text: str) -> dict[str, str]:
    """``key value`` lines (split at the first space; CRLF and blank lines tolerated)."""
    header: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        key, _, value = line.partition(" ")
        header.setdefault(key.strip(), value.strip())
    return header


# ---------------------------------------------------------------------------------------------
# A movie as read


@dataclass
class MovieData:
    """A parsed movie: what :class:`emucore.movie.Movie` serves in read mode."""

    kind: str  # "bk2" or "fm2"
    header: dict[str, str]
    game: str
    platform: str  # the header's Platform as written ("" if none)
    system: str | None  # the system token used to map chars (None: unknown)
    players: int
    masks: np.ndarray  # (frames, players) uint16
    core: bytes  # the raw Core.bin (b"" if none)
    by_name: bool = False  # columns mapped by name (a BizHawk key line)
    key_names: list[str] = field(default_factory=list)
    extra_entries: list[str] = field(default_factory=list)

    @property
    def is_bizhawk(self) -> bool:
        return self.header.get("MovieVersion", "").startswith("BizHawk")

    @property
    def sha1(self) -> str | None:
        """The header's ROM SHA-1 (lower case) when it is a real hash, else None."""
        value = self.header.get("SHA1", "").strip()
        if value.upper().startswith("SHA1:"):
            value = value[5:]
        return value.lower() if _SHA1.match(value) else None
