"""Lines per class, a class counted with the mixins it was split into: a base class defined in the same package
that nothing else there derives from is part of it (so splitting a class into mixins across files does not bring
it under the module cap)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path


def class_sizes(package: Path) -> dict[str, int]:
    """``module:Class`` -> lines of the class and of the package's bases only it derives from, recursively."""
    spans: dict[str, int] = {}  # class name -> its lines (a name defined twice keeps the larger)
    bases: dict[str, list[str]] = {}
    where: dict[str, str] = {}
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package.parent).with_suffix("").as_posix().replace("/", ".")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                size = node.end_lineno - node.lineno + 1
                if size >= spans.get(node.name, 0):
                    spans[node.name], where[node.name] = size, f"{module}:{node.name}"
                bases[node.name] = [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]
    derived = Counter(base for names in bases.values() for base in set(names) if base in spans)

    def whole(name: str) -> int:
        return spans[name] + sum(whole(base) for base in bases[name] if base in spans and derived[base] == 1)

    return {where[name]: whole(name) for name in spans}
