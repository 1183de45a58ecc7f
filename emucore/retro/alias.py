"""``import retro`` as emucore: for scripts (and stable-retro's own test suite) written for
stable-retro's old module name, ``install()`` makes ``retro`` and every ``retro.X`` the modules
``emucore`` and ``emucore.X`` themselves (the same objects, so patching ``retro.data.f`` patches
``emucore.data.f``).

    import emucore.retro.alias
    emucore.retro.alias.install()
    import retro.data          # emucore.data
    from retro.retro_env import RetroEnv

stable-retro's modules whose emucore home has another name are in :data:`RENAMED`: ``retro.retro_env``
(``emucore.env.retro_env``), ``retro._retro`` (:mod:`emucore.retro.native`), ``retro.import`` (the
``emucore import`` command, :mod:`emucore.cli.import_roms`), ``retro.scripts`` (:mod:`emucore.cli`) with
``import_path`` and ``playback_movie`` (``emucore import`` and ``emucore playback``: their ``main()`` reads
``sys.argv`` or takes the arguments, with emucore's options, and returns the exit status). Not provided:
``retro.scripts.import_sega_classics`` (it logs into Steam and downloads steamcmd to fetch the ROMs; emucore
downloads nothing: ``emucore import`` the ROMs of an install instead). Every other ``retro.X`` is
``emucore.X``: ``retro.data``, ``retro.enums``, ``retro.testing``, ``retro.examples``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

ALIAS = "retro"

#: stable-retro's module paths whose emucore module has another name (and their submodules, mapped alike).
RENAMED = {
    "retro.retro_env": "emucore.env.retro_env",
    "retro._retro": "emucore.retro.native",
    "retro.import": "emucore.cli.import_roms",
    "retro.scripts": "emucore.cli",
    "retro.scripts.import_path": "emucore.cli.import_roms",
    "retro.scripts.playback_movie": "emucore.cli.playback",
}


def emucore_name(name: str) -> str:
    """The emucore module that the module ``retro...`` ``name`` is (``retro.data`` -> ``emucore.data``)."""
    prefix = name
    while prefix != ALIAS:
        if prefix in RENAMED:
            return RENAMED[prefix] + name[len(prefix):]
        prefix = prefix.rpartition(".")[0]
    return "emucore" + name[len(ALIAS):]


class _RetroAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == ALIAS or fullname.startswith(ALIAS + "."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        # the import system returns what sys.modules holds once this returns: the emucore module
        name = module.__name__
        sys.modules[name] = importlib.import_module(emucore_name(name))


def install() -> None:
    """Makes ``import retro...`` import emucore's modules (idempotent). An already imported ``retro``
    (stable-retro's compatibility package) is replaced, with its submodules."""
    if any(isinstance(finder, _RetroAlias) for finder in sys.meta_path):
        return
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        del sys.modules[name]
    import emucore

    sys.modules[ALIAS] = emucore
    sys.meta_path.insert(0, _RetroAlias())
