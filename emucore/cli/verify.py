"""``emucore verify FOLDER...``: lint integration folders (or game names) and run each for a step."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.cli.format import DefaultsHelpFormatter, exit_status_epilog

if TYPE_CHECKING:
    from emucore.integration import LintFinding


def add_parser(commands: Any) -> None:
    """Adds ``verify`` to the ``emucore`` command's subparsers."""
    verify = commands.add_parser(
        "verify", help="lint integration folders (or game names) and run each for a step",
        formatter_class=DefaultsHelpFormatter,
        epilog=exit_status_epilog("a finding is an error", "a folder or game that does not exist: nothing is "
                                                           "verified then"))
    verify.add_argument("targets", nargs="+", metavar="FOLDER", help="an integration folder or a game name")
    verify.add_argument("--deep", action="store_true", help="also decompress every state")
    verify.add_argument(
        "--lint-only", action="store_true", help="only read the files; do not run the game for a step"
    )
    verify.add_argument("--json", action="store_true",
                        help="print one JSON list: per folder its findings (level, file, key, message)")
    verify.set_defaults(func=cmd_verify)


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
            from emucore.assist.trial import trial_findings

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
