"""``Emulator``: one game running on one libretro core, with stable-retro's RetroEmulator API.

>>> from emucore.paths import integrations_dir
>>> with Emulator(integrations_dir() / "StudioDemo-Genesis" / "rom.md") as emu:
...     emu.set_button_mask(1 << 7); emu.step()        # RIGHT, for one frame
...     emu.get_screen().shape
(224, 320, 3)

Several emulators, of one core too, live in one process (each loads a private copy of its core); ``step()``
releases the GIL, so emulators on threads run in parallel. One thread at a time uses an emulator (EmulatorBusyError).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from emucore.errors import CoreError, GameLoadError, StateError
from emucore.host.corefinder import FoundCore, find_core
from emucore.host.memory import AddressSpace, Block
from emucore.host.rom import check_rom_loads, read_rom
from emucore.host.spare_core import SpareCore
from emucore.host.state_checks import other_core_note, state_problem
from emucore.host.state_probe import StateProbe
from emucore.integration import IntegrationError, read_state_file, write_state_file
from emucore.libretro import CoreSession, cartridge_ram
from emucore.libretro.structs import (
    DEVICE_JOYPAD,
    MEMORY_REGION_NAMES,
    MEMORY_SYSTEM_RAM,
    PIXEL_FORMAT_NAMES,
    Geometry,
    Timing,
)
from emucore.paths import core_system_dir
from emucore.systems import CoreLibrary, System, get_system, library, load_core_info, system_for_path

PLAYERS = 2
"""Controller ports the host drives, and players an integration scores (stable-retro's two)."""


def _compat_screen_size(core: CoreLibrary, rom_path: Path, geometry: Geometry) -> tuple[int, int]:
    """stable-retro's fixed observation size: av_info at load, patched per core."""
    width, height = geometry.base_width, geometry.base_height
    override = core.screen_override
    by_suffix = override.get("by_path_suffix", {})
    if str(rom_path)[-1:] in by_suffix:
        width, height = by_suffix[str(rom_path)[-1:]]
    if "width" in override:
        width = override["width"]
    if "size" in override:
        width, height = override["size"]
    return int(width), int(height)


class Emulator:
    """A ROM running on a libretro core.

    Args:
        rom_path: the ROM file; its extension selects the system (as in stable-retro).
        core: a core library name (``"nestopia"``) or a path to a ``.so``; by default the
            system's preferred core that is installed.
        options: core option overrides, ``{key: value}``.
        system: force a system token instead of deriving it from the extension.
    """

    def __init__(
        self,
        rom_path: str | os.PathLike[str],
        core: str | os.PathLike[str] | None = None,
        *,
        options: Mapping[str, str] | None = None,
        system: str | None = None,
    ):
        self.rom_path = Path(rom_path)
        self.system: System = get_system(system) if system else system_for_path(self.rom_path)
        self._rom_data = read_rom(self.rom_path, self.system)
        self.core: FoundCore = find_core(self.system, core)
        self.core_library = library(self.core.lib)
        self._options = dict(options or {})
        self._probe = StateProbe(self.core.lib, self.core.path, self._rom_data, self._options)  # states from outside
        self._address_space: AddressSpace | None = None
        self._address_key: tuple[Any, ...] = ()
        self._cheats = 0
        self._spare = SpareCore(self._open_core)  # reload_on_state_load: the next reset's core, loaded ahead
        check_rom_loads(self._open_core, self.rom_path, self._rom_data, self.core.lib, self.core.path, self._options)
        self._session = self._open_core()
        self._screen_size = _compat_screen_size(self.core_library, self.rom_path, self.session.load_geometry)
        self.step()  # stable-retro runs one frame at load, so a frame exists before any read

    # ---- lifecycle ----

    def _open_core(self) -> CoreSession:
        session = CoreSession(
            self.core.path,
            compat_answers=self.core_library.compat_options,
            options=self._options,
            system_dir=core_system_dir(),
        )
        session.label = f"the emulator for {self.rom_path.name}"
        try:
            if not session.load_game(self.rom_path, self._rom_data):
                said = session.recent_errors()
                detail = f"; the core said: {' | '.join(said[-3:])}" if said else ""
                raise GameLoadError(self.rom_path, f"the {self.core.lib} core refused to load it{detail}")
            cartridge_ram.clear(session.memory_maps, cartridge_ram.uninitialized_ranges(self.core.lib, self._rom_data))
            for port in range(PLAYERS):
                session.set_controller_port_device(port, DEVICE_JOYPAD)
        except BaseException:
            session.close()
            raise
        return session

    @property
    def session(self) -> CoreSession:
        """The core session; EmulatorClosedError after close()."""
        if self._session.closed:
            raise self._session.closed_error()
        return self._session

    def close(self) -> None:
        """Unloads the game and drops the private core copy (and a spare one). Safe to call twice. Waits for a
        call in flight on another thread. Memory views taken earlier stay readable (they hold the core)."""
        self._spare.close()
        self._session.close()
        self._address_space = None

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # AttributeError too: __init__ failed before the session
            self._session.close()

    # ---- running ----

    def step(self) -> None:
        """Runs exactly one frame with the buttons currently held."""
        self._session.run()

    def run_frames(self, count: int) -> None:
        """Runs ``count`` frames in one call into C (audio keeps only the last frame's)."""
        self._session.run(int(count))

    def reset(self) -> None:
        """The console's reset (retro_reset); Stella's core and game are reloaded first, as stable-retro does
        (a spare loaded ahead: emucore.host.spare_core). The reset after a reload matters: it draws from Stella's
        random generator, which decides what a game reading a cartridge RAM's write port stores (ElevatorAction)."""
        if self.core_library.reload_on_state_load:
            self._reload()
        self._session.reset()

    def _reload(self) -> None:
        """A fresh core for the same game, swapped in whole so no call finds the emulator half-open."""
        old = self._session
        buttons = [old.button_bits(i) for i in range(PLAYERS)]
        new = self._spare.take()
        for i, bits in enumerate(buttons):
            new.set_button_bits(i, bits)
        self._session = new
        self._address_space = None
        old.close()

    # ---- input ----

    @property
    def buttons(self) -> tuple[str | None, ...]:
        return self.system.buttons

    def set_button_mask(self, mask: int | Sequence[int] | np.ndarray, player: int = 0) -> None:
        """Holds buttons for ``player``: an int bitmask (bit i = libretro joypad id i), or a
        sequence of up to 16 flags in button-index order (stable-retro's form)."""
        if not 0 <= player < PLAYERS:
            raise ValueError(f"player {player} is out of range (0..{PLAYERS - 1})")
        if (type(mask) is np.ndarray and mask.ndim == 1 and mask.size <= 16 and mask.dtype.itemsize == 1
                and mask.dtype.kind in "biu"):
            self._session.set_button_flags(player, np.ascontiguousarray(mask))
            return
        if isinstance(mask, (int, np.integer)):
            bits = int(mask) & 0xFFFF
        else:
            flags = np.asarray(mask)
            if flags.ndim != 1 or flags.size > 16:
                raise ValueError(f"a button mask has at most 16 entries, got shape {flags.shape}")
            bits = int.from_bytes(np.packbits(flags != 0, bitorder="little").tobytes(), "little")
        self._session.set_button_bits(player, bits)

    def press(self, flags: np.ndarray, through: Any, player: int = 0) -> bool:
        """Holds buttons from C-contiguous 1-byte flags (0 or 1, one per button, at most 16), mapped
        through a ``uint16_t *`` table of what each mask becomes (``ActionGroups.filter_pointer``) or
        ``ffi.NULL``. False, with nothing changed, if a flag is not 0 or 1. The env's fast path."""
        return self._session.press(player, flags, through)

    def step_pressed(self, flags: np.ndarray, through: Any, out: np.ndarray) -> int:
        """``press(flags, through)``, ``step()`` and ``get_screen(out)`` in one call into C (the env's
        fast path; ``out`` as ``get_screen`` takes it, unchecked). 0: done; 1: the frame ran but the
        core rotates its picture, so ``out`` is untouched; -2: a flag is not 0 or 1, nothing ran."""
        return self._session.step_pressed(flags, through, out)

    def get_button_mask(self, player: int = 0) -> int:
        return self._session.button_bits(player)

    # ---- video and audio ----

    def get_screen(self, out: np.ndarray | None = None) -> np.ndarray:
        """The last frame as (H, W, 3) uint8 at stable-retro's fixed size for this game.

        Rows or columns the core did not render are zero (stable-retro shows stale memory).
        ``out``, a C-contiguous uint8 array of that shape, receives the frame without a new array.
        """
        width, height = self._screen_size
        if out is None:
            out = np.empty((height, width, 3), dtype=np.uint8)
        elif out.shape != (height, width, 3) or out.dtype != np.uint8 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous uint8 array of shape {(height, width, 3)}")
        self._session.convert_frame(out, width, height)
        return out

    def get_frame(self) -> np.ndarray:
        """The last frame at the size the core rendered it (for display)."""
        width, height = self._session.frame_size
        width, height = max(width, 1), max(height, 1)
        out = np.empty((height, width, 3), dtype=np.uint8)
        self._session.convert_frame(out, width, height)
        return out

    def get_resolution(self) -> tuple[int, int]:
        """(width, height) of get_screen()."""
        return self._screen_size

    @property
    def frame_size(self) -> tuple[int, int]:
        """(width, height) of the frame the core rendered last."""
        return self._session.frame_size

    @property
    def pixel_format(self) -> str:
        return PIXEL_FORMAT_NAMES.get(self._session.pixel_format, "?")

    def get_audio(self) -> np.ndarray:
        """The stereo samples of the last frame, (N, 2) int16."""
        return self._session.audio()

    @property
    def timing(self) -> Timing:
        timing = self.session.timing
        assert timing is not None
        return timing

    @property
    def geometry(self) -> Geometry:
        geometry = self.session.geometry
        assert geometry is not None
        return geometry

    def get_audio_rate(self) -> float:
        return self.timing.sample_rate

    def get_screen_rate(self) -> float:
        return self.timing.fps

    def get_rotation(self) -> int:
        return self._session.rotation

    @property
    def frame_count(self) -> int:
        """Frames run since the core was loaded."""
        return self._session.frames_run

    # ---- states ----

    def get_state(self) -> bytes:
        """The core's serialized state (retro_serialize), uncompressed."""
        state = self._session.serialize()
        if state is None:
            raise StateError(None, f"the {self.core.lib} core could not serialize its state")
        self._probe.trust(state)
        return state

    def set_state(self, state: bytes, *, source: str | os.PathLike[str] | None = None) -> bool:
        """Loads a state from get_state(); StateError if the core rejects it. Returns True."""
        state = bytes(state)  # one copy, checked and loaded: a buffer may change between the two
        problem = self._state_problem(state)
        if problem is None:
            if self.core_library.reload_on_state_load:
                self.reset()  # stable-retro resets Stella (reload, then retro_reset) before each state load
            try:
                ok = self._session.unserialize(state)
            except CoreError as exc:
                raise StateError(source, f"the {self.core.lib} core failed on it ({exc})") from exc
            if ok:
                return True
            problem = f"the {self.core.lib} core rejected it (another core or version, or corrupt)"
        raise StateError(source, problem + other_core_note(self.system, self.core.lib))

    def check_state(self, state: bytes, *, source: str | os.PathLike[str] | None = None) -> None:
        """Raises the StateError ``set_state`` would for a state this core can tell is unusable, without loading it."""
        problem = self._state_problem(state)
        if problem is not None:
            raise StateError(source, problem + other_core_note(self.system, self.core.lib))

    def _state_problem(self, state: bytes) -> str | None:
        return state_problem(self.core_library, self._session.serialize_size, state) or self._probe.problem(
            self._session, state)  # a forked copy of the process loads it first (emucore.host.state_probe)

    def load_state_file(self, path: str | os.PathLike[str]) -> None:
        """Loads a gzip ``.state`` file (stable-retro's format); errors name the file."""
        path = Path(path)
        if not path.exists():
            raise StateError(path, "no such file")
        try:
            state = read_state_file(path)
        except IntegrationError as exc:
            raise StateError(path, f"not a gzip-compressed state ({exc.problem})") from exc
        self.set_state(state, source=path)

    def save_state_file(self, path: str | os.PathLike[str]) -> None:
        """Writes the current state as a gzip ``.state`` file, atomically."""
        write_state_file(path, self.get_state())

    # ---- memory ----

    def memory_regions(self) -> dict[str, np.ndarray]:
        """The core's memory regions (system_ram, save_ram, video_ram, rtc) as zero-copy views."""
        views = {name: self.session.memory_region(region_id) for region_id, name in MEMORY_REGION_NAMES.items()}
        return {name: view for name, view in views.items() if view.size}

    @property
    def memory(self) -> AddressSpace:
        """The game's address space: data.json addresses, typed reads and writes."""
        session = self.session
        # Blocks are the descriptors' pointers, and a core that moves them sends new maps; else
        # the one block is SYSTEM_RAM, wherever the core said it was after its last frame.
        key = (session.memory_maps_version,) if session.memory_maps else session.memory_location
        if self._address_space is None or key != self._address_key:
            self._address_space = self._build_address_space()
            self._address_key = key
        return self._address_space

    def _build_address_space(self) -> AddressSpace:
        session = self.session
        blocks: dict[int, Block] = {}
        if session.memory_maps:
            for desc in session.memory_maps:
                if desc.is_const:
                    continue
                if desc.ptr:
                    data = session.descriptor_view(desc)
                else:
                    data = np.zeros(desc.view_length, dtype=np.uint8)
                blocks[desc.start] = Block(desc.start, data)
        else:
            ram = session.memory_region(MEMORY_SYSTEM_RAM)
            if ram.size:
                blocks[self.system.rambase] = Block(self.system.rambase, ram)
        return AddressSpace(blocks.values(), self.system.overlay)

    def configure_data(self, data: Any) -> None:
        """stable-retro's: ``data`` (an ``emucore.data.GameData``) reads this emulator's memory from now on."""
        data.configure(self)

    load_core_info = staticmethod(load_core_info)  # stable-retro's RetroEmulator.load_core_info(json_text)

    def get_ram(self) -> np.ndarray:
        """All RAM blocks in address order, raw: the same bytes as stable-retro's env.get_ram(). Like ``read`` and
        ``write``, a call into the emulator (EmulatorBusyError while another thread is inside it)."""
        memory = self.memory  # built first: building it calls into the core
        return self._session.call(lambda _host: memory.get_ram())

    def read(self, address: int, type_text: str, mask: int | None = None) -> int:
        """A typed read by data.json address and type: ``emu.read(0xFF0010, ">u2")``."""
        memory, masks = self.memory, () if mask is None else (mask,)
        return self._session.call(lambda _host: memory.read(address, type_text, *masks))

    def write(self, address: int, type_text: str, value: int) -> None:
        memory = self.memory
        self._session.call(lambda _host: memory.write(address, type_text, value))

    # ---- cheats ----

    def add_cheat(self, code: str) -> None:
        self._session.cheat_set(self._cheats, True, code)
        self._cheats += 1

    def clear_cheats(self) -> None:
        self._session.cheat_reset()
        self._cheats = 0

    def __repr__(self) -> str:
        state = "closed" if self._session.closed else f"frame {self.frame_count}"
        return f"<Emulator {self.rom_path.name} on {self.core.lib} ({self.system.name}), {state}>"
