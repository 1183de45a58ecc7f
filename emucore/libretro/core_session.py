"""One loaded libretro core: a private copy of its library, its callbacks and environment.

libretro keeps all emulator state in the library's globals, and a second ``dlopen`` of the same file returns
the same image: each session loads its own copy of the library (``private_library``), independent of the others.

This class owns the C boundary. Every call into the core goes through :meth:`CoreSession._call`:
- **One thread at a time.** A call while another thread is inside the core raises :class:`EmulatorBusyError`
  (the C side releases the GIL, so two threads in one core would corrupt it). The busy flag is the host's (host.h):
  a vector env's batch step in C takes it too for each env it steps. ``close()`` waits for a call in flight.
- **Callback errors.** Exceptions raised by callbacks during the call are raised when the core returns: the
  exception itself, or a ``BaseExceptionGroup`` when there were several.
- **Memory views keep the core loaded.** The arrays of :meth:`memory_region` and :meth:`descriptor_view` stay
  readable after ``close()`` (they show the memory as it was): the core is unloaded when the session is closed and
  the last view is gone.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import threading
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from emucore.errors import CoreError, CoreLoadError, EmulatorBusyError, EmulatorClosedError
from emucore.libretro import environment
from emucore.libretro._native import ffi, lib
from emucore.libretro.native_host import NativeHost, memory_region_of, set_buttons
from emucore.libretro.options import OptionStore
from emucore.libretro.private_library import private_copy
from emucore.libretro.save_dirs import make_save_dir, remove_save_dir
from emucore.libretro.structs import ControllerType, Geometry, InputDescriptor, MemoryDescriptor, SystemInfo, Timing

LOG_LEVELS = (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR)
_CALL_TOKENS = itertools.count(1)  # each call's token for the busy flag (next() is atomic under the GIL)
LIBC_SEED = 1  # rand()'s state in a process that never seeded it, as under stable-retro
T = TypeVar("T")
_LOADING = threading.Lock()  # glibc's rand() state, for a core whose rand imports were not bound (core_rand.h)


class CoreSession:
    """A libretro core, loaded privately, with a complete environment implementation.

    ``retro_set_environment`` and ``retro_init`` run in the constructor; load content with
    :meth:`load_game`. ``label`` names the session in error messages.
    """

    def __init__(
        self,
        core_path: str | os.PathLike[str],
        *,
        compat_answers: Mapping[str, str | None] | None = None,
        options: Mapping[str, str] | None = None,
        system_dir: str | os.PathLike[str] | None = None,
        log_sink: Callable[[int, str], None] | None = None,
    ):
        self.core_path = Path(core_path)
        core_name = self.core_path.stem.removesuffix("_libretro")
        self.label = f"the {core_name} core"
        self.options = OptionStore(compat_answers=dict(compat_answers or {}), overrides=dict(options or {}))
        self.logger = logging.getLogger(f"emucore.core.{core_name}")
        self.log_lines: deque[tuple[int, str]] = deque(maxlen=200)
        self.log_sink = log_sink
        self.memory_maps: list[MemoryDescriptor] = []
        self.memory_maps_version = 0
        self.input_descriptors: list[InputDescriptor] = []
        self.controller_info: list[list[ControllerType]] = []
        self.messages: list[str] = []
        self.serialization_quirks = 0
        self.support_no_game = False
        self.shutdown_requested = False
        self.geometry: Geometry | None = None
        self.timing: Timing | None = None
        self.environment_calls: dict[int, int] = {}
        self.callback_thread: int | None = None  # the thread running one of our callbacks
        self._errors: list[BaseException] = []
        self._closed = False
        self._views = 0
        self._views_lock = threading.RLock()  # a view dropped by GC may land inside

        if not self.core_path.is_file():
            raise CoreLoadError(self.core_path, "no such file")
        save_dir = make_save_dir()
        system = Path(system_dir) if system_dir else Path(save_dir)
        self.system_dir_c: Any = ffi.new("char[]", str(system).encode())
        self.save_dir_c: Any = ffi.new("char[]", save_dir.encode())
        self.core_path_c: Any = ffi.new("char[]", str(self.core_path).encode())
        self._handle = ffi.new_handle(self)
        host = lib.emu_host_new(self._handle)
        if host == ffi.NULL:
            remove_save_dir(save_dir)
            raise MemoryError("cannot allocate the libretro host")
        self._native = NativeHost(host, save_dir)
        self._host = host
        self._finalizer = weakref.finalize(self, self._native.free)
        self._finalizer.atexit = False  # at exit only the save folders go (save_dirs)
        try:
            system.mkdir(parents=True, exist_ok=True)
            with private_copy(self.core_path) as path:
                if lib.emu_host_open(host, path.encode()) != 0:
                    raise CoreLoadError(self.core_path, ffi.string(host.error).decode("utf-8", "replace"))
            self._native.core_open = True
            self.api_version = self._call(lib.emu_api_version)
            self._call(lib.emu_set_callbacks)
            self._call(self._init)
            info = ffi.new("struct retro_system_info *")
            self._call(lib.emu_get_system_info, info)
        except BaseException:
            self._errors.clear()  # the exception on its way out says what went wrong
            with contextlib.suppress(Exception):
                self.close()
            raise
        self.system_info = SystemInfo(
            library_name=environment.c_text(info.library_name) or self.core_path.stem,
            library_version=environment.c_text(info.library_version) or "",
            valid_extensions=tuple(e for e in (environment.c_text(info.valid_extensions) or "").split("|") if e),
            need_fullpath=bool(info.need_fullpath),
            block_extract=bool(info.block_extract),
        )

    def _init(self, host: Any) -> None:
        if lib.emu_init(host):
            raise self.core_threw("retro_init")
        self._native.initialized = True

    # ---- the one way into the core ----

    def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(host, *args)``, a C helper of ``_native``, under the rules of a call into the core."""
        return self._call(function, *args)

    def _call(self, function: Callable[..., T], *args: Any) -> T:
        host = self._host
        token = next(_CALL_TOKENS)
        try:  # entered inside the try: an interrupt just after the enter still lets the flag go
            if not lib.emu_host_enter(host, token):  # the busy flag the batch step (step_batch.h) takes too
                raise self._busy()
            if self._closed:
                raise self.closed_error()
            result = function(host, *args)
        finally:
            lib.emu_host_leave(host, token)  # only if this call holds it
        if self._errors:
            self._raise_callback_errors()
        return result

    def closed_error(self) -> EmulatorClosedError:
        return EmulatorClosedError(f"{self.label} is closed")

    def _busy(self) -> EmulatorBusyError | EmulatorClosedError:
        if self.callback_thread == threading.get_ident():
            return EmulatorBusyError(f"{self.label} was called from inside one of its own callbacks")
        if self._native.closing:  # the other thread is closing it: what the caller meets is the close
            return self.closed_error()
        return EmulatorBusyError(f"{self.label} is running on another thread; an emulator is used by one thread at "
                                 "a time (make one emulator per thread)")

    def _raise_callback_errors(self) -> None:
        errors, self._errors = self._errors, []
        if len(errors) == 1:
            raise errors[0]
        raise BaseExceptionGroup(f"{len(errors)} exceptions in callbacks of {self.label}", errors)

    def stash_error(self, exc: BaseException) -> None:
        """Keeps an exception raised inside a callback, for the call wrapper to raise."""
        self._errors.append(exc)

    def check(self) -> None:
        """Raises what callbacks raised outside any call (from a core's own thread)."""
        if self._errors:
            self._raise_callback_errors()

    def log(self, level: int, text: str) -> None:
        level = min(max(level, 0), 3)
        self.log_lines.append((level, text))
        self.logger.log(LOG_LEVELS[level], "%s", text)
        if self.log_sink is not None:
            self.log_sink(level, text)

    def recent_errors(self) -> list[str]:
        """The core's recent warning and error log lines, to explain a failure."""
        return [text for level, text in self.log_lines if level >= 2]

    # ---- game ----

    def load_game(self, path: Path, data: bytes) -> bool:
        """Passes both the absolute path and the bytes, as stable-retro does."""
        self._game_path_c = ffi.new("char[]", str(path.resolve()).encode())
        self._game_data_c = ffi.from_buffer(data)
        game = ffi.new("struct retro_game_info *")
        game.path = self._game_path_c
        game.data = self._game_data_c
        game.size = len(data)
        with _LOADING:  # cores that draw from rand() while loading (Stella, Genesis Plus GX) start from one seed
            lib.emu_host_srand(self._host, LIBC_SEED)
            loaded = self._call(self._load, game)
        if loaded:
            self.refresh_av_info()
        return self._native.game_loaded

    def _load(self, host: Any, game: Any) -> bool:
        loaded = lib.emu_load_game(host, game)
        self._native.game_loaded = loaded == 1  # kept even if a callback raised
        if loaded < 0:
            raise self.core_threw("retro_load_game")
        return self._native.game_loaded

    def refresh_av_info(self) -> None:
        av = ffi.new("struct retro_system_av_info *")
        self._call(lib.emu_get_system_av_info, av)
        self.load_geometry = environment.geometry_of(av.geometry)
        self.geometry = self.load_geometry
        self.timing = Timing(float(av.timing.fps), float(av.timing.sample_rate))

    def set_controller_port_device(self, port: int, device: int) -> None:
        self._call(lib.emu_set_controller_port_device, port, device)

    # ---- running ----

    def run(self, count: int = 1) -> None:
        self._call_guarded("retro_run", lib.emu_run_frames, count)  # for one frame, the same as emu_run

    def _call_guarded(self, name: str, function: Callable[..., int], *args: Any) -> int:
        """``_call`` of a C helper whose core entry point guard.cpp catches: CoreError if the core threw (-1)."""
        result = self._call(function, *args)
        if result < 0:
            raise self.core_threw(name)
        return result

    def core_threw(self, function: str) -> CoreError:
        """The core threw a C++ exception (caught at the boundary): its state is whatever it left."""
        message = ffi.string(self._host.error).decode("utf-8", "replace")
        return CoreError(f"{self.label}: {function}: {message}; load a state or reset before going on")

    def reset(self) -> None:
        self._call_guarded("retro_reset", lib.emu_reset)

    def set_button_flags(self, port: int, flags: np.ndarray) -> None:
        """One uint8 flag per button (at most 16); like ``set_button_bits``, no call into the core, but under its
        busy flag: the buttons are read by a frame running on another thread."""
        self._call(lib.emu_set_buttons, port, ffi.from_buffer(flags), flags.size)

    def press(self, port: int, flags: np.ndarray, table: Any) -> bool:
        """Flags (1-byte, 0 or 1) through a ``uint16_t *`` table, or NULL; False if a flag is not 0 or 1."""
        return self._call(lib.emu_press, port, ffi.from_buffer(flags), flags.size, table) == 0

    def step_pressed(self, flags: np.ndarray, table: Any, out: np.ndarray) -> int:
        """``press(0, ...)``, ``run()`` and the frame into ``out`` in one call (step.h says the results)."""
        result = self._call(lib.emu_step_pressed, ffi.from_buffer(flags), flags.size, table,
                            ffi.from_buffer("uint8_t[]", out), out.shape[1], out.shape[0])
        if result == -1:
            raise self.core_threw("retro_run")
        return result

    def set_button_bits(self, port: int, bits: int) -> None:
        self._call(set_buttons, port, bits)

    @property
    def host_pointer(self) -> Any:
        """The ``emu_host *`` for C loops over several hosts (step_batch.h); EmulatorClosedError once closed."""
        return self._live_host()

    def button_bits(self, port: int) -> int:
        return int(self._live_host().buttons[port])

    def cheat_set(self, index: int, enabled: bool, code: str) -> None:
        self._call(lib.emu_cheat_set, index, enabled, code.encode())

    def cheat_reset(self) -> None:
        self._call(lib.emu_cheat_reset)

    # ---- the host's own fields (no core call) ----

    def _live_host(self) -> Any:
        if self._closed:
            raise self.closed_error()
        return self._host

    @property
    def frames_run(self) -> int:
        return int(self._live_host().frames_run)

    @property
    def frame_size(self) -> tuple[int, int]:
        host = self._live_host()
        return int(host.frame_width), int(host.frame_height)

    @property
    def pixel_format(self) -> int:
        return int(self._live_host().pixel_format)

    @property
    def rotation(self) -> int:
        return int(self._live_host().rotation)

    def audio(self) -> np.ndarray:
        """The stereo samples of the last frame, (N, 2) int16, copied."""
        host = self._live_host()
        count = int(host.audio_frames)
        if count == 0:
            return np.zeros((0, 2), dtype=np.int16)
        return np.frombuffer(ffi.buffer(host.audio, count * 4), dtype=np.int16).reshape(count, 2).copy()

    def convert_frame(self, out: np.ndarray, width: int, height: int) -> None:
        """The last frame as packed RGB888 into ``out`` (C-contiguous uint8, height x width x 3)."""
        if out.nbytes < width * height * 3 or not out.flags.c_contiguous:  # what C relies on
            raise ValueError(f"out must be a C-contiguous array of at least {height}x{width}x3 bytes")
        self._call(lib.emu_convert_frame, ffi.from_buffer("uint8_t[]", out), width, height)

    # ---- states ----

    def serialize_size(self) -> int:
        return int(self._call(lib.emu_serialize_size))

    def serialize(self) -> bytes | None:
        """The core's state, or None if it cannot serialize."""
        size = self.serialize_size()
        buffer = ffi.new("uint8_t[]", max(size, 1))
        ok = self._call_guarded("retro_serialize", lib.emu_serialize, buffer, size)
        return bytes(ffi.buffer(buffer, size)) if ok and size else None

    def unserialize(self, data: bytes) -> bool:
        """True if the core loaded ``data``, False if it refused it; CoreError if it threw on it."""
        return bool(self._call_guarded("retro_unserialize", lib.emu_unserialize, ffi.from_buffer(data), len(data)))

    # ---- memory ----

    @property
    def memory_location(self) -> tuple[int, int, int]:
        """(address, size) of the core's SYSTEM_RAM as the host last asked (after every frame, reset, state
        load and game load, the times a core may move it), and the memory maps the core has sent. No call."""
        host = self._live_host()
        return int(ffi.cast("uintptr_t", host.ram_data)), int(host.ram_size), int(host.memory_maps_sets)

    def memory_region(self, region_id: int) -> np.ndarray:
        """A zero-copy view of a retro_get_memory_data region (empty if the core has none)."""
        pointer, size = self._call(memory_region_of, region_id)
        if size == 0 or pointer == ffi.NULL:
            return np.zeros(0, dtype=np.uint8)
        return self._view(pointer, size)

    def descriptor_view(self, descriptor: MemoryDescriptor) -> np.ndarray:
        """A view of a memory descriptor's ``view_length`` bytes at its pointer (stable-retro ignores
        ``offset``)."""
        if descriptor not in self.memory_maps or not descriptor.ptr:
            raise ValueError(f"{descriptor} is not one of the core's memory descriptors")
        return self._view(ffi.cast("uint8_t *", descriptor.ptr), descriptor.view_length)

    def _view(self, pointer: Any, size: int) -> np.ndarray:
        with self._views_lock:
            if self._closed:  # checked under the lock close() takes, so no view outlives the core
                raise self.closed_error()
            self._views += 1
        keeper = ffi.gc(ffi.cast("uint8_t *", pointer), self._view_dropped)
        return np.frombuffer(ffi.buffer(keeper, size), dtype=np.uint8)

    def _view_dropped(self, _pointer: Any) -> None:
        with self._views_lock:
            self._views -= 1
            last = self._closed and self._views == 0
        if last:
            self._native.shutdown()

    # ---- closing ----

    def close(self) -> None:
        """Unloads the core once no memory view is left; waits for a call on another thread."""
        if self._closed or self._native.freed:  # freed: the session was garbage (a __del__ in its cycle runs late)
            return
        host, token = self._host, next(_CALL_TOKENS)
        try:
            if self.callback_thread == threading.get_ident():
                raise EmulatorBusyError(f"{self.label} cannot be closed from inside one of its own callbacks")
            if not self._native.enter_when_free(token) or self._closed:
                return
            with self._views_lock:
                self._closed = True
                host.closed = 1  # under the flag: the batch step sees it before it runs a frame
                unreferenced = self._views == 0
        finally:
            lib.emu_host_leave(host, token)
        if unreferenced:
            self._native.shutdown()
        self.check()  # what callbacks raised while the core unloaded, or left from a core's own thread

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def core_loaded(self) -> bool:
        """True while the core is loaded: open, or closed with memory views still referenced."""
        return self._native.core_open
