"""The extension's declarations: each written once, in its header, and what cffi reads derived from there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from cffi import FFI

from emucore.libretro import _build
from emucore.libretro._native import ffi, lib

HERE = Path(_build.__file__).parent
PARTIAL = re.compile(r"\{ \.\.\.; \}")


def fields(some_ffi: FFI, name: str) -> list[tuple[str, str]]:
    """A struct's fields as ``(name, C type)`` (none of a struct whose fields Python does not see: ``{ ...; }``);
    ``struct emu_host *`` written as ``emu_host *`` (a compiled ffi names a struct by its typedef)."""
    return [(field, kind.type.cname.replace("struct ", "")) for field, kind in some_ffi.typeof(name).fields]


def test_each_declaration_is_written_once_in_its_header():
    assert not list(HERE.glob("*.cdef")) and not hasattr(_build, "HOST_CDEF")
    names = [name for name, _ in _build.DECLARED]
    assert {"host.h", "evaluate.h", "frames.h", "skip.h", "step.h", "step_batch.h", "libretro_types.h"} <= set(names)
    assert names.index("host.h") < names.index("frames.h") < names.index("skip.h") < names.index("step_batch.h")
    assert "emu_guarded_run" not in _build.CDEF  # host.h's declarations for C alone stay out


def test_the_extension_was_built_from_the_headers_as_they_are():
    """Every struct cffi reads in the headers now, with the fields the built extension knows (a stale build fails)."""
    parsed = FFI()  # not compiled: a struct whose layout is the compiler's gets a stand-in field
    parsed.cdef(PARTIAL.sub("{ char stand_in; }", _build.CDEF))
    partial = set(re.findall(r"typedef struct (\w+) " + PARTIAL.pattern, _build.CDEF))
    assert partial == {"emu_rand_state"}
    typedefs, structs, _ = parsed.list_types()
    assert (typedefs, structs) == ffi.list_types()[:2]
    for name in typedefs:
        if name in partial:
            assert fields(ffi, name) == [] and ffi.sizeof(name) > 0
        elif parsed.typeof(name).fields is None:  # opaque: a pointer to it is all Python holds
            with pytest.raises(ffi.error):
                ffi.sizeof(name)
        else:
            assert fields(parsed, name) == fields(ffi, name), name
    assert [field for field, _ in fields(ffi, "emu_host")][:3] == ["dl", "userdata", "error"]  # all of it
    assert fields(ffi, "emu_host")[2] == ("error", f"char[{lib.EMU_ERR_LEN}]")


def test_every_name_python_can_call_is_typed_in_the_stub():
    stub = ast.parse((HERE / "_native.pyi").read_text())
    lib_class = next(node for node in stub.body if isinstance(node, ast.ClassDef) and node.name == "_Lib")
    typed = {node.name for node in lib_class.body if isinstance(node, ast.FunctionDef)}
    typed |= {node.target.id for node in lib_class.body if isinstance(node, ast.AnnAssign)
              and isinstance(node.target, ast.Name)}
    assert typed == set(dir(lib))
    declared = set(re.findall(r"\b(emu_\w+)\(", _build.CDEF))
    assert declared == {name for name in dir(lib) if callable(getattr(lib, name))}
