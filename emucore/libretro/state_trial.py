"""A save state tried on a core through the C boundary: loaded, run, and the state before it put back (the
child's part of emucore.host.state_probe, in a forked process)."""

from __future__ import annotations

from typing import Any

from emucore.libretro._native import ffi, lib


def load_and_run(host: Any, state: bytes, frames: int, after_frames: int, memory_margin: int) -> str:
    """A state probe's child's part (emucore.host.state_probe): ``state`` loaded into the core of ``host`` and
    ``frames`` run, then the state it held put back and ``after_frames`` run; "ok", "rejected" or what went
    wrong. The session's lock is held (by the parent's call), so the core is called directly."""
    try:
        # the state the emulator holds now goes back in after the frames: a state that corrupted the
        # core's memory beyond what a state holds shows itself there, as it would in the emulator's next load
        size = lib.emu_serialize_size(host)
        before = ffi.new("uint8_t[]", max(size, 1))
        restorable = size > 0 and lib.emu_serialize(host, before, size) == 1
        loaded = lib.emu_unserialize(host, ffi.from_buffer(state), len(state))
        if loaded == 0:
            return "rejected"
        if loaded < 0 or lib.emu_run_frames(host, frames):
            said = ffi.string(host.error).decode("utf-8", "replace")
            step = "retro_unserialize" if loaded < 0 else "retro_run"
            if "bad_alloc" in said:
                return f"needed more than {memory_margin >> 20} MiB of memory for it ({step}: {said})"
            return f"failed on it ({step}: {said})"
        if restorable and (lib.emu_unserialize(host, before, size) != 1 or lib.emu_run_frames(host, after_frames)):
            return "could not go on after it (the state it replaced no longer loads and runs)"
    except MemoryError:
        return f"needed more than {memory_margin >> 20} MiB of memory for it"
    except Exception as exc:
        return f"failed on it ({type(exc).__name__}: {exc})"
    return "ok"
