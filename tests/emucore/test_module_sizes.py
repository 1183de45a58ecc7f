"""emucore's modules stay small enough to read whole: none over 400 lines (split one by reason to change), and no
class either, counted with the mixins it was split into."""

from __future__ import annotations

from pathlib import Path

import emucore
from tests.class_sizes import class_sizes

LIMIT = 400


def test_no_module_of_emucore_is_over_the_limit():
    package = Path(emucore.__file__).parent
    sizes = {path.relative_to(package.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in package.rglob("*.py")}
    assert len(sizes) > 100
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}


def test_no_class_of_emucore_is_over_the_limit_with_its_mixins():
    found = class_sizes(Path(emucore.__file__).parent)
    assert found["emucore.env.retro_env:RetroEnv"] > 200  # the env is counted whole
    assert {name: lines for name, lines in found.items() if lines > LIMIT} == {}
