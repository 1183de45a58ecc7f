"""A write that fails leaves no folder it made behind: atomic writes (emucore.fileio), make(record=) and
the studio's quick slots.

The failure is real: the child process lowers RLIMIT_FSIZE (Python ignores SIGXFSZ, so a write past it
is EFBIG, as a full disk's ENOSPC), after the folders are known to be missing.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from emucore.paths import integrations_dir
from tests.conftest import ROOT

LIMIT = """
import resource
def file_size_limit(size):
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
"""


def run_child(script: str, tmp_path: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RETRO_STUDIO_DATA": str(tmp_path / "studio-data"),
           "RETRO_STUDIO_CONFIG": str(tmp_path / "studio-config"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(LIMIT) + textwrap.dedent(script), *args],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_failed_atomic_write_removes_the_folders_it_made_only(tmp_path):
    base = tmp_path / "base"
    (base / "kept").mkdir(parents=True)
    seen = run_child("""
        import json, sys
        from pathlib import Path
        from emucore.fileio import atomic_write_bytes
        base = Path(sys.argv[1])
        file_size_limit(10)
        errors = []
        for target in (base / "new" / "deeper" / "file", base / "kept" / "new" / "file"):
            try:
                atomic_write_bytes(target, b"x" * 100)
            except OSError as exc:
                errors.append([exc.errno, exc.filename])
        atomic_write_bytes(base / "small" / "file", b"x")  # a write that fits keeps its folders
        print(json.dumps({"errors": errors}))
    """, tmp_path, str(base))
    assert seen["errors"] == [[errno.EFBIG, str(base / "new" / "deeper" / "file")],
                              [errno.EFBIG, str(base / "kept" / "new" / "file")]]  # naming the target
    assert sorted(p.name for p in base.iterdir()) == ["kept", "small"]
    assert list((base / "kept").iterdir()) == [], "a folder that was there was touched"
    assert (base / "small" / "file").read_bytes() == b"x"


def test_a_recording_whose_movie_cannot_be_written_leaves_no_folder(tmp_path):
    seen = run_child("""
        import json, sys
        import emucore
        from emucore.errors import MovieError
        env = emucore.make("StudioDemo-Genesis", record=sys.argv[1])
        env.reset(seed=0)
        for _ in range(10):
            env.step(env.action_space.sample())
        file_size_limit(100)  # the disk fills
        try:
            env.close()
            error = None
        except MovieError as exc:
            error = str(exc)
        print(json.dumps({"error": error}))
    """, tmp_path, str(tmp_path / "movies" / "today"))
    assert seen["error"] is not None and "today" in seen["error"]
    assert not (tmp_path / "movies").exists()


def test_a_failed_quick_slot_save_leaves_no_folder(tmp_path):
    seen = run_child("""
        import json, sys
        from studio.model.opening import resolve_game
        from studio.model.play.session import Session
        session = Session(*resolve_game(sys.argv[1], None))
        session.advance(5)
        workspace = session.states.workspace
        before = sorted(str(p) for p in workspace.parent.parent.rglob("*"))
        file_size_limit(100)  # the disk fills
        try:
            session.save_slot(1)
            error = None
        except OSError as exc:
            error = str(exc)
        after = sorted(str(p) for p in workspace.parent.parent.rglob("*"))
        session.close()
        print(json.dumps({"error": error, "before": before, "after": after,
                          "slots": str(workspace / "slots")}))
    """, tmp_path, str(integrations_dir() / "StudioDemo-Genesis"))
    assert seen["error"] is not None and "slot1.state" in seen["error"]
    assert seen["after"] == seen["before"], "the failed save left something behind"
    assert seen["slots"] not in seen["after"]
