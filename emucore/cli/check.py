"""``emucore check``: replay movies through an integration as training would, and report what looks wrong.

Exit status: 0 when no finding is a problem, 1 when one is, 2 on bad arguments (a missing folder
or movie, a malformed checkpoint, an unreadable movie), said in one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from emucore.cli.format import DefaultsHelpFormatter
from emucore.errors import EmucoreError

_CHECKPOINT = re.compile(r"^(?:(\d+):)?(\d+)=(-?\d[\d,_]*)$")


class UsageError(ValueError):
    """A bad argument, said in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage block
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="emucore check",
        description="Replay recorded play through an integration exactly as training evaluates it (frame by frame) "
        "and report rewards that are always 0 or absurd, rewards that disagree with the shown score, done "
        "rules that fire early, late or never, and variables that are unmapped or never change.",
        epilog="Exit status: 0 when nothing is a problem; 1 when something is (a finding); 2 on bad arguments "
        "(a missing folder, movie or state, an unknown game, a malformed checkpoint, an unreadable movie).",
        formatter_class=DefaultsHelpFormatter,
    )
    parser.add_argument("folder", metavar="FOLDER", help="an integration folder (or a game name)")
    parser.add_argument("--movie", action="extend", nargs="+", default=[], metavar="M",
                        help=".bk2 movies of ordinary play")
    parser.add_argument("--episode", action="extend", nargs="+", default=[], metavar="E",
                        help=".bk2 movies that each end at a game over (their last frame is the game over)")
    parser.add_argument("--checkpoint", action="extend", nargs="+", default=[], metavar="[INDEX:]FRAME=SHOWN",
                        help="the score the screen showed after a movie frame; INDEX counts the movies, then the "
                        "episodes, from 0 (INDEX defaults to 0)")
    parser.add_argument("--screen", action="store_true",
                        help="read the score off every frame with the folder's screen.json (the reader the studio's "
                        "Find from screen saves) and compare the reward with it at every change of the number")
    parser.add_argument("--screen-file", metavar="READER", help="as --screen, with the reader saved in READER")
    parser.add_argument("--state", help="a state name or path for movies that carry no start state")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def parse_checkpoints(texts: Sequence[str]) -> dict[int, list[tuple[int, int]]]:
    """``["1:480=1,300", "120=100"]`` as ``{1: [(480, 1300)], 0: [(120, 100)]}``.

    Raises:
        UsageError: naming the malformed checkpoint.
    """
    points: dict[int, list[tuple[int, int]]] = {}
    for text in texts:
        match = _CHECKPOINT.match(text.strip())
        if match is None:
            raise UsageError(f"argument --checkpoint: {text!r} is not [INDEX:]FRAME=SHOWN (e.g. 1:480=1300)")
        index, frame, shown = match.groups()
        points.setdefault(int(index or 0), []).append((int(frame), int(shown.replace(",", "").replace("_", ""))))
    return points


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _run(build_parser().parse_args(argv))
    except (UsageError, EmucoreError, FileNotFoundError, ValueError) as exc:
        print(f"emucore check: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from emucore.assist import check_integration

    for option, paths in (("--movie", args.movie), ("--episode", args.episode)):
        for path in paths:
            if not os.path.isfile(path):
                raise UsageError(f"argument {option} {path}: no such file")
    if os.sep in args.folder and not os.path.isdir(args.folder):
        raise UsageError(f"argument FOLDER {args.folder}: no such folder")
    _check_game_name(args.folder)
    checkpoints = parse_checkpoints(args.checkpoint)
    screen = args.screen or None
    if args.screen_file is not None:
        from emucore.assist.screen_file import read_screen

        screen = read_screen(args.screen_file)
    report = check_integration(args.folder, movies=args.movie, episodes=args.episode, checkpoints=checkpoints,
                               state=args.state, screen=screen)
    print(report.to_json() if args.json else report.text())
    return 0 if report.ok else 1


def _check_game_name(folder: str) -> None:
    """A FOLDER that is neither a folder nor a known game: a UsageError suggesting the close game names."""
    from emucore import data
    from emucore.data.lookup import unknown_game_hint
    from emucore.integration import SHA_FILE

    if os.path.isdir(folder) or data.get_file_path(folder, SHA_FILE, data.Integrations.ALL):
        return
    raise UsageError(f"{folder}: no such integration folder or game{unknown_game_hint(folder, data.Integrations.ALL)}")


if __name__ == "__main__":
    sys.exit(main())
