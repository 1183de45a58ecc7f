"""cffi build script (API mode) for emucore.libretro._native.

setuptools runs it through ``cffi_modules`` at install time, so the per-frame callbacks and
the pixel conversion are compiled C, not Python. Every ``.c`` file in this folder is built in.

Each declaration is written once, in its header. What Python sees of a header lies between
``/* cdef: begin */`` and ``/* cdef: end */`` (plain declarations and ``#define NAME number``,
which cffi parses too); the functions Python defines for C to call between
``/* cdef: begin extern "Python+C" */`` and ``/* cdef: end */``. Where cffi cannot read C's own
declaration, ``/* cdef only: DECLARATION */`` beside it says what cffi reads instead (a struct
Python never looks into as ``{ ...; }``, its layout the compiler's). cffi checks, compiling, that
what it read agrees with the C.
"""

import importlib.util
import os
import platform
import re
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent

# The parts of a header that cffi reads: a block, for the declarations Python sees as C declares them, or for the
# functions Python defines (cffi's ``extern "Python+C"``); or a declaration cffi reads in place of C's own.
PART = re.compile(r'/\* cdef: begin( extern "Python\+C")? \*/(.*?)/\* cdef: end \*/|/\* cdef only: (.*?) \*/', re.S)
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def headers() -> list[Path]:
    """This folder's headers, each after the headers it includes (whose declarations its own may use)."""
    order: list[Path] = []

    def visit(path: Path) -> None:
        if path not in order:
            for name in INCLUDE.findall(path.read_text()):
                if (HERE / name).is_file():
                    visit(HERE / name)
            order.append(path)

    for path in sorted(HERE.glob("*.h")):
        visit(path)
    return order


def declarations(header: Path) -> str:
    """What cffi reads of ``header`` (see PART): empty for a header Python does not call into."""
    parts = []
    for match in PART.finditer(header.read_text()):
        extern, block, only = match.groups()
        if block is not None:
            assert "cdef only:" not in block, f"{header.name}: a 'cdef only' declaration inside a cdef block"
            parts.append(f'extern "Python+C" {{{block}}}' if extern else block)
        else:
            parts.append(only)
    return "\n".join(parts)


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
DECLARED = [(path.name, text) for path in headers() if (text := declarations(path))]
CDEF = "\n".join(text for _, text in DECLARED)  # each header's once, as it stands in the header
ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "emucore.libretro._native",
    "".join(f'#include "{name}"\n' for name, _ in DECLARED),
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
