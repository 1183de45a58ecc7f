"""emucore's modules stay small enough to read whole: none over 400 lines (split one by reason to change)."""

from __future__ import annotations

from pathlib import Path

import emucore

LIMIT = 400


def test_no_module_of_emucore_is_over_the_limit():
    package = Path(emucore.__file__).parent
    sizes = {path.relative_to(package.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in package.rglob("*.py")}
    assert len(sizes) > 100
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
