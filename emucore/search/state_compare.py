"""Searching across save states: memory read from a state, and values matched to labels.

>>> from emucore import Emulator
>>> from emucore.paths import integrations_dir
>>> emulator = Emulator(integrations_dir() / "StudioDemo-Nes" / "rom.nes")
>>> emulator.run_frames(60)
>>> states = {}                           # the player's x as the screen shows it, by state
>>> for shown, frames in [(130, 10), (150, 20), (180, 30)]:
...     emulator.set_button_mask(1 << 7); emulator.run_frames(frames); emulator.set_button_mask(0)
...     states[shown] = emulator.get_state()
>>> found = compare_states(emulator, states, ["|u1"])
>>> [(hex(c.address), c.type) for c in found.candidates][:2]     # x, then a sprite's copy of it
[('0x16', '|u1'), ('0x203', '|u1')]

The emulator is left exactly as it was: each state is loaded, its memory copied, and the
emulator's own state loaded back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from emucore.operations import Change, Operation
from emucore.search.memory_search import MemorySearch
from emucore.search.ops import refine_set
from emucore.search.snapshot import Snapshot, snapshot_from_state

MODES = ("equal", "order", "order-either")


def _snapshot(emulator: Any, item: Snapshot | bytes, label: str) -> Snapshot:
    return item if isinstance(item, Snapshot) else snapshot_from_state(emulator, bytes(item), label)


def compare_states(
    emulator: Any,
    labelled: Mapping[int, Snapshot | bytes],
    types: Iterable[str] | None = None,
    mode: str = "equal",
) -> MemorySearch:
    """The addresses and types whose values match labels given to snapshots or states.

    Args:
        emulator: The emulator the states belong to (left as it was).
        labelled: ``{label value: snapshot or state bytes}``, e.g. ``{3: s3, 2: s2, 1: s1}``.
        types: As for :class:`MemorySearch` (default: the system's).
        mode: ``"equal"``: the value equals the label in every state. ``"order"``: the values are
            ordered as the labels are (strictly; equal labels, equal values). ``"order-either"``:
            the same order or the reverse one (e.g. "lives lost" for lives).

    Returns:
        A new :class:`MemorySearch` whose current step holds the matches (undo goes back to
        every candidate); its "previous" snapshot is memory now, so it can be refined further.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if not labelled:
        raise ValueError("compare_states needs at least one labelled state")
    search = MemorySearch(emulator, types)
    items = sorted(((int(k), _snapshot(emulator, v, f"= {k}")) for k, v in labelled.items()), key=lambda kv: kv[0])
    st = search.search_types
    cset = search.candidates_set
    if mode == "equal":
        for label, snap in items:
            cset = refine_set(cset, st, Operation.EQUAL, label, snap)
    else:
        if len(items) < 2:
            raise ValueError(f"mode {mode!r} needs at least two labelled states")
        rising = falling = cset
        for (low, before), (high, after) in zip(items, items[1:]):
            same = low == high
            rising = refine_set(rising, st, Change.UNCHANGED if same else Change.INCREASED, None, after, before)
            if mode == "order-either":
                falling = refine_set(falling, st, Change.UNCHANGED if same else Change.DECREASED, None, after, before)
        cset = rising.union(falling) if mode == "order-either" else rising
    labels = ", ".join(str(k) for k, _ in items)
    search.install(cset, f"states {mode} {labels}")
    return search


__all__ = ["MODES", "compare_states", "snapshot_from_state"]
