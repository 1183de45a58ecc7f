"""The ``emucore-gymnasium.pth`` hook costs nothing to interpreters that never import Gymnasium.

The ``.pth`` runs at every interpreter start in the environment (pip's included), so with it an interpreter
must import no module that it would not import anyway, ``emucore_gymnasium`` itself aside.

How the tests stay independent of how (and whether) the project is installed: each child runs with ``-E -S``
(no ``PYTHON*`` variables, no automatic ``site`` processing) and then calls ``site.addsitedir`` on a temporary
folder laid out as a wheel lays out site-packages: copies of the repository's ``emucore-gymnasium.pth`` and
``emucore_gymnasium.py``. The baseline child does the same with an empty folder, so both pay for ``site`` and
differ only by the hook. Letting ``site`` process this environment's site-packages instead would test the
installed copy of the ``.pth`` (refreshed only by ``pip install -e .``), and in an editable install the
setuptools finder's own ``.pth`` already imports ``importlib.util``, ``pathlib`` and ``__future__``, which would
hide exactly the imports this guards against.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PTH = "emucore-gymnasium.pth"
MODULE = "emucore_gymnasium.py"

START = """
import site, sys
site.addsitedir(sys.argv[1])
print(sorted(sys.modules))
print([type(finder).__name__ for finder in sys.meta_path])
"""

IMPORT_TIME = re.compile(r"import time:\s+\d+ \|\s+\d+ \| +(\S+)$")


def start(site_dir: Path, cwd: Path) -> tuple[set[str], set[str], list[str], str]:
    """A fresh interpreter that adds ``site_dir`` as a site folder.

    Returns the modules ``-X importtime`` saw it import (an import that failed included), the modules it
    holds at the end, its ``sys.meta_path`` finders' class names, and its stderr.
    """
    done = subprocess.run([sys.executable, "-E", "-S", "-X", "importtime", "-c", START, str(site_dir)],
                          capture_output=True, text=True, timeout=60, cwd=cwd)
    assert done.returncode == 0, done.stderr
    modules_line, finders_line = done.stdout.strip().splitlines()[-2:]
    timed = {match[1] for line in done.stderr.splitlines() if (match := IMPORT_TIME.match(line))}
    return timed, set(ast.literal_eval(modules_line)), ast.literal_eval(finders_line), done.stderr


def site_dir(path: Path, *files: str) -> Path:
    """A site folder with ``files`` of the repository and a ``.pth`` of another package, which holds a comment
    only: reading any ``.pth`` has its own cost (Python 3.13 imports ``encodings.utf_8_sig`` for it), which
    the baseline must pay too."""
    path.mkdir()
    (path / "another-package.pth").write_text("# a .pth of another package\n")
    for name in files:
        shutil.copy(REPO / name, path / name)
    return path


def test_the_hook_imports_nothing_a_bare_interpreter_does_not(tmp_path):
    base_timed, base_loaded, base_finders, _ = start(site_dir(tmp_path / "empty"), tmp_path)
    timed, loaded, finders, stderr = start(site_dir(tmp_path / "site", PTH, MODULE), tmp_path)
    assert "_GymnasiumWatcher" in finders and "_GymnasiumWatcher" not in base_finders, stderr
    assert "emucore_gymnasium" in loaded and "emucore_gymnasium" in timed
    assert timed - {"emucore_gymnasium"} == base_timed
    assert loaded - {"emucore_gymnasium"} == base_loaded
    assert "importlib.util" not in loaded and "__future__" not in loaded


def test_a_pth_left_without_its_module_is_silent(tmp_path):
    """A stale ``.pth`` (the module uninstalled) must not print an error at every interpreter start."""
    base_timed, base_loaded, _, _ = start(site_dir(tmp_path / "empty"), tmp_path)
    timed, loaded, finders, stderr = start(site_dir(tmp_path / "site", PTH), tmp_path)
    assert timed - {"emucore_gymnasium"} == base_timed  # the attempt shows in -X importtime, nothing else
    assert loaded == base_loaded and "_GymnasiumWatcher" not in finders
    assert [line for line in stderr.splitlines() if not line.startswith("import time:")] == []


GYMNASIUM = """
import json, site, sys
sys.path[:0] = json.loads(sys.argv[1])
site.addsitedir(sys.argv[2])
emucore_first = any(m == "emucore" or m.startswith("emucore.") for m in sys.modules)
watching = [type(finder).__name__ for finder in sys.meta_path]
import gymnasium
spec = gymnasium.spec("emucore/StudioDemo-Nes")
env = gymnasium.make("emucore/StudioDemo-Nes")
obs, info = env.reset(seed=0)
env.close()
print(json.dumps({"emucore_first": emucore_first, "watching": "_GymnasiumWatcher" in watching,
                  "still_watching": any(type(f).__name__ == "_GymnasiumWatcher" for f in sys.meta_path),
                  "entry_point": spec.entry_point, "game": env.unwrapped.gamename, "shape": list(obs.shape)}))
"""


def test_import_gymnasium_after_the_hook_has_the_emucore_ids(tmp_path):
    """The repository first on ``sys.path`` (emucore from this checkout), then what this process sees (Gymnasium)."""
    paths = [str(REPO)] + [entry for entry in sys.path if entry and Path(entry).is_dir()]
    done = subprocess.run([sys.executable, "-E", "-S", "-c", GYMNASIUM, json.dumps(paths),
                           str(site_dir(tmp_path / "site", PTH))], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {
        "emucore_first": False, "watching": True, "still_watching": False, "entry_point": "emucore.env.make:make",
        "game": "StudioDemo-Nes", "shape": [224, 240, 3]}
