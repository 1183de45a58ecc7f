"""``import retro`` as emucore: for scripts (and stable-retro's own test suite) written for
stable-retro's old module name, ``install()`` makes ``retro`` and every ``retro.X`` the modules
``emucore`` and ``emucore.X`` themselves (the same objects, so patching ``retro.data.f`` patches
``emucore.data.f``).

    import emucore.retro.alias
    emucore.retro.alias.install()
    import retro.data          # emucore.data
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

ALIAS = "retro"


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
        sys.modules[name] = importlib.import_module("emucore" + name[len(ALIAS):])


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
