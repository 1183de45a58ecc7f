"""The ``emucore`` command: headless tools around the host. Each subcommand is a module of this package
(``cores``, ``info``, ``verify``, ``import_roms``, ``playback``, ``rollout``, ``check``); this one dispatches.

Exit status, the same for every subcommand: 0 on success; 1 when the command found problems (``verify``
and ``check`` findings, a ``playback`` movie that does not match its integration); 2 on bad arguments,
among them a missing ROM, folder, movie or core and an unknown game, state or core name, said in one
``emucore...: ...`` line on stderr (never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from emucore import __version__
from emucore.cli import cores, info, verify
from emucore.cli.format import DefaultsHelpFormatter, exit_status_epilog
from emucore.errors import EmucoreError, MissingExtraError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emucore", description="Headless tools of Retro Integration Studio (each has its own --help).",
        epilog=exit_status_epilog("verify or check found problems, or a playback movie does not match its "
                                  "integration", "a missing ROM, folder, movie or core, an unknown game, state or "
                                  "core name"),
        formatter_class=DefaultsHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"emucore {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    cores.add_parser(commands)
    info.add_parser(commands)
    commands.add_parser("import", help="find ROMs of known games in folders and zips and copy them in")
    commands.add_parser("playback", help="replay .bk2 movies: verify, render video, export info and returns")
    commands.add_parser("rollout", help="play episodes with an agent, here or on a Ray cluster; a JSON line each")
    commands.add_parser("check", help="replay movies through an integration as training would; report what looks wrong")
    verify.add_parser(commands)
    return parser


def _own_parser(name: str) -> Callable[[list[str]], int]:
    """The ``main`` of a subcommand that parses its own options (--help included); MissingExtraError, naming the
    subcommand and the extra, where the subcommand needs one that is not installed (``playback`` needs ``env``)."""
    try:
        if name == "import":
            from emucore.cli.import_roms import main
        elif name == "playback":
            from emucore.cli.playback import main
        elif name == "check":
            from emucore.cli.check import main
        else:
            from emucore.cli.rollout import main
    except MissingExtraError as exc:
        raise MissingExtraError(f"emucore {name}", exc.name or "", exc.extra) from exc
    except ModuleNotFoundError as exc:
        if exc.name != "gymnasium":
            raise
        raise MissingExtraError(f"emucore {name}", "Gymnasium", "env") from exc
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore``: runs a subcommand and returns its exit status (0, 1 for findings, 2 for bad arguments)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["import"], ["playback"], ["check"], ["rollout"]):
        name = argv[0]
        return _reporting_errors(lambda rest: _own_parser(name)(rest), argv[1:])
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
