"""What makes a type at an address a plausible home for a value, shared by the solver
(:mod:`emucore.assist.value_solver`) and the grouping of search candidates (:mod:`emucore.search.grouping`):
an exact encoding, the narrowest width that holds the values, the system's byte order and word
alignment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore.search.snapshot import Snapshot
from emucore.search.typelist import SearchType

KIND_RANK = {"u": 0, "d": 1, "n": 2}  # binary before BCD before nibbles
NATURAL_WIDTHS = (1, 2, 4, 8)


@dataclass(frozen=True)
class Preferences:
    """The system's byte order and whether its 2- and 4-byte values sit at even addresses."""

    native: str  # "big", "little" or "" (no preference)
    word_aligned: bool


def preferences(emulator: Any) -> Preferences:
    """The system descriptor's byte order (``cores/systems/*.json``: the 6502 of the NES and the
    Atari 2600 is little-endian, the 68000 big-endian); 16-bit alignment on big-endian systems."""
    native = getattr(getattr(emulator, "system", None), "byte_order", "") or ""
    return Preferences(native, native == "big")


def width_tops(st: SearchType, binary_widths: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(widths, largest value each holds)`` for the widths of this kind tried as "ideal"."""
    widths = np.array(binary_widths if st.digits == "u" else range(1, 9), dtype=np.int64)
    if st.digits == "d":
        tops = [100**w - 1 for w in widths]
    elif st.digits == "n":
        tops = [10**w - 1 for w in widths]
    else:
        tops = [(1 << (8 * int(w) - int(st.signed))) - 1 for w in widths]
    return widths, np.array([min(t, (1 << 63) - 1) for t in tops], dtype=np.int64)


def misfit(st: SearchType, largest: np.ndarray, digits: int | None) -> np.ndarray:
    """Rule 4: bytes between ``st``'s width and the narrowest of its kind that holds ``digits``
    drawn digits (binary: of 1, 2, 4 or 8 bytes), else the largest stored value."""
    if digits is not None:
        widths, tops = width_tops(st, NATURAL_WIDTHS)
        need = np.full(len(largest), min(10**digits - 1, (1 << 63) - 1), dtype=np.int64)
    else:
        widths, tops = width_tops(st, tuple(range(1, 9)))
        need = largest
    ideal = widths[np.minimum(np.searchsorted(tops, need), len(widths) - 1)]
    odd = st.digits == "u" and st.width not in NATURAL_WIDTHS  # 3-byte binary numbers are rare
    return np.abs(st.width - ideal) + int(odd)


def raw_bytes(snaps: list[Snapshot], positions: np.ndarray, width: int) -> np.ndarray:
    """``(checkpoints, candidates, width)`` logical bytes of each candidate."""
    index = positions[:, None] + np.arange(width)
    return np.stack([snap.buf[index] for snap in snaps])


def exact(st: SearchType, raw: np.ndarray) -> np.ndarray:
    """Whether each candidate's bytes are exactly the type's encoding at every snapshot (valid BCD, digits 0-9)."""
    if st.digits == "u":
        return np.ones(raw.shape[1], dtype=bool)
    if st.digits == "d":
        return np.asarray((((raw & 0xF) <= 9) & ((raw >> 4) <= 9)).all(axis=(0, 2)))
    return np.asarray((raw <= 9).all(axis=(0, 2)))
