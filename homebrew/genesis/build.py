#!/usr/bin/env python3
"""Build the StudioDemo-Genesis homebrew ROM (stdlib only).

Runs GNU binutils for m68k (as, ld, objcopy), pads the image to a fixed size,
writes the ROM end address and the header checksum, and stores the result as
``emucore/resources/integrations/StudioDemo-Genesis/rom.md`` plus ``rom.sha`` (SHA-1, lowercase
hex, newline).

    python3 homebrew/genesis/build.py           # build and install
    python3 homebrew/genesis/build.py --check   # rebuild in a temp dir and
                                                # fail if it differs from the
                                                # committed rom.md / rom.sha

The toolchain prefix defaults to ``m68k-linux-gnu-`` (Debian package
``binutils-m68k-linux-gnu``) and can be changed with the M68K_PREFIX
environment variable.  The build is deterministic: same sources and tools,
same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SOURCE = HERE / "studio_demo.s"
LINKER_SCRIPT = HERE / "genesis.ld"
INTEGRATION = REPO / "emucore" / "resources" / "integrations" / "StudioDemo-Genesis"
ROM_NAME = "rom.md"
SHA_NAME = "rom.sha"

ROM_SIZE = 0x20000  # 128 KiB, padded with 0x00
HEADER_SYSTEM = 0x100
HEADER_CHECKSUM = 0x18E
HEADER_ROM_END = 0x1A4
HEADER_REGION = 0x1F0
CHECKSUM_START = 0x200


def tool(name: str) -> str:
    prefix = os.environ.get("M68K_PREFIX", "m68k-linux-gnu-")
    exe = prefix + name
    if shutil.which(exe) is None:
        sys.exit(
            f"build.py: {exe} not found; install binutils for m68k "
            "(Debian/Ubuntu: apt-get install binutils-m68k-linux-gnu) "
            "or set M68K_PREFIX"
        )
    return exe


def run(cmd: list[str], cwd: Path) -> None:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.stderr.write(result.stderr)
        sys.exit(f"build.py: command failed: {' '.join(cmd)}")


def checksum(rom: bytes) -> int:
    """Mega Drive header checksum: 16-bit sum of big-endian words from 0x200."""
    body = rom[CHECKSUM_START:]
    if len(body) % 2:
        body += b"\0"
    words = struct.unpack(f">{len(body) // 2}H", body)
    return sum(words) & 0xFFFF


def finish_image(raw: bytes) -> bytes:
    """Pad to ROM_SIZE, then fill in the ROM end address and the checksum."""
    if len(raw) > ROM_SIZE:
        sys.exit(f"build.py: image is {len(raw)} bytes, larger than {ROM_SIZE}")
    if raw[HEADER_SYSTEM : HEADER_SYSTEM + 16] != b"SEGA MEGA DRIVE ":
        sys.exit("build.py: header does not start with 'SEGA MEGA DRIVE '")
    if raw[HEADER_REGION : HEADER_REGION + 3] != b"JUE":
        sys.exit("build.py: region field is not 'JUE'")
    rom = bytearray(raw + b"\0" * (ROM_SIZE - len(raw)))
    struct.pack_into(">I", rom, HEADER_ROM_END, ROM_SIZE - 1)
    struct.pack_into(">H", rom, HEADER_CHECKSUM, checksum(bytes(rom)))
    return bytes(rom)


def build(workdir: Path) -> bytes:
    """Assemble, link and convert in workdir; return the finished ROM bytes."""
    obj = workdir / "studio_demo.o"
    elf = workdir / "studio_demo.elf"
    binary = workdir / "studio_demo.bin"
    run(
        [
            tool("as"),
            "-m68000",
            "--register-prefix-optional",
            "--fatal-warnings",
            "-o",
            str(obj),
            SOURCE.name,
        ],
        cwd=HERE,
    )
    run(
        [tool("ld"), "-T", LINKER_SCRIPT.name, "--build-id=none", "-nostdlib", "-o", str(elf), str(obj)],
        cwd=HERE,
    )
    run([tool("objcopy"), "-O", "binary", "-j", ".text", str(elf), str(binary)], cwd=HERE)
    return finish_image(binary.read_bytes())


def sha_line(rom: bytes) -> str:
    return hashlib.sha1(rom).hexdigest() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="build in a temporary directory and exit 1 if the result differs "
        "from the committed emucore/resources/integrations/StudioDemo-Genesis/rom.md or rom.sha",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="studio_demo_build_") as tmp:
        rom = build(Path(tmp))
    sha = sha_line(rom)
    rom_path = INTEGRATION / ROM_NAME
    sha_path = INTEGRATION / SHA_NAME

    if args.check:
        ok = True
        if not rom_path.exists() or rom_path.read_bytes() != rom:
            print(
                f"build.py --check: {rom_path.relative_to(REPO)} is out of date "
                f"(fresh build sha1 {sha.strip()})",
                file=sys.stderr,
            )
            ok = False
        if not sha_path.exists() or sha_path.read_text() != sha:
            print(f"build.py --check: {sha_path.relative_to(REPO)} is out of date", file=sys.stderr)
            ok = False
        if not ok:
            print("run: python3 homebrew/genesis/build.py", file=sys.stderr)
            return 1
        print(f"build.py --check: OK ({ROM_NAME} sha1 {sha.strip()})")
        return 0

    INTEGRATION.mkdir(parents=True, exist_ok=True)
    rom_path.write_bytes(rom)
    sha_path.write_text(sha)
    print(f"wrote {rom_path.relative_to(REPO)} ({len(rom)} bytes, sha1 {sha.strip()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
