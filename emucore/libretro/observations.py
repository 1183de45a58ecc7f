"""Observations made in C from the core's last frames: crop, maximum of two frames, gray, area resize.

The C side (frames.c) follows Stable-Baselines3's ``MaxAndSkipEnv`` then ``WarpFrame``: the
per-channel maximum of the last two frames, OpenCV's RGB-to-gray, then OpenCV's ``INTER_AREA``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from emucore.libretro._native import ffi, lib


class ObservationPlan:
    """How an emulator's frames become observations of ``shape`` (out_h, out_w, 3 or 1).

    ``screen`` is the (width, height) of ``get_screen()``, ``crop`` (x, y, w, h) the region of it
    observed and ``size`` the (height, width) it is resampled to, at most the crop's."""

    def __init__(self, session: Callable[[], Any], screen: tuple[int, int], crop: tuple[int, int, int, int],
                 size: tuple[int, int], gray: bool):
        (screen_w, screen_h), (x, y, w, h), (out_h, out_w) = screen, crop, size
        plan = lib.emu_obs_new(screen_w, screen_h, x, y, w, h, out_w, out_h, int(gray))
        if plan == ffi.NULL:
            raise MemoryError(f"no memory for observations of {out_h}x{out_w} from a {w}x{h} crop")
        self._plan = ffi.gc(plan, lib.emu_obs_free)
        self._session = session  # the emulator's current session: a reload swaps it
        self.shape = (out_h, out_w, 1 if gray else 3)

    @property
    def pointer(self) -> Any:
        """The C plan (``emu_obs *``), for frame loops in C that hold a frame (emucore.libretro.native_evaluator)."""
        return self._plan

    def hold(self) -> None:
        """Keeps the current frame, to be pooled with the next."""
        self._session().call(lib.emu_obs_hold, self._plan)

    def build(self, out: np.ndarray, pool: bool) -> np.ndarray:
        """The current frame's observation (its maximum with the held frame if ``pool``) into ``out``."""
        if out.shape != self.shape or out.dtype != np.uint8 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous uint8 array of shape {self.shape}")
        self._session().call(lib.emu_obs_build, self._plan, int(pool), ffi.from_buffer("uint8_t[]", out))
        return out
