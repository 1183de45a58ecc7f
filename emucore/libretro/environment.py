"""The core's environment callback: the answers to ``RETRO_ENVIRONMENT_*`` commands.

The commands a core asks every frame are answered in C (host.c); the rest arrive here through
``emu_py_environment`` and ``emu_py_log``, which run with the GIL inside the core's call.
An exception in a handler never unwinds through the core's C frames: it is kept on the session,
and the session's call wrapper raises it when the core returns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from emucore.libretro._native import ffi
from emucore.libretro.options import OptionStore
from emucore.libretro.structs import ControllerType, Geometry, InputDescriptor, MemoryDescriptor, Timing


class CallbackSession(Protocol):
    """What the callbacks read and set on the session running the core (``CoreSession`` in session.py)."""

    options: OptionStore
    memory_maps: list[MemoryDescriptor]
    memory_maps_version: int
    input_descriptors: list[InputDescriptor]
    controller_info: list[list[ControllerType]]
    messages: list[str]
    serialization_quirks: int
    support_no_game: bool
    shutdown_requested: bool
    geometry: Geometry | None
    timing: Timing | None
    environment_calls: dict[int, int]
    callback_thread: int | None
    # char arrays the core reads the directories and its own path from while the session lives
    system_dir_c: Any
    save_dir_c: Any
    core_path_c: Any

    def stash_error(self, exc: BaseException) -> None: ...

    def log(self, level: int, text: str) -> None: ...


EXPERIMENTAL = 0x10000


def c_text(ptr: Any) -> str | None:
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


def geometry_of(g: Any) -> Geometry:
    return Geometry(int(g.base_width), int(g.base_height), int(g.max_width), int(g.max_height), float(g.aspect_ratio))


@ffi.def_extern()
def emu_py_environment(userdata: Any, cmd: int, data: Any) -> bool:
    session: CallbackSession = ffi.from_handle(userdata)
    outer, session.callback_thread = session.callback_thread, threading.get_ident()
    try:
        session.environment_calls[cmd] = session.environment_calls.get(cmd, 0) + 1
        handler = _HANDLERS.get(cmd)
        return False if handler is None else handler(session, data)
    except BaseException as exc:
        session.stash_error(exc)
        return False
    finally:
        session.callback_thread = outer


@ffi.def_extern()
def emu_py_log(userdata: Any, level: int, text: Any) -> None:
    session: CallbackSession = ffi.from_handle(userdata)
    outer, session.callback_thread = session.callback_thread, threading.get_ident()
    try:
        session.log(level, ffi.string(text).decode("utf-8", "replace").rstrip("\n"))
    except BaseException as exc:
        session.stash_error(exc)
    finally:
        session.callback_thread = outer


def _get_variable(session: CallbackSession, data: Any) -> bool:
    variable = ffi.cast("struct retro_variable *", data)
    key = c_text(variable.key)
    buffer = session.options.answer_buffer(key) if key else ffi.NULL
    variable.value = buffer
    return buffer != ffi.NULL


def _set_variable(session: CallbackSession, data: Any) -> bool:
    if data == ffi.NULL:
        return True  # a query: "is SET_VARIABLE supported"
    variable = ffi.cast("struct retro_variable *", data)
    key, value = c_text(variable.key), c_text(variable.value)
    if key is None or value is None:
        return False
    session.options.overrides[key] = value
    return True


def _string(value_of: Callable[[CallbackSession], Any]) -> Callable[[CallbackSession, Any], bool]:
    def handler(session: CallbackSession, data: Any) -> bool:
        ffi.cast("const char **", data)[0] = value_of(session)
        return True

    return handler


def _unsigned(value: int) -> Callable[[CallbackSession, Any], bool]:
    def handler(session: CallbackSession, data: Any) -> bool:
        ffi.cast("unsigned *", data)[0] = value
        return True

    return handler


def _set_memory_maps(session: CallbackSession, data: Any) -> bool:
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
                addrspace=c_text(d.addrspace),
            )
        )
    session.memory_maps = descriptors
    session.memory_maps_version += 1
    return True


def _until_null(items: Any, field: str) -> Iterator[Any]:
    """The entries of a C array that ends with an entry whose ``field`` is NULL."""
    i = 0
    while getattr(items[i], field) != ffi.NULL:
        yield items[i]
        i += 1


def _set_input_descriptors(session: CallbackSession, data: Any) -> bool:
    items = ffi.cast("struct retro_input_descriptor *", data)
    session.input_descriptors = [
        InputDescriptor(d.port, d.device, d.index, d.id, c_text(d.description) or "")
        for d in _until_null(items, "description")
    ]
    return True


def _set_controller_info(session: CallbackSession, data: Any) -> bool:
    ports = ffi.cast("struct retro_controller_info *", data)
    session.controller_info = [
        [ControllerType(c_text(port.types[j].desc) or "", int(port.types[j].id)) for j in range(port.num_types)]
        for port in _until_null(ports, "types")
    ]
    return True


def _set_geometry(session: CallbackSession, data: Any) -> bool:
    session.geometry = geometry_of(ffi.cast("struct retro_game_geometry *", data))
    return True


def _set_av_info(session: CallbackSession, data: Any) -> bool:
    av = ffi.cast("struct retro_system_av_info *", data)
    session.geometry = geometry_of(av.geometry)
    session.timing = Timing(float(av.timing.fps), float(av.timing.sample_rate))
    return True


def _set_message(session: CallbackSession, data: Any) -> bool:
    message = c_text(ffi.cast("struct retro_message *", data).msg)
    if message:
        session.messages.append(message)
        session.log(1, f"message: {message}")
    return True


def _set_quirks(session: CallbackSession, data: Any) -> bool:
    session.serialization_quirks = int(ffi.cast("uint64_t *", data)[0])
    return True


def _set_support_no_game(session: CallbackSession, data: Any) -> bool:
    session.support_no_game = bool(ffi.cast("bool *", data)[0])
    return True


def _shutdown(session: CallbackSession, data: Any) -> bool:
    session.shutdown_requested = True
    return True


def _accept(session: CallbackSession, data: Any) -> bool:
    return True


def _false_bool(session: CallbackSession, data: Any) -> bool:
    ffi.cast("bool *", data)[0] = False
    return True


def _declaring(parse: Callable[[OptionStore, Any], None]) -> Callable[[CallbackSession, Any], bool]:
    def handler(session: CallbackSession, data: Any) -> bool:
        if data != ffi.NULL:
            parse(session.options, data)
        return True

    return handler


_HANDLERS: dict[int, Callable[[CallbackSession, Any], bool]] = {
    2: _false_bool,  # GET_OVERSCAN
    6: _set_message,  # SET_MESSAGE
    7: _shutdown,  # SHUTDOWN
    8: _accept,  # SET_PERFORMANCE_LEVEL
    9: _string(lambda s: s.system_dir_c),  # GET_SYSTEM_DIRECTORY
    11: _set_input_descriptors,
    13: _accept,  # SET_DISK_CONTROL_INTERFACE
    15: _get_variable,
    16: _declaring(OptionStore.declare_variables),  # SET_VARIABLES
    18: _set_support_no_game,
    19: _string(lambda s: s.core_path_c),  # GET_LIBRETRO_PATH
    30: _string(lambda s: s.system_dir_c),  # GET_CORE_ASSETS_DIRECTORY
    31: _string(lambda s: s.save_dir_c),  # GET_SAVE_DIRECTORY
    32: _set_av_info,  # SET_SYSTEM_AV_INFO
    34: _accept,  # SET_SUBSYSTEM_INFO
    35: _set_controller_info,
    36 | EXPERIMENTAL: _set_memory_maps,
    37: _set_geometry,
    39: _unsigned(0),  # GET_LANGUAGE: English
    42 | EXPERIMENTAL: _accept,  # SET_SUPPORT_ACHIEVEMENTS
    44: _set_quirks,  # SET_SERIALIZATION_QUIRKS
    52: _unsigned(2),  # GET_CORE_OPTIONS_VERSION
    53: _declaring(lambda o, d: o.declare_v1(ffi.cast("struct retro_core_option_definition *", d))),
    54: _declaring(OptionStore.declare_v1_intl),
    55: _accept,  # SET_CORE_OPTIONS_DISPLAY
    59: _unsigned(0),  # GET_MESSAGE_INTERFACE_VERSION
    63: _accept,  # SET_MINIMUM_AUDIO_LATENCY
    65: _accept,  # SET_CONTENT_INFO_OVERRIDE
    67: _declaring(lambda o, d: o.declare_v2(ffi.cast("struct retro_core_options_v2 *", d))),
    68: _declaring(OptionStore.declare_v2_intl),
    69: _accept,  # SET_CORE_OPTIONS_UPDATE_DISPLAY_CALLBACK
    70: _set_variable,  # SET_VARIABLE
    72 | EXPERIMENTAL: _unsigned(0),  # GET_SAVESTATE_CONTEXT: normal
}
