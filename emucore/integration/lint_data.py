"""Lint rules for ``data.json``: the verifier's type checks, skipped variables, unmapped addresses."""

from __future__ import annotations

import re
from typing import Any

from emucore.datatypes import InvalidTypeError, is_well_formed, parse_type
from emucore.integration.common import LintFinding
from emucore.integration.datafile import DATA_FILE
from emucore.systems import systems

# stable-retro's verifier (stable_retro/testing/tools.py): mixed byte orders, and BCD wider than 4 bytes.
_SUSPICIOUS = re.compile(r"([><=]{2}|=[><]|<[>=]|>[<=])[dinu][2-8]|[><=]{1,2}d[5-8]")
_LIVES_TYPES = ("|u1", "|i1", "|d1")
_ONE_BYTE_SCORE = ("u1", "d1", "n1", "n2")


def _ranges_text(ranges: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"0x{start:X}-0x{end - 1:X}" for start, end in ranges)


def address_problem(system: str | None, address: int, width: int) -> str | None:
    """Why ``width`` bytes at ``address`` are not in the system's memory, or None if they are (or unknown)."""
    # the descriptor's blocks under stable-retro's cores (IF §4.6), contiguous ones merged; none: not measured
    known = systems().get(system or "")
    ranges = known.ram_ranges if known is not None else ()
    if not ranges:
        return None
    last = address + max(width, 1) - 1
    for start, end in ranges:
        if start <= address < end:
            if last < end:
                return None
            return f"runs past the end of the memory block at 0x{end:X}"
    return f"is outside {system} memory ({_ranges_text(ranges)})"


def _variable(name: str, entry: Any, system: str | None, out: list[LintFinding]) -> None:
    key = f"info.{name}"

    def add(level: str, sub: str, message: str) -> None:
        out.append(LintFinding(level, DATA_FILE, f"{key}.{sub}" if sub else key, message))

    if not isinstance(entry, dict):
        add("error", "", f"variable {name} must be an object with address and type (stable-retro rejects the file)")
        return
    if "address" not in entry:
        add("error", "address", f"missing address for {name}")
    if "type" not in entry:
        add("error", "type", f"missing type for {name}")
    address = entry.get("address")
    if "address" in entry and (isinstance(address, bool) or not isinstance(address, (int, float))):
        add("error", "address", f"the address of {name} must be a JSON integer (stable-retro rejects the file)")
        address = None
    elif isinstance(address, float):
        add("warning", "address", f"the address of {name} is not an integer; stable-retro truncates it")
        address = int(address)
    mask = entry.get("mask")
    if "mask" in entry and (isinstance(mask, bool) or not isinstance(mask, (int, float))):
        add("error", "mask", f"the mask of {name} must be a JSON integer (stable-retro rejects the file)")
    type_text = entry.get("type")
    if "type" in entry and not isinstance(type_text, str):
        add("error", "type", f"the type of {name} must be a string (stable-retro rejects the file)")
        return
    if type_text is None:
        return
    width = 1
    try:
        width = parse_type(type_text).width
    except InvalidTypeError as e:
        add("warning", "type", f"{name} is skipped by stable-retro: {e}")
    if not is_well_formed(type_text):
        add("error", "type", f"invalid type {type_text} for {name}")
    elif _SUSPICIOUS.match(type_text):
        add("warning", "type", f"suspicious type {type_text} for {name}")
    if isinstance(address, int):
        problem = address_problem(system, address, width)
        if address < 0:
            problem = "is negative"
        if problem:
            add("warning", "address", f"the address 0x{address:X} of {name} {problem}")


def lint_data(decoded: Any, system: str | None) -> list[LintFinding]:
    """Findings for a decoded ``data.json``.

    Args:
        decoded: The decoded file.
        system: The integration's system, for the address check (None skips it).
    """
    out: list[LintFinding] = []
    if not isinstance(decoded, dict) or "info" not in decoded:
        return [LintFinding("error", DATA_FILE, "info", "missing info")]
    info = decoded["info"]
    if info is None or info == [] or info == {}:
        return [LintFinding("warning", DATA_FILE, "info", "data.json has no variables")]
    if not isinstance(info, dict):
        return [LintFinding("error", DATA_FILE, "info", "info must be an object of variables")]
    for name, entry in info.items():
        _variable(name, entry, system, out)
    lives = info.get("lives")
    if isinstance(lives, dict) and isinstance(lives.get("type"), str) and lives["type"] not in _LIVES_TYPES:
        out.append(LintFinding("warning", DATA_FILE, "info.lives.type", f"suspicious type {lives['type']} for lives"))
    score = info.get("score")
    if isinstance(score, dict) and isinstance(score.get("type"), str):
        text = score["type"]
        if text[1:] in _ONE_BYTE_SCORE or "i" in text:
            out.append(LintFinding("warning", DATA_FILE, "info.score.type", f"suspicious type {text} for score"))
    return out
