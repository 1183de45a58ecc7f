"""Fails, naming them, if a wheel's compiled libraries need a symbol version newer than a manylinux policy allows.

Usage (with the Python that has auditwheel, .venv-release's): python scripts/wheel_glibc.py WHEEL manylinux_2_28

scripts/build_dist.sh runs it on the wheel before ``auditwheel repair``, which refuses such a wheel too, but without
saying which symbol. The limits are auditwheel's own (its policy file), for this machine's architecture. A symbol that
glibc moved or re-versioned (dlopen and pthread_create went from libdl/libpthread into libc in 2.34 with a new version)
is bound to its older version in emucore/libretro/glibc_compat.h; a library outside the policy's list would have to be
bundled into the wheel, which this project does not do.
"""

import json
import platform
import re
import subprocess
import sys
import tempfile
import zipfile
from importlib.resources import files
from pathlib import Path

VERSIONED = re.compile(r"\*UND\*\s+\S+\s+\(?([A-Z_]+)_([0-9][0-9.]*)\)?\s+(\S+)$")


def policy(name: str) -> dict:
    for entry in json.loads(files("auditwheel.policy").joinpath("manylinux-policy.json").read_text()):
        if entry["name"] == name or name in entry.get("aliases", []):
            return entry
    raise SystemExit(f"wheel_glibc.py: auditwheel knows no policy {name}")


def objdump(flag: str, path: Path) -> list[str]:
    return subprocess.run(["objdump", flag, str(path)], check=True, capture_output=True, text=True).stdout.splitlines()


def problems(library: Path, allowed: dict, whitelist: list[str], label: str) -> list[str]:
    found = []
    for line in objdump("-T", library):
        match = VERSIONED.search(line)
        if match and match[1] in allowed and match[2] not in allowed[match[1]]:
            newest = max(allowed[match[1]], key=lambda version: [int(part) for part in version.split(".")])
            found.append(f"{label}: {match[3]} needs {match[1]}_{match[2]} (the policy allows {match[1]} <= {newest})")
    for line in objdump("-p", library):
        needed = line.split()[1] if line.split()[:1] == ["NEEDED"] else None
        # the dynamic loader (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1: __tls_get_addr) is glibc's, always there
        if needed and needed not in whitelist and not needed.startswith(("ld-linux", "ld64.so")):
            found.append(f"{label}: links {needed}, which the policy does not count on (it would be bundled)")
    return found


def main() -> int:
    wheel, name = sys.argv[1], sys.argv[2]
    entry = policy(name)
    allowed = entry["symbol_versions"][platform.machine()]
    found, checked = [], 0
    with zipfile.ZipFile(wheel) as archive, tempfile.TemporaryDirectory() as scratch:
        for member in archive.namelist():
            if member.endswith(".so") or ".so." in member:
                found += problems(Path(archive.extract(member, scratch)), allowed, entry["lib_whitelist"], member)
                checked += 1
    if not checked:
        print(f"wheel_glibc.py: no compiled library in {wheel}", file=sys.stderr)
        return 1
    if found:
        print(
            f"{Path(wheel).name} would not be {name}: it would not install on the systems that tag promises.",
            *found,
            "Bind each glibc symbol to its older version in emucore/libretro/glibc_compat.h.",
            sep="\n  ",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
