"""The ``emucore`` command: headless tools around the host.

Exit status, the same for every subcommand: 0 on success; 1 when the command found problems (``verify``
and ``check`` findings, a ``playback`` movie that does not match its integration); 2 on bad arguments,
among them a missing ROM, folder, movie or core and an unknown game, state or core name, said in one
``emucore...: ...`` line on stderr (never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore import __version__
from emucore.cli.format import DefaultsHelpFormatter
from emucore.errors import EmucoreError
from emucore.host.corefinder import find_library, search_dirs
from emucore.paths import descriptors_dir
from emucore.systems import System, library, systems

if TYPE_CHECKING:
    from emucore.integration import LintFinding


def _epilog(findings: str | None, bad: str) -> str:
    """The exit status paragraph of a parser's help."""
    ones = f"1 when {findings}; " if findings else ""
    return f"Exit status: 0 on success; {ones}2 on bad arguments ({bad}), said in one line on stderr."


# ---- cores ----


def _core_row(system: System) -> dict[str, Any]:
    """What ``emucore cores`` says of one system: the core found, or how to get the first candidate."""
    for lib in system.cores:
        copies = find_library(lib)
        if copies:
            found = copies[0]
            return {"system": system.name, "title": system.title, "core": found.lib, "source": found.source,
                    "path": str(found.path), "missing": None}
    wanted = library(system.cores[0])
    return {"system": system.name, "title": system.title, "core": None, "source": None, "path": None,
            "missing": f"{wanted.lib}: {wanted.provider_text(system)}"}


def cmd_cores(args: argparse.Namespace) -> int:
    """Prints each system, the core that would run it and where it was found; 2 when no system is described."""
    table = systems()
    if not table:
        print(f"emucore: no system descriptors found in {descriptors_dir() / 'systems'}", file=sys.stderr)
        return 2
    rows = [_core_row(system) for system in table.values()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(row["system"]) for row in rows)
    lib_width = max(len(row["core"] or "-") for row in rows)
    for row in rows:
        where = f"{row['source']}: {row['path']}" if row["core"] else f"missing; {row['missing']}"
        print(f"{row['system']:<{width}}  {row['core'] or '-':<{lib_width}}  {where}")
    if args.verbose:
        print("\nsearched, in order:")
        for source, folder in search_dirs():
            print(f"  {source:<18} {folder}{'' if folder.is_dir() else '  (absent)'}")
    found = sum(row["core"] is not None for row in rows)
    print(f"\n{found} of {len(rows)} systems have a core.")
    return 0


# ---- info ----


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


# ---- verify ----


def _verify_folders(targets: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The integration folder of each target (a folder, or a game name), and a message for each unknown one."""
    from emucore import data
    from emucore.data.lookup import unknown_game_hint
    from emucore.integration import SHA_FILE

    folders, unknown = [], []
    for target in targets:
        if Path(target).is_dir():
            folders.append(Path(target))
            continue
        if data.is_game_folder_path(target):
            unknown.append(f"{target}: no such folder")
            continue
        sha = data.get_file_path(target, SHA_FILE, data.Integrations.ALL)
        if sha:
            folders.append(Path(sha).parent)
            continue
        unknown.append(f"{target}: no such folder or game{unknown_game_hint(target, data.Integrations.ALL)}")
    return folders, unknown


def distinct_findings(linted: Sequence[LintFinding], tried: Sequence[LintFinding] = ()) -> list[LintFinding]:
    """Lint's findings and the trial run's, each problem once.

    * A trial finding repeats a lint error (and is dropped) when it is on the same file at the same
      or an enclosing/enclosed key, when its message names a file lint found an error in, or when it
      names no file (the game could not be made as a whole) while lint found errors, which say why.
    * An error at a file and key makes the warnings at that same file and key redundant.
    * Equal (level, file, key, message) findings are kept once, in their first place.
    """
    errors = [f for f in linted if f.level == "error"]
    broken = {f.file for f in errors if f.file}

    def repeats_lint(found: LintFinding) -> bool:
        if errors and not found.file:
            return True
        if any(f"{name}:" in found.message for name in broken):
            return True
        return any(e.file == found.file and (e.key.startswith(found.key) or found.key.startswith(e.key))
                   for e in errors)

    kept = list(linted) + [f for f in tried if not repeats_lint(f)]
    erred = {(f.file, f.key) for f in kept if f.level == "error" and f.key}
    kept = [f for f in kept if f.level == "error" or (f.file, f.key) not in erred]
    return list(dict.fromkeys(kept))


def cmd_verify(args: argparse.Namespace) -> int:
    """Lints integration folders (or game names) and prints the findings; 1 if any is an error."""
    from emucore.integration import lint

    folders, unknown = _verify_folders(args.targets)
    for problem in unknown:
        print(f"emucore: {problem}", file=sys.stderr)
    if unknown:
        return 2
    report: list[tuple[Path, list[LintFinding]]] = []
    for folder in folders:
        tried: list[LintFinding] = []
        if not args.lint_only:
            from emucore.env.trial import trial_findings

            tried = trial_findings(folder)
        report.append((folder, distinct_findings(lint(folder, deep=args.deep), tried)))
    errors = sum(f.level == "error" for _, findings in report for f in findings)
    if args.json:
        document = [{"folder": str(folder), "ok": not any(f.level == "error" for f in findings),
                     "findings": [asdict(f) for f in findings]} for folder, findings in report]
        print(json.dumps(document, indent=2))
        return 1 if errors else 0
    for folder, findings in report:
        if not findings:
            print(f"{folder}: ok")
        for finding in findings:
            key = f" [{finding.key}]" if finding.key else ""
            print(f"{folder}: {finding.level}: {finding.file}{key}: {finding.message}")
    return 1 if errors else 0


# ---- the command ----


def build_parser() -> argparse.ArgumentParser:
    formatter = DefaultsHelpFormatter
    parser = argparse.ArgumentParser(
        prog="emucore", description="Headless tools of Retro Integration Studio (each has its own --help).",
        epilog=_epilog("verify or check found problems, or a playback movie does not match its integration",
                       "a missing ROM, folder, movie or core, an unknown game, state or core name"),
        formatter_class=formatter,
    )
    parser.add_argument("--version", action="version", version=f"emucore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    cores = commands.add_parser(
        "cores", help="show the core found for each system", formatter_class=formatter,
        epilog=_epilog(None, "or no system descriptors found; a system without a core is listed, not a failure"))
    cores.add_argument("-v", "--verbose", action="store_true", help="also list the folders searched (text only)")
    cores.add_argument("--json", action="store_true",
                       help="print one JSON list: per system its core, source and path, or what is missing")
    cores.set_defaults(func=cmd_cores)
    info = commands.add_parser(
        "info", help="load a ROM and print what its core reports", formatter_class=formatter,
        epilog=_epilog(None, "a missing ROM or core, an unknown core name, a ROM the core refuses"))
    info.add_argument("rom")
    info.add_argument("--core", help="a core name or a path to a .so (default: the first core found for the system)")
    info.add_argument("--json", action="store_true", help="print the same fields as one JSON object")
    info.set_defaults(func=cmd_info)
    commands.add_parser("import", help="find ROMs of known games in folders and zips and copy them in")
    commands.add_parser("playback", help="replay .bk2 movies: verify, render video, export info and returns")
    commands.add_parser("rollout", help="play episodes with an agent, here or on a Ray cluster; a JSON line each")
    commands.add_parser("check", help="replay movies through an integration as training would; report what looks wrong")
    verify = commands.add_parser(
        "verify", help="lint integration folders (or game names) and run each for a step", formatter_class=formatter,
        epilog=_epilog("a finding is an error", "a folder or game that does not exist: nothing is verified then"))
    verify.add_argument("targets", nargs="+", metavar="FOLDER", help="an integration folder or a game name")
    verify.add_argument("--deep", action="store_true", help="also decompress every state")
    verify.add_argument(
        "--lint-only", action="store_true", help="only read the files; do not run the game for a step"
    )
    verify.add_argument("--json", action="store_true",
                        help="print one JSON list: per folder its findings (level, file, key, message)")
    verify.set_defaults(func=cmd_verify)
    return parser


def _own_parser(name: str) -> Callable[[list[str]], int]:
    """The ``main`` of a subcommand that parses its own options (--help included)."""
    if name == "import":
        from emucore.cli.import_roms import main
    elif name == "playback":
        from emucore.cli.playback import main
    elif name == "check":
        from emucore.cli.check import main
    else:
        from emucore.cli.rollout import main
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore``: runs a subcommand and returns its exit status (0, 1 for findings, 2 for bad arguments)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["import"], ["playback"], ["check"], ["rollout"]):
        return _reporting_errors(_own_parser(argv[0]), argv[1:])
    args = build_parser().parse_args(argv)
    return _reporting_errors(args.func, args)


def _reporting_errors(command: Callable[[Any], int], arguments: Any) -> int:
    """``command(arguments)``; an error it lets through is one ``emucore: ...`` line and exit status 2."""
    try:
        status = int(command(arguments) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
        return status
    except BrokenPipeError:  # the reader went away (`emucore cores | head -1`): what was asked for was written
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's final flush does not fail again
        return 0
    except (EmucoreError, OSError) as exc:
        print(f"emucore: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
