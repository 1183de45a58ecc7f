"""The C side of one core session, and the order in which it is let go."""

from __future__ import annotations

import sys
import time
from typing import Any

from emucore.libretro._native import lib
from emucore.libretro.save_dirs import remove_save_dir

POLL_S = 0.001  # how often enter_when_free looks whether the call in flight has returned


def set_buttons(host: Any, port: int, bits: int) -> None:
    host.buttons[port] = bits


def memory_region_of(host: Any, region_id: int) -> tuple[Any, int]:
    """retro_get_memory_data and _size of one region, in one trip through CoreSession's call wrapper."""
    return lib.emu_get_memory_data(host, region_id), lib.emu_get_memory_size(host, region_id)


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
        self.closing = False  # a close() waits for the busy flag, or holds it

    def enter_when_free(self, token: int) -> bool:
        """Takes the busy flag (host.h) for ``token`` once the call in flight on another thread (or the batch
        step's) returns; False, with nothing taken, if the process is ending: a daemon thread stopped inside the
        core never leaves it. Marks the host ``closing``: a call refused meanwhile is told it is closed."""
        self.closing = True
        while not lib.emu_host_enter(self.host, token):
            if sys.is_finalizing():
                return False
            time.sleep(POLL_S)
        return True

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
