"""The ``>>>`` examples in the studio's model run, on the demo games, and show what they say.

They are collected as emucore's are (``tests/emucore/test_doctests.py``): every module of ``studio.model``
whose source holds ``>>>`` is run through :mod:`doctest`, in a temporary folder (an example that edits an
integration copies a demo game there first). The views (``studio.qt``) hold no ``>>>``: an example of a view
needs a QApplication and a window, so it is written as a literal block.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from importlib.util import find_spec
from pathlib import Path

import pytest

import studio
import studio.model
from studio.model.play.session import Session
from studio.model.workspace import Workspace
from tests.conftest import require_core


def modules_with_examples(package) -> list[str]:
    names = []
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        spec = find_spec(module.name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text(encoding="utf-8"):
            names.append(module.name)
    return names


EXAMPLES = modules_with_examples(studio.model)


def test_the_examples_are_found():
    assert "studio.model.workspace" in EXAMPLES and "studio.model.variables.watch" in EXAMPLES


def test_the_views_hold_no_examples():
    views = Path(studio.__file__).parent / "qt"  # read, not imported: Qt is blocked in this run
    assert [p.name for p in views.rglob("*.py") if ">>>" in p.read_text(encoding="utf-8")] == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_run(name, tmp_path, monkeypatch):
    require_core("genesis_plus_gx")  # the demo games' default cores
    require_core("fceumm")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=report.append, clear_globs=False)
        for value in test.globs.values():  # the games the example opened
            if isinstance(value, (Session, Workspace)):
                value.close()
        test.globs.clear()
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, "".join(report)
