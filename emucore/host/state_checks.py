"""Checks of a state before a core sees it: type, size, the core's signature, and structure.

A core handed a state it cannot use may reject it, or may not: some read past it, some hang.

Some cores trust the lengths inside a state. fceumm's loader walks FCEUX's sections and chunks by
their declared sizes: a chunk whose size runs past its section makes it loop forever inside
``retro_unserialize`` (found by corrupting one byte of a real state), where nothing can stop it.
A state from an untrusted integration is therefore checked here first; a core library opts in
with ``"state_format"`` in ``cores/libraries/<lib>.json``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from emucore.errors import DISTRIBUTION
from emucore.host.corefinder import find_library
from emucore.integration.statefile import MAX_STATE_BYTES
from emucore.systems import CoreLibrary, System

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


def state_problem(library: CoreLibrary, expected_size: Callable[[], int], state: object) -> str | None:
    """Why ``library``'s core cannot use ``state``, or None.

    Args:
        library: The core's descriptor (its signature, whether its state size varies, its format).
        expected_size: The core's ``retro_serialize_size`` for the loaded game.
        state: What was passed as a state.
    """
    if not isinstance(state, (bytes, bytearray, memoryview)):
        return f"a state is bytes, not {type(state).__name__}"
    size = len(state)
    if size == 0:
        return "empty"
    if size > MAX_STATE_BYTES:
        return f"{size} bytes is larger than any core state"
    signature = library.state_signature
    if signature and bytes(state[: len(signature) + 16]).find(signature.encode()) < 0:
        return f"not a {library.lib} state (no {signature!r} signature)"
    expected = expected_size()
    if not library.state_size_varies and size < expected:
        return f"truncated: {size} bytes, the {library.lib} core's states for this game have {expected}"
    check = CHECKS.get(library.state_format or "")
    return check(bytes(state)) if check is not None else None


def other_core_note(system: System, lib: str) -> str:
    """For a state the ``lib`` core cannot use: where ``lib`` is not the core stable-retro runs ``system`` with
    (whose states the integrations ship), which core that is and how to get it; else ``""``."""
    preferred = system.cores[0]
    if lib == preferred:
        return ""
    made = f"; {system.name} states (the integrations' among them) are made for {preferred}, stable-retro's core"
    if find_library(preferred):
        return f"{made}, which is installed: leave the core unchosen (core=None) to run {preferred}"
    return f"{made}, not installed here (so {lib} runs): pip install '{DISTRIBUTION}[cores]'"
