"""Button flags to bitmasks in C: the per-step decoding of MultiBinary actions."""

from __future__ import annotations

import numpy as np

from emucore.libretro._native import ffi, lib


def flags_to_mask(flags: np.ndarray) -> int:
    """The bitmask of a C-contiguous array of one uint8 (or bool) flag per button, bit i for
    flag i; -1 when a flag is neither 0 nor 1 or there are more than 48."""
    return int(lib.emu_flags_to_mask(ffi.from_buffer(flags), flags.size))
