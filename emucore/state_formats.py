"""Structure checks of core states, made before a state reaches a core that would hang on it.

Some cores trust the lengths inside a state. fceumm's loader walks FCEUX's sections and chunks by
their declared sizes: a chunk whose size runs past its section makes it loop forever inside
``retro_unserialize`` (found by corrupting one byte of a real state), where nothing can stop it.
A state from an untrusted integration is therefore checked here first; a core library opts in
with ``"state_format"`` in ``cores/libraries/<lib>.json``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

FCEUX_HEADER = 16  # "FCS", version byte, u32 size of what follows, u32 new version, u32 compressed size
FCEUX_SECTION = 5  # u8 type, u32 size
FCEUX_CHUNK = 8  # 4-byte name, u32 size


def fceux_problem(state: bytes) -> str | None:
    """What is wrong with the layout of an FCEUX state (fceumm), or None if its lengths add up."""
    data = memoryview(state)
    if len(data) < FCEUX_HEADER or bytes(data[:3]) != b"FCS":
        return "not an FCEUX state (it must start with 'FCS' and a 16-byte header)"
    (declared,) = struct.unpack_from("<I", data, 4)
    if declared != len(data) - FCEUX_HEADER:
        return f"the header declares {declared} bytes of sections, the state has {len(data) - FCEUX_HEADER}"
    at = FCEUX_HEADER
    while at < len(data):
        if at + FCEUX_SECTION > len(data):
            return f"a section header at byte {at} is cut off"
        kind, size = struct.unpack_from("<BI", data, at)
        start, end = at + FCEUX_SECTION, at + FCEUX_SECTION + size
        if end > len(data):
            return f"section {kind} at byte {at} declares {size} bytes, past the end of the state"
        problem = _fceux_chunks(data, start, end, kind)
        if problem:
            return problem
        at = end
    return None


def _fceux_chunks(data: memoryview, start: int, end: int, section: int) -> str | None:
    at = start
    while at < end:
        if at + FCEUX_CHUNK > end:
            return f"a chunk header at byte {at} runs past the end of section {section}"
        (size,) = struct.unpack_from("<I", data, at + 4)
        if at + FCEUX_CHUNK + size > end:
            name = bytes(data[at : at + 4]).decode("latin-1")
            return f"chunk {name!r} at byte {at} declares {size} bytes, past the end of section {section}"
        at += FCEUX_CHUNK + size
    return None


CHECKS: dict[str, Callable[[bytes], str | None]] = {"fceux": fceux_problem}


def state_problem(state_format: str | None, state: bytes) -> str | None:
    """The problem ``state_format``'s check finds in ``state``, or None (also for formats without one)."""
    check = CHECKS.get(state_format or "")
    return check(state) if check is not None else None
