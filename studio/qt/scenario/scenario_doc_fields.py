"""How the scenario editor's cells show and read the fields of a reward term or a done test."""

from __future__ import annotations

from typing import Any

from emucore.operations import Operation

NO_OP = "(value)"  # what the op cell shows for a term or test that has no op
OP_CHOICES = (NO_OP, *(op.value for op in Operation))


def parse_number(text: Any, kind: type) -> Any:
    """``text`` as an int or float (``kind``), an empty cell as 0, or None when it is not a number."""
    try:
        return kind(float(str(text).strip() or 0)) if kind is int else kind(str(text).strip() or 0)
    except ValueError:
        return None
