"""The ``emucore`` command: headless tools around the host."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from emucore.corefinder import find_library, search_dirs
from emucore.errors import EmucoreError
from emucore.systems import library, systems


def cmd_cores(args: argparse.Namespace) -> int:
    """Prints each system, the core that would run it and where it was found."""
    missing = 0
    rows = []
    for system in systems().values():
        chosen = None
        for lib in system.cores:
            copies = find_library(lib)
            if copies:
                chosen = copies[0]
                break
        if chosen:
            rows.append((system.name, chosen.lib, f"{chosen.source}: {chosen.path}"))
        else:
            missing += 1
            wanted = library(system.cores[0])
            rows.append((system.name, "-", f"missing; {wanted.provider_text()}"))
    width = max(len(r[0]) for r in rows)
    lib_width = max(len(r[1]) for r in rows)
    for name, lib, where in rows:
        print(f"{name:<{width}}  {lib:<{lib_width}}  {where}")
    if args.verbose:
        print("\nsearched, in order:")
        for source, folder in search_dirs():
            print(f"  {source:<18} {folder}{'' if folder.is_dir() else '  (absent)'}")
    print(f"\n{len(rows) - missing} of {len(rows)} systems have a core.")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """Loads a ROM and prints what the core reports."""
    from emucore.emulator import Emulator

    with Emulator(args.rom, core=args.core) as emu:
        info = emu.session.system_info
        print(f"ROM          {emu.rom_path}")
        print(f"system       {emu.system.name} ({emu.system.title})")
        print(f"core         {info.library_name} {info.library_version} [{emu.core.source}: {emu.core.path}]")
        print(f"screen       {emu.get_resolution()[0]}x{emu.get_resolution()[1]} (rendered {emu.frame_size})")
        print(f"pixel format {emu.pixel_format}")
        print(f"timing       {emu.get_screen_rate():.6f} fps, {emu.get_audio_rate():g} Hz")
        print(f"state        {len(emu.get_state())} bytes")
        for name, view in emu.memory_regions().items():
            print(f"memory       {name}: {view.size} bytes")
        for block in emu.memory.blocks:
            print(f"block        0x{block.start:X} ({len(block.data)} bytes)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Lints integration folders (or game names) and prints the findings; 1 if any is an error."""
    from pathlib import Path

    from emucore import data
    from emucore.integration import SHA_FILE, lint

    errors = 0
    for target in args.targets:
        folder = Path(target)
        if not folder.is_dir():
            sha = data.get_file_path(target, SHA_FILE, data.Integrations.ALL)
            if not sha:
                print(f"{target}: no such folder or game", file=sys.stderr)
                errors += 1
                continue
            folder = Path(sha).parent
        findings = lint(folder, deep=args.deep)
        if not args.lint_only:
            findings += _new_trial_findings(folder, findings)
        errors += sum(f.level == "error" for f in findings)
        if not findings:
            print(f"{folder}: ok")
        for finding in findings:
            key = f" [{finding.key}]" if finding.key else ""
            print(f"{folder}: {finding.level}: {finding.file}{key}: {finding.message}")
    return 1 if errors else 0


def _new_trial_findings(folder, findings: list) -> list:
    """What a trial run finds that lint has not already said (a syntax error is both)."""
    from emucore.env.trial import trial_findings

    broken = {f.file for f in findings if f.message.startswith("Lua syntax error")}
    said = {(f.file, f.key) for f in findings if f.level == "error"}

    def new(found) -> bool:
        if any(f"{name}:" in found.message for name in broken):
            return False
        return not any(file == found.file and key.startswith(found.key) for file, key in said)

    return [f for f in trial_findings(folder) if new(f)]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="emucore", description="Headless tools of Retro Integration Studio.")
    commands = parser.add_subparsers(dest="command", required=True)
    cores = commands.add_parser("cores", help="show the core found for each system")
    cores.add_argument("-v", "--verbose", action="store_true", help="also list the folders searched")
    cores.set_defaults(func=cmd_cores)
    info = commands.add_parser("info", help="load a ROM and print what its core reports")
    info.add_argument("rom")
    info.add_argument("--core", help="a core name or a path to a .so")
    info.set_defaults(func=cmd_info)
    commands.add_parser("import", help="find ROMs of known games in folders and zips and copy them in")
    commands.add_parser("playback", help="replay .bk2 movies: verify, render video, export info and returns")
    commands.add_parser("rollout", help="play episodes with an agent, here or on a Ray cluster; a JSON line each")
    commands.add_parser("check", help="replay movies through an integration as training would; report what looks wrong")
    verify = commands.add_parser("verify", help="lint integration folders (or game names) and run each for a step")
    verify.add_argument("targets", nargs="+", metavar="FOLDER")
    verify.add_argument("--deep", action="store_true", help="also decompress every state")
    verify.add_argument(
        "--lint-only", action="store_true", help="only read the files; do not run the game for a step"
    )
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["import"]:  # these parse their own options, --help included
        from emucore.importer import main as import_main

        return import_main(argv[1:])
    if argv[:1] == ["playback"]:
        from emucore.movie.playback import main as playback_main

        return playback_main(argv[1:])
    if argv[:1] == ["check"]:
        from emucore.check_command import main as check_main

        return check_main(argv[1:])
    if argv[:1] == ["rollout"]:
        from emucore.rollout_command import main as rollout_main

        return _reporting_errors(rollout_main, argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except EmucoreError as exc:
        print(f"emucore: {exc}", file=sys.stderr)
        return 2


def _reporting_errors(command, argv: list[str]) -> int:
    try:
        return int(command(argv) or 0)
    except (EmucoreError, FileNotFoundError, ValueError, ConnectionError, ImportError) as exc:
        print(f"emucore: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
