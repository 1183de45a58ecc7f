"""Runs stable-retro's own Python test suite against emucore, unchanged, and prints its counts.

    .venv/bin/python scripts/stable_retro_suite.py SOURCE [--roms DIR] [--target emucore|stable-retro] [PYTEST ARGS]

SOURCE is a checkout of stable-retro (github.com/Farama-Foundation/stable-retro) holding
``tests/test_python`` and ``tests/dummy.json``; nothing of it is copied into this repository. The
suite runs in a scratch folder with ``retro`` resolving to emucore (:mod:`emucore.retro.alias`),
the test ROMs of ``--roms`` (default: ``../shared/stable-retro-test-roms`` beside the repo, else
SOURCE's ``tests/roms``), and a data root that is a copy of the installed stable-retro's data with
the ale-py Atari ROMs imported (``RETRO_DATA_PATH``), so Airstriker and 32 Atari games have ROMs.
``--target stable-retro`` runs the same suite on stable-retro itself, for comparison.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROM_SUFFIXES = {".md", ".nes", ".sfc", ".32x", ".gba", ".a26", ".gg", ".sms", ".pce", ".gb"}
CONFTEST = '''
import os

if os.environ.get("SUITE_TARGET") == "emucore":
    import emucore.retro.alias

    emucore.retro.alias.install()
'''


def _data_root(scratch: Path) -> Path:
    import stable_retro  # its data folder, found by the package's location

    root = scratch / "data"
    shutil.copytree(Path(stable_retro.__file__).parent / "data", root)
    try:
        import ale_py.roms
    except ImportError:
        print("ale-py is not installed: the Atari games have no ROMs", file=sys.stderr)
        return root
    env = dict(os.environ, RETRO_DATA_PATH=str(root))
    subprocess.run([sys.executable, "-m", "emucore.cli", "import", "--no-progress",
                    str(Path(ale_py.roms.__file__).parent)], env=env, check=True, timeout=600,
                   stdout=subprocess.DEVNULL)
    return root


def _suite(source: Path, roms: Path, scratch: Path) -> Path:
    suite = scratch / "suite"
    (suite / "tests" / "roms").mkdir(parents=True)
    shutil.copytree(source / "tests" / "test_python", suite / "tests" / "test_python")
    for name in ("__init__.py", "dummy.json"):
        shutil.copyfile(source / "tests" / name, suite / "tests" / name)
    for rom in roms.iterdir():
        if rom.suffix in ROM_SUFFIXES and not rom.stem.upper().startswith("README"):
            shutil.copyfile(rom, suite / "tests" / "roms" / rom.name)
    (suite / "conftest.py").write_text(CONFTEST)
    return suite


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a checkout of stable-retro")
    parser.add_argument("--roms", type=Path, help="stable-retro's test ROMs")
    parser.add_argument("--target", choices=["emucore", "stable-retro"], default="emucore")
    args, pytest_args = parser.parse_known_args(argv)  # the rest goes to pytest (e.g. -x, -k NAME)
    pytest_args = [arg for arg in pytest_args if arg != "--"]
    if not (args.source / "tests" / "test_python").is_dir():
        parser.error(f"{args.source} has no tests/test_python: give a checkout of stable-retro")
    roms = args.roms or ROOT.parent / "shared" / "stable-retro-test-roms"
    if not roms.is_dir():
        roms = args.source / "tests" / "roms"
    with tempfile.TemporaryDirectory(prefix="stable-retro-suite-") as folder:
        scratch = Path(folder)
        suite, data = _suite(args.source, roms, scratch), _data_root(scratch)
        env = dict(os.environ, RETRO_DATA_PATH=str(data), SUITE_TARGET=args.target)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_python",
                   *pytest_args]
        return subprocess.run(command, cwd=suite, env=env, timeout=1800).returncode


if __name__ == "__main__":
    sys.exit(main())
