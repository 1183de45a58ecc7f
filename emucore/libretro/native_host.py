"""The C side of one core session, and the order in which it is let go."""

from __future__ import annotations

from typing import Any

from emucore.libretro._native import lib
from emucore.libretro.save_dirs import remove_save_dir


class NativeHost:
    """The C host of one session. The core is unloaded by ``shutdown``; the host struct itself is
    freed only when the session is garbage, so a read of its fields never touches freed memory."""

    def __init__(self, host: Any, save_dir: str):
        self.host = host
        self.save_dir = save_dir
        self.core_open = False  # the library is loaded
        self.initialized = False  # retro_init ran
        self.game_loaded = False
        self.freed = False

    def shutdown(self) -> None:
        if self.freed:
            return
        if self.initialized:
            self.initialized = False
            if self.game_loaded:
                self.game_loaded = False
                lib.emu_unload_game(self.host)
            lib.emu_deinit(self.host)
        self.core_open = False
        lib.emu_host_close(self.host)
        remove_save_dir(self.save_dir)

    def free(self) -> None:
        """The session is garbage. In a reference cycle the collector calls this (a weakref callback)
        before the ``__del__`` of the objects in the cycle, whose ``close()`` then finds nothing to do."""
        if self.freed:
            return
        self.shutdown()
        self.freed = True
        lib.emu_host_free(self.host)
