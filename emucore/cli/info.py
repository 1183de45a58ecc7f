"""``emucore info ROM``: load a ROM and print what its core reports."""

from __future__ import annotations

import argparse
import json
from typing import Any

from emucore.cli.format import DefaultsHelpFormatter, exit_status_epilog


def add_parser(commands: Any) -> None:
    """Adds ``info`` to the ``emucore`` command's subparsers."""
    info = commands.add_parser(
        "info", help="load a ROM and print what its core reports", formatter_class=DefaultsHelpFormatter,
        epilog=exit_status_epilog(None, "a missing ROM or core, an unknown core name, a ROM the core refuses"))
    info.add_argument("rom")
    info.add_argument("--core", help="a core name or a path to a .so (default: the first core found for the system)")
    info.add_argument("--json", action="store_true", help="print the same fields as one JSON object")
    info.set_defaults(func=cmd_info)


def _rom_info(rom: str, core: str | None) -> dict[str, Any]:
    from emucore.host.emulator import Emulator

    with Emulator(rom, core=core) as emu:
        info = emu.session.system_info
        width, height = emu.get_resolution()
        return {
            "rom": str(emu.rom_path),
            "system": emu.system.name,
            "system_title": emu.system.title,
            "core": {"lib": emu.core.lib, "name": info.library_name, "version": info.library_version,
                     "source": emu.core.source, "path": str(emu.core.path)},
            "screen": [width, height],
            "rendered": list(emu.frame_size),
            "pixel_format": str(emu.pixel_format),
            "fps": emu.get_screen_rate(),
            "audio_rate": emu.get_audio_rate(),
            "state_bytes": len(emu.get_state()),
            "memory": {name: view.size for name, view in emu.memory_regions().items()},
            "blocks": [{"start": block.start, "size": len(block.data)} for block in emu.memory.blocks],
        }


def cmd_info(args: argparse.Namespace) -> int:
    """Loads a ROM and prints what the core reports."""
    info = _rom_info(args.rom, args.core)
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    core = info["core"]
    print(f"ROM          {info['rom']}")
    print(f"system       {info['system']} ({info['system_title']})")
    print(f"core         {core['name']} {core['version']} [{core['source']}: {core['path']}]")
    print(f"screen       {info['screen'][0]}x{info['screen'][1]} (rendered {tuple(info['rendered'])})")
    print(f"pixel format {info['pixel_format']}")
    print(f"timing       {info['fps']:.6f} fps, {info['audio_rate']:g} Hz")
    print(f"state        {info['state_bytes']} bytes")
    for name, size in info["memory"].items():
        print(f"memory       {name}: {size} bytes")
    for block in info["blocks"]:
        print(f"block        0x{block['start']:X} ({block['size']} bytes)")
    return 0
