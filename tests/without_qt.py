"""A pytest plugin that makes Qt unimportable: ``pytest -p no:pytest-qt -p tests.without_qt tests/emucore ...``.

emucore and the studio's model promise to work without Qt (the import contracts check what they import;
this checks what they do when run). Loaded as a plugin, it is in place before any test module is imported,
in pytest-xdist's workers too. pytest-qt must be disabled (``-p no:pytest-qt``): it imports Qt when it loads.
"""

from __future__ import annotations

import importlib.abc
import sys

BLOCKED = ("PySide6", "shiboken6", "pyqtgraph", "studio.qt")


def _blocked(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in BLOCKED)


class QtBlocker(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if _blocked(fullname):
            raise ModuleNotFoundError(f"No module named {fullname!r} (Qt is blocked in this run)", name=fullname)
        return None


already = sorted(name for name in sys.modules if _blocked(name))
if already:
    raise RuntimeError(f"Qt was imported before tests.without_qt could block it: {', '.join(already[:5])}"
                       " (run pytest with -p no:pytest-qt)")
sys.meta_path.insert(0, QtBlocker())


def pytest_report_header() -> str:
    return "Qt blocked: " + ", ".join(BLOCKED) + " cannot be imported"
