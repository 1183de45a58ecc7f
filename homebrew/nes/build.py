#!/usr/bin/env python3
"""Build the StudioDemo-Nes ROM with cc65's ca65/ld65 (standard library only).

Usage:
    python3 homebrew/nes/build.py            # build, write rom.nes + rom.sha of emucore/resources/integrations/StudioDemo-Nes
    python3 homebrew/nes/build.py --check    # build in a temp dir; exit 1 if the committed files differ

All paths are relative to this file. The build is deterministic: the same
sources always give a byte-identical ROM. Override the tools with the CA65 /
LD65 environment variables if they are not on PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SOURCE = HERE / "studio_demo.s"
LINKER_CONFIG = HERE / "nrom.cfg"
OUT_DIR = REPO / "emucore" / "resources" / "integrations" / "StudioDemo-Nes"
ROM_NAME = "rom.nes"
SHA_NAME = "rom.sha"

INES_HEADER_SIZE = 16
EXPECTED_SIZE = INES_HEADER_SIZE + 16 * 1024 + 8 * 1024  # NROM-128


def find_tool(name: str) -> str:
    override = os.environ.get(name.upper())
    if override:
        return override
    path = shutil.which(name)
    if path is None:
        sys.exit(f"error: {name} not found (install cc65, or set {name.upper()}=/path/to/{name})")
    return path


def run(cmd: list[str], cwd: Path) -> None:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.stderr.write(result.stderr)
        sys.exit(f"error: command failed ({result.returncode}): {' '.join(cmd)}")


def build_rom(work_dir: Path) -> bytes:
    """Assemble and link into work_dir; return the ROM bytes."""
    obj = work_dir / "studio_demo.o"
    rom = work_dir / ROM_NAME
    # Run in the source directory with relative names so that nothing
    # machine-specific can end up in the object files.
    run([find_tool("ca65"), "-o", str(obj), SOURCE.name], cwd=HERE)
    run([find_tool("ld65"), "-C", LINKER_CONFIG.name, "-o", str(rom), str(obj)], cwd=HERE)
    data = rom.read_bytes()
    if len(data) != EXPECTED_SIZE:
        sys.exit(f"error: ROM is {len(data)} bytes, expected {EXPECTED_SIZE}")
    if data[:4] != b"NES\x1a":
        sys.exit("error: ROM has no iNES header")
    return data


def rom_sha(data: bytes) -> str:
    """stable-retro's rom.sha: SHA-1 of the ROM without its 16-byte iNES header."""
    return hashlib.sha1(data[INES_HEADER_SIZE:]).hexdigest() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="build into a temporary directory and fail if the committed rom.nes/rom.sha differ",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="studio_demo_nes_") as tmp:
        data = build_rom(Path(tmp))
    sha = rom_sha(data)

    rom_path = OUT_DIR / ROM_NAME
    sha_path = OUT_DIR / SHA_NAME
    if args.check:
        ok = True
        if not rom_path.is_file() or rom_path.read_bytes() != data:
            print(f"MISMATCH: {rom_path.relative_to(REPO)} is missing or differs from a fresh build")
            ok = False
        if not sha_path.is_file() or sha_path.read_text() != sha:
            print(f"MISMATCH: {sha_path.relative_to(REPO)} is missing or differs (expected {sha.strip()})")
            ok = False
        if ok:
            print(f"OK: {rom_path.relative_to(REPO)} matches a fresh build (sha1 without header {sha.strip()})")
            return 0
        print("run: python3 homebrew/nes/build.py")
        return 1

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    rom_path.write_bytes(data)
    sha_path.write_text(sha)
    print(f"wrote {rom_path.relative_to(REPO)} ({len(data)} bytes)")
    print(f"wrote {sha_path.relative_to(REPO)} ({sha.strip()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
