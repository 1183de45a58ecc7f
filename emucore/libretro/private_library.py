"""A private copy of a core library, for one ``dlopen`` that no other session shares.

glibc's dlopen first matches the *name* against loaded libraries, so "/proc/self/fd/N" would
hand back whatever library was loaded earlier through a reused fd number. The copy (an anonymous
memfd where the kernel has them) is therefore reached through a symlink whose name is never
reused, in a folder of its own that is removed as soon as the library is open.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def private_copy(source: Path) -> Iterator[str]:
    """A path to dlopen inside the block; afterwards the file and its folder are gone (the
    mapping dlopen made stays valid)."""
    folder = tempfile.mkdtemp(prefix="emucore-cores-")
    path = os.path.join(folder, f"{source.stem}-{uuid.uuid4().hex}{source.suffix}")
    fd: int | None = None
    try:
        if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
            fd = os.memfd_create(f"emucore-{source.name}", os.MFD_CLOEXEC)
            with open(source, "rb") as src, os.fdopen(os.dup(fd), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.symlink(f"/proc/self/fd/{fd}", path)
        else:
            shutil.copyfile(source, path)
        yield path
    finally:
        if fd is not None:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
