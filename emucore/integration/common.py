"""What every part of the integration package shares: the error, the lint finding, names and hashes."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from emucore.errors import FileProblem
from emucore.fileio import MAX_JSON_BYTES, FileTooLargeError, open_regular, read_regular
from emucore.systems import extension_table, systems

VERSION_SUFFIX = re.compile(r"-v\d+$")
NES_HEADER_BYTES = 16


class IntegrationError(FileProblem, ValueError):
    """A file of an integration folder that cannot be read or written.

    ``path`` names the file and ``problem`` says what is wrong (with the line, column and
    key for JSON files; ``key`` keeps the key path alone); the message is
    ``"integration file <path>: <problem>"``.
    """

    what = "integration file"

    def __init__(self, path: str | os.PathLike[str] | None, problem: str, key: str = ""):
        super().__init__(path, problem)
        self.key = key  # the dotted key path the problem is at, "" when not known


@dataclass(frozen=True)
class LintFinding:
    """One lint result: a fault stable-retro rejects (``error``) or one it lets through (``warning``).

    Attributes:
        level: ``"error"`` or ``"warning"``.
        file: The file inside the folder (``"data.json"``, ``"rom.sha"``, ``"Level1.state"``, ...),
            or ``""`` for the folder as a whole.
        key: Where in the file, as a dotted path (``"info.lives.type"``), or ``""``.
        message: What is wrong. Warnings stable-retro's verifier also gives keep its wording,
            so that ``metadata.json`` whitelists written for it apply.
    """

    level: str
    file: str
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}[{self.key}]" if self.key else self.file or "(folder)"
        return f"{self.level}: {where}: {self.message}"


def base_name(name: str) -> str:
    """The game name without its ``-v<digits>`` version suffix."""
    return VERSION_SUFFIX.sub("", name)


def system_from_name(name: str) -> str | None:
    """The system a game name ends with (``Airstriker-Genesis-v0`` -> ``Genesis``), or None.

    The token after the last ``-`` (version suffix removed) is a system name, or a system's
    ``name_token`` (``Arcade`` -> ``FBNeo``, case-insensitive like stable-retro's importer).
    """
    stripped = base_name(name)
    if "-" not in stripped:
        return None
    token = stripped.rsplit("-", 1)[1]
    known = systems()
    if token in known:
        return token
    for system in known.values():
        if system.name_token.lower() == token.lower():
            return system.name
    return None


def system_from_extension(path_or_suffix: str | os.PathLike[str]) -> str | None:
    """The system of a ROM file name or ``.ext`` suffix, or None when no system has it."""
    text = os.fspath(path_or_suffix)
    suffix = text if text.startswith(".") and "/" not in text else Path(text).suffix
    return extension_table().get(suffix.lower())


def _skips_nes_header(system_extension: str | None) -> bool:
    return (system_extension or "").lstrip(".").lower() == "nes"


def rom_sha1(path_or_bytes: str | os.PathLike[str] | bytes, system_extension: str | None = None) -> str:
    """The SHA-1 stable-retro lists in ``rom.sha`` for a ROM.

    Args:
        path_or_bytes: The ROM file or its content.
        system_extension: The ROM's extension (``".nes"`` or ``"nes"``) or system (``"Nes"``);
            taken from the path when omitted. NES hashes skip the 16-byte iNES header, like
            stable-retro's importer, whether or not the header is there.

    Returns:
        40 lowercase hex digits.
    """
    digest = hashlib.sha1()
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        data = bytes(path_or_bytes)
        digest.update(data[NES_HEADER_BYTES:] if _skips_nes_header(system_extension) else data)
        return digest.hexdigest()
    path = Path(path_or_bytes)
    if system_extension is None:
        system_extension = path.suffix
    try:
        with open_regular(path) as f:
            if _skips_nes_header(system_extension):
                f.read(NES_HEADER_BYTES)
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError as e:
        raise IntegrationError(path, f"cannot read the ROM: {e.strerror or e}") from e
    return digest.hexdigest()




def read_file(path: str | os.PathLike[str], limit: int = MAX_JSON_BYTES) -> bytes:
    """A regular file of an integration, at most ``limit`` bytes; an IntegrationError naming it otherwise."""
    path = Path(path)
    try:
        return read_regular(path, limit)
    except FileTooLargeError as e:
        raise IntegrationError(path, e.strerror or str(e)) from e
    except OSError as e:
        raise IntegrationError(path, f"cannot read: {e.strerror or e}") from e
