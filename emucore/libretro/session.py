"""One loaded libretro core: a private copy of its library, its callbacks and environment.

libretro keeps all emulator state in the library's globals, and a second ``dlopen`` of the
same file returns the same image. Each session therefore loads its own copy of the library
(an anonymous memfd where the kernel has them), so sessions of one core are independent.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from emucore.errors import CoreLoadError
from emucore.libretro._native import ffi, lib
from emucore.libretro.options import OptionStore
from emucore.libretro.structs import (
    ControllerType,
    Geometry,
    InputDescriptor,
    MemoryDescriptor,
    SystemInfo,
    Timing,
)

EXPERIMENTAL = 0x10000
LOG_LEVELS = (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR)
LIBC_SEED = 1  # glibc's rand() state in a process that never seeded it, as under stable-retro


def _text(ptr: Any) -> str | None:
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


@ffi.def_extern()
def emu_py_environment(userdata: Any, cmd: int, data: Any) -> bool:
    session: CoreSession = ffi.from_handle(userdata)
    try:
        return session._environment(cmd, data)
    except BaseException as exc:  # never unwind through the core's C frames
        session._stash_error(exc)
        return False


@ffi.def_extern()
def emu_py_log(userdata: Any, level: int, text: Any) -> None:
    session: CoreSession = ffi.from_handle(userdata)
    try:
        session._log(level, ffi.string(text).decode("utf-8", "replace").rstrip("\n"))
    except BaseException as exc:
        session._stash_error(exc)


class _PrivateLibrary:
    """A uniquely named file holding a private copy of a core library, for one dlopen.

    glibc's dlopen first matches the *name* against loaded libraries, so "/proc/self/fd/N"
    would hand back whatever library was loaded earlier through a reused fd number. The copy
    is therefore reached through a symlink whose name is never reused.
    """

    _folder: str | None = None

    def __init__(self, source: Path):
        self.fd: int | None = None
        if _PrivateLibrary._folder is None or not os.path.isdir(_PrivateLibrary._folder):
            _PrivateLibrary._folder = tempfile.mkdtemp(prefix="emucore-cores-")
        name = f"{source.stem}-{uuid.uuid4().hex}{source.suffix}"
        self.path = os.path.join(_PrivateLibrary._folder, name)
        if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
            self.fd = os.memfd_create(f"emucore-{source.name}", os.MFD_CLOEXEC)
            with open(source, "rb") as src, os.fdopen(os.dup(self.fd), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.symlink(f"/proc/self/fd/{self.fd}", self.path)
        else:
            shutil.copyfile(source, self.path)

    def release(self) -> None:
        """Drops the file; the mapping made by dlopen stays valid."""
        os.unlink(self.path)
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class CoreSession:
    """A libretro core, loaded privately, with a complete environment implementation.

    ``retro_set_environment`` and ``retro_init`` run in the constructor; load content with
    :meth:`load_game`. Exceptions raised inside callbacks are re-raised by :meth:`check`,
    which every caller runs right after a ``retro_*`` call returns.
    """

    def __init__(
        self,
        core_path: str | os.PathLike[str],
        *,
        compat_answers: Mapping[str, str] | None = None,
        options: Mapping[str, str] | None = None,
        system_dir: str | os.PathLike[str] | None = None,
        log_sink: Callable[[int, str], None] | None = None,
    ):
        self.core_path = Path(core_path)
        self.options = OptionStore(compat_answers=dict(compat_answers or {}), overrides=dict(options or {}))
        self.logger = logging.getLogger(f"emucore.core.{self.core_path.stem.removesuffix('_libretro')}")
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
        self._errors: list[BaseException] = []
        self._closed = False
        self._game_loaded = False
        self._keepalive: list[Any] = []

        self._save_dir = tempfile.mkdtemp(prefix="emucore-save-")
        system = Path(system_dir) if system_dir else Path(self._save_dir)
        system.mkdir(parents=True, exist_ok=True)
        self._system_dir_c = ffi.new("char[]", str(system).encode())
        self._save_dir_c = ffi.new("char[]", self._save_dir.encode())
        self._core_path_c = ffi.new("char[]", str(self.core_path).encode())

        if not self.core_path.is_file():
            raise CoreLoadError(self.core_path, "no such file")
        self._handle = ffi.new_handle(self)
        self.host = lib.emu_host_new(self._handle)
        if self.host == ffi.NULL:
            raise MemoryError("cannot allocate the libretro host")
        private = _PrivateLibrary(self.core_path)
        try:
            if lib.emu_host_open(self.host, private.path.encode()) != 0:
                reason = ffi.string(self.host.error).decode("utf-8", "replace")
                lib.emu_host_free(self.host)
                self.host = ffi.NULL
                raise CoreLoadError(self.core_path, reason)
        finally:
            private.release()

        self.api_version = lib.emu_api_version(self.host)
        lib.emu_set_callbacks(self.host)
        self.check()
        lib.emu_init(self.host)
        self.check()
        info = ffi.new("struct retro_system_info *")
        lib.emu_get_system_info(self.host, info)
        self.system_info = SystemInfo(
            library_name=_text(info.library_name) or self.core_path.stem,
            library_version=_text(info.library_version) or "",
            valid_extensions=tuple(e for e in (_text(info.valid_extensions) or "").split("|") if e),
            need_fullpath=bool(info.need_fullpath),
            block_extract=bool(info.block_extract),
        )
        self.check()

    # ---- error plumbing ----

    def _stash_error(self, exc: BaseException) -> None:
        self._errors.append(exc)

    def check(self) -> None:
        """Re-raises the first exception a callback raised during the last core call."""
        if self._errors:
            first, self._errors = self._errors[0], []
            raise first

    def _log(self, level: int, text: str) -> None:
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
        lib.emu_libc_srand(LIBC_SEED)
        ok = bool(lib.emu_load_game(self.host, game))
        self.check()
        if ok:
            self._game_loaded = True
            self.refresh_av_info()
        return ok

    def refresh_av_info(self) -> None:
        av = ffi.new("struct retro_system_av_info *")
        lib.emu_get_system_av_info(self.host, av)
        self.check()
        self.load_geometry = self._geometry(av.geometry)
        self.geometry = self.load_geometry
        self.timing = Timing(float(av.timing.fps), float(av.timing.sample_rate))

    @staticmethod
    def _geometry(g: Any) -> Geometry:
        return Geometry(
            int(g.base_width), int(g.base_height), int(g.max_width), int(g.max_height), float(g.aspect_ratio)
        )

    def set_controller_port_device(self, port: int, device: int) -> None:
        lib.emu_set_controller_port_device(self.host, port, device)
        self.check()

    def memory_region(self, region_id: int) -> np.ndarray:
        """A zero-copy view of a retro_get_memory_data region (empty if the core has none)."""
        size = lib.emu_get_memory_size(self.host, region_id)
        pointer = lib.emu_get_memory_data(self.host, region_id)
        self.check()
        if size == 0 or pointer == ffi.NULL:
            return np.zeros(0, dtype=np.uint8)
        return np.frombuffer(ffi.buffer(pointer, size), dtype=np.uint8)

    def raw_view(self, address: int, size: int) -> np.ndarray:
        """A view of ``size`` bytes of core memory at ``address`` (from a memory descriptor)."""
        return np.frombuffer(ffi.buffer(ffi.cast("uint8_t *", address), size), dtype=np.uint8)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.host != ffi.NULL:
            if self._game_loaded:
                lib.emu_unload_game(self.host)
            lib.emu_deinit(self.host)
            lib.emu_host_free(self.host)
            self.host = ffi.NULL
        shutil.rmtree(self._save_dir, ignore_errors=True)
        self._errors.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    # ---- environment ----

    def _environment(self, cmd: int, data: Any) -> bool:
        self.environment_calls[cmd] = self.environment_calls.get(cmd, 0) + 1
        handler = _HANDLERS.get(cmd)
        if handler is None:
            return False
        return handler(self, data)

    def _get_variable(self, data: Any) -> bool:
        variable = ffi.cast("struct retro_variable *", data)
        key = _text(variable.key)
        buffer = self.options.answer_buffer(key) if key else ffi.NULL
        variable.value = buffer
        return buffer != ffi.NULL

    def _set_variable(self, data: Any) -> bool:
        if data == ffi.NULL:
            return True  # a query: "is SET_VARIABLE supported"
        variable = ffi.cast("struct retro_variable *", data)
        key, value = _text(variable.key), _text(variable.value)
        if key is None or value is None:
            return False
        self.options.overrides[key] = value
        return True

    def _write_string(self, data: Any, value: Any) -> bool:
        ffi.cast("const char **", data)[0] = value
        return True

    def _write_unsigned(self, data: Any, value: int) -> bool:
        ffi.cast("unsigned *", data)[0] = value
        return True

    def _set_memory_maps(self, data: Any) -> bool:
        memory_map = ffi.cast("struct retro_memory_map *", data)
        descriptors = []
        for i in range(memory_map.num_descriptors):
            d = memory_map.descriptors[i]
            descriptors.append(
                MemoryDescriptor(
                    flags=int(d.flags),
                    ptr=int(ffi.cast("uintptr_t", d.ptr)),
                    offset=int(d.offset),
                    start=int(d.start),
                    select=int(d.select),
                    disconnect=int(d.disconnect),
                    length=int(d.len),
                    addrspace=_text(d.addrspace),
                )
            )
        self.memory_maps = descriptors
        self.memory_maps_version += 1
        return True

    def _set_input_descriptors(self, data: Any) -> bool:
        items = ffi.cast("struct retro_input_descriptor *", data)
        found = []
        i = 0
        while items[i].description != ffi.NULL:
            d = items[i]
            found.append(InputDescriptor(d.port, d.device, d.index, d.id, _text(d.description) or ""))
            i += 1
        self.input_descriptors = found
        return True

    def _set_controller_info(self, data: Any) -> bool:
        ports = ffi.cast("struct retro_controller_info *", data)
        info = []
        i = 0
        while ports[i].types != ffi.NULL:
            types = ports[i].types
            info.append(
                [ControllerType(_text(types[j].desc) or "", int(types[j].id)) for j in range(ports[i].num_types)]
            )
            i += 1
        self.controller_info = info
        return True

    def _set_geometry(self, data: Any) -> bool:
        self.geometry = self._geometry(ffi.cast("struct retro_game_geometry *", data))
        return True

    def _set_av_info(self, data: Any) -> bool:
        av = ffi.cast("struct retro_system_av_info *", data)
        self.geometry = self._geometry(av.geometry)
        self.timing = Timing(float(av.timing.fps), float(av.timing.sample_rate))
        return True

    def _set_message(self, data: Any) -> bool:
        message = _text(ffi.cast("struct retro_message *", data).msg)
        if message:
            self.messages.append(message)
            self._log(1, f"message: {message}")
        return True

    def _set_quirks(self, data: Any) -> bool:
        self.serialization_quirks = int(ffi.cast("uint64_t *", data)[0])
        return True

    def _set_support_no_game(self, data: Any) -> bool:
        self.support_no_game = bool(ffi.cast("bool *", data)[0])
        return True

    def _shutdown(self, data: Any) -> bool:
        self.shutdown_requested = True
        return True


def _accept(session: CoreSession, data: Any) -> bool:
    return True


def _false_bool(session: CoreSession, data: Any) -> bool:
    ffi.cast("bool *", data)[0] = False
    return True


def _declaring(parse: Callable[[OptionStore, Any], None]) -> Callable[[CoreSession, Any], bool]:
    def handler(session: CoreSession, data: Any) -> bool:
        if data != ffi.NULL:
            parse(session.options, data)
        return True

    return handler


_HANDLERS: dict[int, Callable[[CoreSession, Any], bool]] = {
    2: _false_bool,  # GET_OVERSCAN
    6: CoreSession._set_message,  # SET_MESSAGE
    7: CoreSession._shutdown,  # SHUTDOWN
    8: _accept,  # SET_PERFORMANCE_LEVEL
    9: lambda s, d: s._write_string(d, s._system_dir_c),  # GET_SYSTEM_DIRECTORY
    11: CoreSession._set_input_descriptors,
    13: _accept,  # SET_DISK_CONTROL_INTERFACE
    15: CoreSession._get_variable,
    16: _declaring(OptionStore.declare_variables),  # SET_VARIABLES
    18: CoreSession._set_support_no_game,
    19: lambda s, d: s._write_string(d, s._core_path_c),  # GET_LIBRETRO_PATH
    30: lambda s, d: s._write_string(d, s._system_dir_c),  # GET_CORE_ASSETS_DIRECTORY
    31: lambda s, d: s._write_string(d, s._save_dir_c),  # GET_SAVE_DIRECTORY
    32: CoreSession._set_av_info,  # SET_SYSTEM_AV_INFO
    34: _accept,  # SET_SUBSYSTEM_INFO
    35: CoreSession._set_controller_info,
    36 | EXPERIMENTAL: CoreSession._set_memory_maps,
    37: CoreSession._set_geometry,
    39: lambda s, d: s._write_unsigned(d, 0),  # GET_LANGUAGE: English
    42 | EXPERIMENTAL: _accept,  # SET_SUPPORT_ACHIEVEMENTS
    44: CoreSession._set_quirks,  # SET_SERIALIZATION_QUIRKS
    52: lambda s, d: s._write_unsigned(d, 2),  # GET_CORE_OPTIONS_VERSION
    53: _declaring(lambda o, d: o.declare_v1(ffi.cast("struct retro_core_option_definition *", d))),
    54: _declaring(OptionStore.declare_v1_intl),
    55: _accept,  # SET_CORE_OPTIONS_DISPLAY
    59: lambda s, d: s._write_unsigned(d, 0),  # GET_MESSAGE_INTERFACE_VERSION
    63: _accept,  # SET_MINIMUM_AUDIO_LATENCY
    65: _accept,  # SET_CONTENT_INFO_OVERRIDE
    67: _declaring(lambda o, d: o.declare_v2(ffi.cast("struct retro_core_options_v2 *", d))),
    68: _declaring(OptionStore.declare_v2_intl),
    69: _accept,  # SET_CORE_OPTIONS_UPDATE_DISPLAY_CALLBACK
    70: CoreSession._set_variable,  # SET_VARIABLE
    72 | EXPERIMENTAL: lambda s, d: s._write_unsigned(d, 0),  # GET_SAVESTATE_CONTEXT: normal
}
