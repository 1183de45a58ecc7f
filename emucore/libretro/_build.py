"""cffi build script (API mode) for emucore.libretro._native.

setuptools runs it through ``cffi_modules`` at install time, so the per-frame callbacks and
the pixel conversion are compiled C, not Python. Every ``.c`` file in this folder is built in; a
module Python calls has ``<name>.cdef``, the declarations Python sees, beside ``<name>.h``.
"""

import importlib.util
import os
import platform
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent

HOST_CDEF = """
struct retro_system_info {
    const char *library_name; const char *library_version; const char *valid_extensions;
    bool need_fullpath; bool block_extract;
};
struct retro_game_geometry {
    unsigned base_width; unsigned base_height; unsigned max_width; unsigned max_height;
    float aspect_ratio;
};
struct retro_system_timing { double fps; double sample_rate; };
struct retro_system_av_info { struct retro_game_geometry geometry; struct retro_system_timing timing; };
struct retro_game_info { const char *path; const void *data; size_t size; const char *meta; };

typedef struct emu_host {
    void *userdata;
    char error[512];
    int pixel_format;
    const void *frame;
    unsigned frame_width;
    unsigned frame_height;
    size_t frame_pitch;
    int frame_format;
    uint64_t video_calls;
    uint64_t dupe_frames;
    uint16_t buttons[4];
    uint64_t input_polls;
    int16_t *audio;
    size_t audio_frames;
    bool audio_overflow;
    bool variable_update;
    bool can_dupe;
    unsigned rotation;
    uint64_t frames_run;
    const void *ram_data;
    size_t ram_size;
    uint64_t python_calls;
    uint64_t memory_maps_sets;
    int rand_imports;
    int closed;
    ...;
} emu_host;

#define EMU_MAX_PORTS 4

emu_host *emu_host_new(void *userdata);
int emu_host_open(emu_host *h, const char *path);
void emu_host_close(emu_host *h);
void emu_host_free(emu_host *h);
int emu_host_enter(emu_host *h, int64_t token);
void emu_host_leave(emu_host *h, int64_t token);
unsigned emu_api_version(emu_host *h);
void emu_set_callbacks(emu_host *h);
int emu_init(emu_host *h);
int emu_deinit(emu_host *h);
void emu_get_system_info(emu_host *h, struct retro_system_info *info);
void emu_get_system_av_info(emu_host *h, struct retro_system_av_info *info);
int emu_load_game(emu_host *h, const struct retro_game_info *game);
int emu_unload_game(emu_host *h);
int emu_run(emu_host *h);  /* -1: the core threw (h->error says what) */
int emu_run_frames(emu_host *h, unsigned count);
int emu_reset(emu_host *h);
size_t emu_serialize_size(emu_host *h);
int emu_serialize(emu_host *h, void *data, size_t size);
int emu_unserialize(emu_host *h, const void *data, size_t size);  /* 1 ok, 0 refused, -1 threw */
void *emu_get_memory_data(emu_host *h, unsigned id);
size_t emu_get_memory_size(emu_host *h, unsigned id);
void emu_set_controller_port_device(emu_host *h, unsigned port, unsigned device);
void emu_cheat_reset(emu_host *h);
void emu_cheat_set(emu_host *h, unsigned index, bool enabled, const char *code);
unsigned emu_get_region(emu_host *h);
void emu_host_srand(emu_host *h, unsigned seed);
int emu_set_buttons(emu_host *h, unsigned port, const uint8_t *flags, size_t count);
int emu_press(emu_host *h, unsigned port, const uint8_t *flags, size_t count, const uint16_t *table);
int64_t emu_flags_to_mask(const uint8_t *flags, size_t count);
int emu_convert_frame(const emu_host *h, uint8_t *dst, unsigned width, unsigned height);
void emu_convert_pixels(const void *src, unsigned src_width, unsigned src_height, size_t pitch,
                        int format, uint8_t *dst, unsigned width, unsigned height);

extern "Python+C" bool emu_py_environment(void *userdata, unsigned cmd, void *data);
extern "Python+C" void emu_py_log(void *userdata, int level, const char *text);
"""


def glibc_compat() -> tuple[list[str], list[str]]:
    """The compile and link arguments that keep the extension loadable on glibc 2.28 (the wheel's manylinux_2_28).

    Built against glibc >= 2.34, where dlopen and pthread_create moved into libc with a new symbol version, every
    file force-includes glibc_compat.h, which binds them to their older versions (see there), and libdl.so.2 and
    libpthread.so.0 are linked by name and kept (``--no-as-needed``), where glibc < 2.34 defines those versions. Other
    systems build as they did: an older glibc records the old versions itself.
    """
    libc = os.confstr("CS_GNU_LIBC_VERSION") if "CS_GNU_LIBC_VERSION" in os.confstr_names else None
    if not libc or not libc.startswith("glibc ") or platform.machine() not in ("x86_64", "aarch64"):
        return [], []
    if tuple(int(part) for part in libc.split()[1].split(".")[:2]) < (2, 34):
        return [], []
    return (
        ["-include", "emucore/libretro/glibc_compat.h"],  # relative: built from the project root
        ["-Wl,--push-state,--no-as-needed", "-l:libdl.so.2", "-l:libpthread.so.0", "-Wl,--pop-state"],
    )


def operations() -> str:
    """evaluate.c's EMU_OPERATIONS: ``X(NAME, expression)`` for each member of emucore.operations.Operation, in its
    order, the expression its ``MEANINGS`` entry's ``c``.

    operations.py is loaded from its file, the package unimported (it needs numpy, which a build may not have).
    """
    spec = importlib.util.spec_from_file_location("_emucore_build_operations", HERE.parent / "operations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks the module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return " ".join(f"X({op.name}, {module.MEANINGS[op].c})" for op in module.Operation)


COMPAT_COMPILE, COMPAT_LINK = glibc_compat()
ffibuilder = FFI()
ffibuilder.cdef(HOST_CDEF)
ffibuilder.cdef((HERE / "libretro_types.h").read_text())
DECLARED = sorted(path.stem for path in HERE.glob("*.cdef"))
for name in DECLARED:
    ffibuilder.cdef((HERE / f"{name}.cdef").read_text())
ffibuilder.set_source(
    "emucore.libretro._native",
    '#include "host.h"\n#include "libretro_types.h"\n' + "".join(f"#include \"{name}.h\"\n" for name in DECLARED),
    # relative: built from the project root
    sources=[f"emucore/libretro/{path.name}" for path in sorted(HERE.glob("*.c"))] + ["emucore/libretro/guard.cpp"],
    include_dirs=["emucore/libretro"],
    libraries=["dl", "stdc++", "pthread"],
    define_macros=[("EMU_OPERATIONS", operations())],
    extra_compile_args=["-O2", "-Wall", "-Wextra", "-Wno-unused-parameter", *COMPAT_COMPILE],
    extra_link_args=COMPAT_LINK,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
