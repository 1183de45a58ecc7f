"""An integration packed to travel to other machines, and unpacked there once per machine.

A worker node has emucore but not the user's ROMs or integration folders. The driver packs the
game's files (the ones ``make`` would read: data, scenarios, metadata, ``rom.sha``, the ROM,
states, scripts; each from the first integration set that has it) and any state, scenario or
data file given by path into one zip, put once in Ray's object store. Each node unpacks it into
a folder named by its content's hash (a second unpack on the node finds it there), and the env
is made from that folder, so its name, states and files are the driver's.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore import data as retro_data
from emucore.data.lookup import game_dirs
from emucore.enums import State
from emucore.integration.statefile import STATE_SUFFIX

EXTRA = "_given"  # the folder, beside the game's, of files given by path
CACHE_ENV = "EMUCORE_RAY_CACHE"  # where nodes unpack integrations (default: <tempdir>/emucore-ray)
PATH_KWARGS = ("scenario", "info")


@dataclass(frozen=True)
class IntegrationPackage:
    """A game's integration as one zip, named by the hash of its content."""

    game: str  # the game's name (its folder's name)
    digest: str
    payload: bytes
    kwargs: dict[str, Any]  # make() arguments besides the game, paths rewritten to the package's files

    def unpack(self, root: str | os.PathLike[str] | None = None) -> Path:
        """Unpacks into ``root`` (once: it reuses an earlier unpack) and returns the game folder."""
        folder = unpacked_game_folder(self.digest, self.game, root)
        target = folder.parent  # the package's folder: the game's, and the files given by path
        if not target.is_dir():
            target.parent.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=f".{self.digest}-", dir=target.parent))
            try:
                with zipfile.ZipFile(io.BytesIO(self.payload)) as archive:
                    archive.extractall(scratch)
                try:
                    os.rename(scratch, target)  # atomic: another process unpacking the same digest may win
                except OSError:
                    if not target.is_dir():
                        raise
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        return folder

    @staticmethod
    def rewrite_paths(kwargs: dict[str, Any], folder: Path) -> dict[str, Any]:
        """Packed make() arguments with the package's relative paths made absolute beside the unpacked ``folder``."""
        kwargs = dict(kwargs)
        for key in ("state", *PATH_KWARGS):
            value = kwargs.get(key)
            if isinstance(value, str) and value.startswith(f"{EXTRA}/"):
                kwargs[key] = str(folder.parent / value)
        kwargs.pop("inttype", None)
        return kwargs


def cache_root() -> Path:
    """Where this node unpacks integrations: ``$EMUCORE_RAY_CACHE``, else ``<tempdir>/emucore-ray``."""
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / "emucore-ray")


def unpacked_game_folder(digest: str, game: str, root: str | os.PathLike[str] | None = None) -> Path:
    """Where the game folder of the package ``digest`` is once unpacked into ``root`` (default :func:`cache_root`)."""
    return (Path(root) if root is not None else cache_root()) / digest / game


def game_files(game: str, inttype: Any = None) -> dict[str, Path]:
    """The files of ``game``'s integration by name, each from the first set that has it."""
    inttype = retro_data.Integrations.DEFAULT if inttype is None else inttype
    retro_data.get_romfile_path(game, inttype)  # GameNotFoundError, worded as make()'s, when there is no ROM
    files: dict[str, Path] = {}
    for folder in reversed(game_dirs(game, inttype)):
        if os.path.isdir(folder):
            files.update({entry.name: Path(entry.path) for entry in os.scandir(folder) if entry.is_file()})
    return files


def _given_path(key: str, value: Any) -> Path | None:
    """A file given by path (rather than a name in the integration) for make()'s ``key``."""
    if not isinstance(value, (str, os.PathLike)) or isinstance(value, State):
        return None
    text = os.fspath(value)
    if key == "state":
        if not retro_data.is_game_folder_path(text) and not os.path.isabs(text):
            return None
        path = Path(text if text.endswith(STATE_SUFFIX) else text + STATE_SUFFIX)
    elif text.endswith(".json"):
        path = Path(text)
    else:
        return None
    if not path.is_file():
        raise FileNotFoundError(f"{key}={text!r}: no such file")
    return path


def pack_integration(game: str | os.PathLike[str], **make_kwargs: Any) -> IntegrationPackage:
    """Packs ``game``'s integration and the files ``make_kwargs`` give by path.

    ``make_kwargs`` are ``emucore.make``'s (``state``, ``scenario``, ``inttype``, ...).
    """
    game = os.fspath(game)
    files = game_files(game, make_kwargs.get("inttype"))
    name = retro_data.game_name(game)
    kwargs = dict(make_kwargs)
    entries = {f"{name}/{file}": path for file, path in sorted(files.items())}
    for key in ("state", *PATH_KWARGS):
        given = _given_path(key, kwargs.get(key))
        if given is not None:
            entry = f"{EXTRA}/{key}-{given.name}"
            entries[entry] = given
            kwargs[key] = entry
    buffer = io.BytesIO()
    digest = hashlib.sha256()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry, path in sorted(entries.items()):
            content = path.read_bytes()
            digest.update(entry.encode() + b"\0" + hashlib.sha256(content).digest())
            info = zipfile.ZipInfo(entry, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return IntegrationPackage(name, digest.hexdigest()[:32], buffer.getvalue(), kwargs)
