"""Each core session draws rand() from a generator of its own (core_rand.h), whatever other threads draw.

picodrive draws from rand() while loading Airstriker, and what it draws shows in RAM some frames later
(the spec's section 8). Another thread that reseeds and draws from glibc's shared generator all the while
must not change a frame of it.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest

from emucore import Emulator
from tests.conftest import require_core

START = 1 << 3


def _ram_trace(rom, core: str) -> list[bytes]:
    with Emulator(rom, core=core) as emu:
        trace = []
        for i in range(400):
            emu.set_button_mask(START if (i // 10) % 2 else 0)
            emu.step()
            trace.append(emu.get_ram().tobytes())
        return trace


class _Reseeding(threading.Thread):
    """Reseeds glibc's generator and draws from it until stopped."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.libc = ctypes.CDLL("libc.so.6")
        self.stop = threading.Event()
        self.draws = 0

    def run(self) -> None:
        seeds = np.random.default_rng(3).integers(0, 1 << 31, 4096)
        while not self.stop.is_set():
            self.libc.srand(int(seeds[self.draws % len(seeds)]))
            self.libc.rand()
            self.draws += 1


@pytest.mark.parametrize("core", ["picodrive", "genesis_plus_gx"])
def test_a_session_draws_the_same_whatever_other_threads_draw(airstriker, core):
    require_core(core)
    rom = airstriker / "rom.md"
    with Emulator(rom, core=core) as emu:
        assert emu._session.host_pointer.rand_imports >= 1, f"{core}'s rand import was not bound"
    alone = _ram_trace(rom, core)
    noise = _Reseeding()
    noise.start()
    try:
        beside = _ram_trace(rom, core)
    finally:
        noise.stop.set()
        noise.join()
    assert noise.draws > 1000
    first = next((i for i, (a, b) in enumerate(zip(alone, beside)) if a != b), None)
    assert first is None, f"{core}'s RAM differs from frame {first} while another thread reseeded rand()"


def test_a_core_without_rand_binds_nothing(nes_rom):
    require_core("fceumm")
    with Emulator(nes_rom, core="fceumm") as emu:
        assert emu._session.host_pointer.rand_imports == 0
