"""Generated parts of the site, written at build time by mkdocs-gen-files (they exist only in the built site):
the CLI reference (``cli.md``) from the commands' own argparse parsers, so the page says what ``--help`` says, and
the JSON Schemas of the integration files (``schemas/*.schema.json``), copied from the package that ships them."""

from __future__ import annotations

import argparse
import os

import mkdocs_gen_files

from emucore.cli import check, dispatch, import_roms, playback, rollout
from emucore.paths import schemas_dir
from studio.app import build_parser as studio_parser

# argparse wraps its help to the terminal's width: a fixed width makes the page the same on every machine,
os.environ["COLUMNS"] = "80"  # the width of a code block on the page

# the subcommands that parse their own options (dispatch hands them their arguments)
OWN_PARSERS = {"import": import_roms, "playback": playback, "rollout": rollout, "check": check}

INTRO = """# CLI reference

Two commands are installed: `emucore`, the headless tools, and `retro-studio`, the desktop app. This page is
generated from their own argument parsers when the site is built, so it says what `--help` says.

Every `emucore` subcommand shares one exit status: 0 on success, 1 for findings (`verify` or `check` found a
problem, a `playback` movie does not match its integration), 2 for bad arguments (a missing ROM, folder, movie
or core, an unknown game, state or core name), said in one line on stderr, never a traceback.
"""


def _help(parser: argparse.ArgumentParser) -> str:
    return "```text\n" + parser.format_help().rstrip() + "\n```\n"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_page() -> str:
    emucore = dispatch.build_parser()
    parts = [INTRO, "## emucore\n", _help(emucore)]
    for name, sub in _subparsers(emucore).items():
        parser = OWN_PARSERS[name].build_parser() if name in OWN_PARSERS else sub
        parts += [f"## emucore {name}\n", _help(parser)]
    parts += ["## retro-studio\n", _help(studio_parser())]
    return "\n".join(parts)


with mkdocs_gen_files.open("cli.md", "w") as page:
    page.write(cli_page())

for schema in sorted(schemas_dir().glob("*.schema.json")):
    with mkdocs_gen_files.open(f"schemas/{schema.name}", "w") as published:
        published.write(schema.read_text())
