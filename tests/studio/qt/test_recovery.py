"""After a crash or kill, the next start finds the session to restore; after a clean exit it does not."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from studio.model.play.recovery import Recovery
from tests.conftest import ROOT


def test_clean_exit_leaves_nothing_to_restore(tmp_path):
    recovery = Recovery(tmp_path)
    recovery.start()
    recovery.record("StudioDemo-Genesis", b"state", 12, force=True)
    recovery.finish()
    assert Recovery(tmp_path).crashed_session() is None


def test_a_killed_studio_is_offered_for_restore(tmp_path):
    (tmp_path / "tmp").mkdir()  # a killed process leaves its emulator's save folder
    env = dict(os.environ, RETRO_STUDIO_DATA=str(tmp_path), RETRO_STUDIO_CONFIG=str(tmp_path / "config"),
               QT_QPA_PLATFORM="offscreen", TMPDIR=str(tmp_path / "tmp"))
    process = subprocess.Popen([sys.executable, "-m", "studio.app", "--no-restore-prompt"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not (tmp_path / "recovery.state").exists():
            time.sleep(0.2)
        assert (tmp_path / "recovery.state").exists(), "the studio wrote no recovery state"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    saved = Recovery(tmp_path).crashed_session()
    assert saved is not None and saved.game.endswith("StudioDemo-Genesis")
    assert Recovery(tmp_path).load_state(saved)
