"""The README's and the documentation site's code blocks, run as tests by Sybil (the root ``conftest.py`` hands it
pytest's collection of ``README.md`` and ``docs/**.md``).

- A ``python`` block runs in its page's namespace, after the blocks above it on that page, so a page reads as one
  session. A page's blocks run in a fresh temporary folder (their current directory), with the studio's data
  folder there too, so an example that writes files leaves nothing behind.
- A ``sh`` block runs in bash (``-e -u -o pipefail``) in that folder, with this interpreter's ``bin`` first on
  ``PATH`` (so ``emucore`` and ``python`` are the ones under test), and must exit 0 within 5 minutes.
- A block that cannot run here (it needs a cluster, a display, a ROM of your own, or installs software) is preceded
  by ``<!-- skip: next "why" -->``: pytest reports it as skipped with that reason. A skip without a reason would
  be silent, so it is refused (``test_every_skip_says_why``).
- ``text``, ``console`` and ``json`` blocks are shown, not run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parent.parent
SHELL_TIMEOUT_S = 300
PAGES = ("README.md", "docs/*.md", "docs/*/*.md")


def run_shell(example: Example) -> None:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", example.parsed], cwd=os.getcwd(), env=env,
                          capture_output=True, text=True, timeout=SHELL_TIMEOUT_S)
    if done.returncode != 0:
        raise AssertionError(f"exit status {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}")


def _enter_page(namespace: dict[str, Any]) -> None:
    folder = tempfile.mkdtemp(prefix="docs-example-")
    namespace["_page"] = (os.getcwd(), os.environ.get("RETRO_STUDIO_DATA"), folder)
    os.environ["RETRO_STUDIO_DATA"] = os.path.join(folder, "studio-data")
    os.chdir(folder)


def _leave_page(namespace: dict[str, Any]) -> None:
    cwd, studio_data, folder = namespace["_page"]
    os.chdir(cwd)
    if studio_data is None:
        os.environ.pop("RETRO_STUDIO_DATA", None)
    else:
        os.environ["RETRO_STUDIO_DATA"] = studio_data
    # an env a page left open (or a figure) is closed before its folder goes
    for value in list(namespace.values()):
        close = getattr(value, "close", None)
        if callable(close) and type(value).__module__.startswith(("emucore", "gymnasium")):
            try:
                close()
            except Exception:  # noqa: BLE001 - already closed, or closing a wrapper of a closed env
                pass
    shutil.rmtree(folder, ignore_errors=True)


def docs_sybil() -> Sybil:
    return Sybil(
        parsers=[PythonCodeBlockParser(), CodeBlockParser("sh", run_shell), SkipParser()],
        path=str(ROOT),
        patterns=list(PAGES),
        setup=_enter_page,
        teardown=_leave_page,
        name="docs",
    )
