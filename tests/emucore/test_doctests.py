"""The ``>>>`` examples in emucore's docstrings run, on the demo games, and show what they say.

Every module of emucore whose source holds ``>>>`` is run through :mod:`doctest`: an example
that cannot run (it needs a cluster, or states and movies a reader does not have) is written as a
literal block instead, so a ``>>>`` in emucore is always a promise that the example works.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from importlib.util import find_spec
from pathlib import Path

import pytest

import emucore
from emucore.errors import MissingExtraError
from tests.conftest import require_core


def modules_with_examples() -> list[str]:
    names = []
    for module in pkgutil.walk_packages(emucore.__path__, "emucore."):
        if module.name.endswith(("__main__", "._build")):
            continue
        spec = find_spec(module.name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text(encoding="utf-8"):
            names.append(module.name)
    return names


EXAMPLES = modules_with_examples()


def test_the_examples_are_found():
    assert "emucore.host.emulator" in EXAMPLES and "emucore.search.memory_search" in EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_run(name, tmp_path, monkeypatch):
    require_core("genesis_plus_gx")  # the demo games' default cores
    require_core("fceumm")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    try:
        module = importlib.import_module(name)
    except MissingExtraError as missing:  # a module of an optional extra (emucore.sb3 without SB3)
        pytest.skip(str(missing))
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, "".join(report)
