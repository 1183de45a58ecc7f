"""The game being played: the emulator, the keys held, pause and frame advance. No Qt."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from emucore import Emulator
from emucore.systems import System
from studio.model.clock import FrameClock


class PlaySession:
    """One emulator driven interactively.

    The view reports key presses by the names used in the system descriptor's keybinds
    (``"X"``, ``"ENTER"``, ``"UP"`` ...); the session turns them into the pad's button mask.
    """

    def __init__(self, rom_path: str | os.PathLike[str], state_path: str | os.PathLike[str] | None = None,
                 core: str | None = None):
        self.emulator = Emulator(rom_path, core=core)
        self.state_path = Path(state_path) if state_path else None
        if self.state_path:
            self.emulator.load_state_file(self.state_path)
        self.start_state = self.emulator.get_state()
        self.clock = FrameClock(self.emulator.get_screen_rate())
        self.paused = False
        self.frames = 0
        self._held: set[str] = set()
        self._key_to_bit = {
            key: 1 << index for index, key in enumerate(self.system.keybinds) if key is not None
        }
        self.listeners: list[Callable[[], None]] = []

    @property
    def system(self) -> System:
        return self.emulator.system

    @property
    def title(self) -> str:
        rom = self.emulator.rom_path
        return rom.parent.name if rom.stem == "rom" else rom.name

    # ---- input ----

    def key_down(self, key: str) -> bool:
        """Returns True when the key is bound to a button of this system."""
        if key not in self._key_to_bit:
            return False
        self._held.add(key)
        self._apply_keys()
        return True

    def key_up(self, key: str) -> bool:
        if key not in self._key_to_bit:
            return False
        self._held.discard(key)
        self._apply_keys()
        return True

    def _apply_keys(self) -> None:
        mask = 0
        for key in self._held:
            mask |= self._key_to_bit[key]
        self.emulator.set_button_mask(mask)

    # ---- running ----

    def tick(self) -> int:
        """Runs the frames the clock says are due; returns how many ran."""
        if self.paused:
            return 0
        count = self.clock.due()
        for _ in range(count):
            self.emulator.step()
        self.frames += count
        if count:
            self._notify()
        return count

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if not paused:
            self.clock.restart()
        self._notify()

    def advance(self, frames: int = 1) -> None:
        """Frame advance: runs ``frames`` frames now, whether paused or not."""
        for _ in range(frames):
            self.emulator.step()
        self.frames += frames
        self._notify()

    def reset_to_start(self) -> None:
        self.emulator.set_state(self.start_state)
        self.frames = 0
        self._notify()

    def screen(self) -> np.ndarray:
        return self.emulator.get_frame()

    def _notify(self) -> None:
        for listener in self.listeners:
            listener()

    def close(self) -> None:
        self.emulator.close()
