"""Readings Find from screen cannot tell apart yet, said in words, and the variables made while
they could not be: *provisional* until a later checkpoint settles them. No Qt.

Two candidates that read every checkpoint alike but decode the memory differently (BCD or a
binary count of hundreds; one byte or two) are an :class:`~emucore.assist.value_candidates.Ambiguity`.
The variable made from one of them keeps the other readings in its provenance
(``details["provisional"]``); :func:`settle` is run on the candidates of each new checkpoint:
the variable is confirmed when no ambiguity is left, moved to the reading that still fits when
its own no longer does, and left provisional otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from emucore.assist import ValueCandidate
from emucore.assist.value_candidates import Ambiguity, byte_orders
from emucore.datatypes import parse_type
from studio.model.variables.provenance import PROVISIONAL

KEY = PROVISIONAL
SAID = 2  # the readings it cannot yet be told from, at most: the two the checkpoints came closest to
ENCODINGS = {"d": "BCD", "n": "one digit per byte", "u": "a binary count", "i": "a signed binary count"}
UNITS = {10: "tens", 100: "hundreds", 1000: "thousands"}
AT_LEAST = re.compile(r"a shown value of ([\d,]+) or more")
ENDING = re.compile(r"a shown value that does not end in (0+)")


def reading(candidate: ValueCandidate, width_too: bool = False) -> str:
    """``"BCD"``, ``"a binary count of hundreds"``, ``"a 2-byte binary count"``."""
    kind = parse_type(candidate.type).kind
    words = ENCODINGS.get(kind, candidate.type)
    if width_too:
        width = parse_type(candidate.type).width
        words = f"{words} in {width} byte{'s' if width != 1 else ''}"
    if candidate.scale in UNITS and kind in "ui":
        words += f" of {UNITS[candidate.scale]}"
    elif candidate.scale != 1:
        words += f" \u00d7 {candidate.scale}"
    if candidate.bias:
        words += f" {candidate.bias:+d}"
    return words


def wait_for(separated_by: str) -> str:
    """What to do, from the engine's "what the screen would have to show"."""
    steps = [f"when it does not end in {m.group(1)}" for m in ENDING.finditer(separated_by)]
    steps += [f"once it reaches {m.group(1)}" for m in AT_LEAST.finditer(separated_by)]
    return "type the value again " + (" or ".join(steps) if steps else f"when the screen shows {separated_by}")


def explain(ambiguity: Ambiguity) -> str:
    """``"can't yet tell BCD from a binary count of hundreds (at 0x30): type the value again once it
    reaches 1,000"``; two copies of the value: ``"two copies of the value, at 0x22 and 0x8: ..."``."""
    first, second = ambiguity.first, ambiguity.second
    if ambiguity.kind == "copies":
        return f"two copies of the value, at {first.address:#x} and {second.address:#x}: {ambiguity.separated_by}"
    order = byte_orders(first, second)
    if order:
        return (f"can't yet tell the byte order: {_ordered(first)} or {_ordered(second)} ({order.split('; ')[-1]}): "
                f"{wait_for(ambiguity.separated_by)}")
    a, b = reading(first), reading(second)
    if a == b:
        a, b = reading(first, width_too=True), reading(second, width_too=True)
    if a == b:
        a, b = first.describe(), second.describe()
    return f"can't yet tell {a} from {b} (at {first.address:#x}): {wait_for(ambiguity.separated_by)}"


def _ordered(candidate: ValueCandidate) -> str:
    """``"BCD in 3 bytes, big-endian (>d3 at 0x3e)"``."""
    endian = "big-endian" if candidate.type[0] == ">" else "little-endian"
    return f"{reading(candidate, width_too=True)}, {endian} ({candidate.type} at {candidate.address:#x})"


def involving(ambiguities: Sequence[Ambiguity], candidate: ValueCandidate) -> list[Ambiguity]:
    """The ambiguities ``candidate`` is one side of."""
    return [a for a in ambiguities if _same(a.first, candidate) or _same(a.second, candidate)]


def _same(one: Any, other: Any) -> bool:
    return (one.address, one.type, one.scale, one.bias) == (other.address, other.type, other.scale, other.bias)


def _entry(candidate: ValueCandidate) -> dict[str, Any]:
    return {"address": candidate.address, "type": candidate.type, "scale": candidate.scale, "bias": candidate.bias}


def marking(candidate: ValueCandidate, ambiguities: Sequence[Ambiguity], steps: Sequence[str] = ()
            ) -> dict[str, Any] | None:
    """The provenance detail of a variable made from ``candidate`` (None: nothing is open);
    ``steps`` are the checkpoints it was solved from (a later one re-solves it only while they stay)."""
    open_ones = involving(ambiguities, candidate)[:SAID]
    if not open_ones:
        return None
    others = [a.second if _same(a.first, candidate) else a.first for a in open_ones]
    return {"says": "; ".join(explain(a) for a in open_ones), "reading": _entry(candidate),
            "alternatives": [_entry(c) for c in others], "checkpoints": list(steps)}


def settle(results: Sequence[ValueCandidate], watch: Any, scenario: Any = None, steps: Sequence[str] = ()
           ) -> list[str]:
    """Re-solves every provisional variable of ``watch`` made from the checkpoints that are still
    among ``steps`` (the checkpoints now, in words), with their candidates now (``results``, with
    ``ambiguities``); returns what happened, a sentence per variable."""
    said = []
    ambiguities = getattr(results, "ambiguities", [])
    for name, found in list(watch.provenance.entries.items()):
        mark = found.details.get(KEY)
        variable = watch.variables.get(name)
        if not isinstance(mark, dict) or variable is None:
            continue
        if not set(mark.get("checkpoints", [])) <= set(steps) or len(steps) <= len(mark.get("checkpoints", [])):
            continue  # another value's checkpoints now (or none new): nothing to re-solve it with
        reading_now = mark.get("reading", {})
        if (variable.address, variable.type) != (reading_now.get("address"), reading_now.get("type")):
            watch.provenance.set_detail(name, KEY, None)  # the user changed it by hand: theirs now
            continue
        own = next((c for c in results if _same(c, _Reading(reading_now))), None)
        if own is None:  # ruled out: the best reading that still fits, of those it was not told from or of its bytes
            alternatives = [_Reading(alt) for alt in mark.get("alternatives", [])]
            fits = [c for c in results if any(_same(c, alt) for alt in alternatives)
                    or _overlaps(c, variable.address, variable.type)]
            if not fits:
                said.append(f"{name}: no reading it was made from fits the checkpoints now; check the values typed")
                continue
            own = fits[0]
            watch.edit(name, address=own.address, type=own.type)
            _rescale(scenario, name, own.scale)
            said.append(f"{name} is now {own.describe()}: the last checkpoint ruled out {variable.type} "
                        f"at {variable.address:#x}")
        still = marking(own, ambiguities, steps)
        watch.provenance.set_detail(name, KEY, still)
        if still is None:
            said.append(f"{name} is confirmed as {reading(own)} ({own.type} at {own.address:#x})")
        else:
            said.append(f"{name} is still provisional: {still['says']}")
    return said


def _overlaps(candidate: ValueCandidate, address: int, type_text: str) -> bool:
    width = parse_type(type_text).width
    return candidate.address < address + width and address < candidate.address + parse_type(candidate.type).width


def _rescale(scenario: Any, name: str, scale: int) -> None:
    """The reward multiplier follows the screen's scale of the reading that stays."""
    if scenario is None:
        return
    term = scenario.reward_terms().get(name)
    if isinstance(term, dict) and term.get("measurement", "delta") == "delta":
        scenario.set_reward_term(name, measurement="delta", reward=float(scale))


class _Reading:
    def __init__(self, entry: dict[str, Any]):
        self.address, self.type = entry.get("address"), entry.get("type")
        self.scale, self.bias = entry.get("scale", 1), entry.get("bias", 0)


__all__ = ["explain", "involving", "marking", "reading", "settle", "wait_for"]
