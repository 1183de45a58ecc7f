"""``emucore cores``: each system, the core that would run it and where it was found."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from emucore.cli.format import DefaultsHelpFormatter, exit_status_epilog
from emucore.host.corefinder import find_library, search_dirs
from emucore.paths import descriptors_dir
from emucore.systems import System, library, systems


def add_parser(commands: Any) -> None:
    """Adds ``cores`` to the ``emucore`` command's subparsers."""
    cores = commands.add_parser(
        "cores", help="show the core found for each system", formatter_class=DefaultsHelpFormatter,
        epilog=exit_status_epilog(None, "or no system descriptors found; a system without a core is listed, "
                                        "not a failure"))
    cores.add_argument("-v", "--verbose", action="store_true", help="also list the folders searched (text only)")
    cores.add_argument("--json", action="store_true",
                       help="print one JSON list: per system its core, source and path, or what is missing")
    cores.set_defaults(func=cmd_cores)


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
