"""Button flags to bitmasks in C: the per-step decoding of MultiBinary actions."""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.libretro._native import ffi, lib


def flags_to_mask(flags: np.ndarray) -> int:
    """The bitmask of a C-contiguous array of one uint8 (or bool) flag per button, bit i for
    flag i; -1 when a flag is neither 0 nor 1 or there are more than 48."""
    return int(lib.emu_flags_to_mask(ffi.from_buffer(flags), flags.size))


def mask_table(table: np.ndarray | None) -> Any:
    """A uint16 array of what each button mask becomes, as the ``uint16_t *`` ``CoreSession.press``
    takes (NULL for None: masks as they are). The array must live as long as the pointer is used."""
    if table is None:
        return ffi.NULL
    if table.dtype != np.uint16 or not table.flags.c_contiguous:
        raise ValueError("a mask table is a C-contiguous uint16 array")
    return ffi.from_buffer("uint16_t[]", table)
