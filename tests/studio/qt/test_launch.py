"""``retro-studio`` as a user starts it: its version, a missing Qt named by its extra, a screenshot with no screen,
the session of a killed studio offered for restore."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import emucore
from studio.model.play.recovery import Recovery
from tests.conftest import ROOT

STUDIO = Path(sys.executable).with_name("retro-studio")


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM",
                                                             "QT_LOGGING_RULES")}
    env.update(RETRO_STUDIO_DATA=str(tmp_path / "data"), RETRO_STUDIO_CONFIG=str(tmp_path / "config"))
    return env


def test_version(tmp_path):
    result = subprocess.run([STUDIO, "--version"], capture_output=True, text=True, timeout=60,
                            env=_environment(tmp_path))
    assert (result.returncode, result.stdout.strip()) == (0, f"retro-studio {emucore.__version__}")


def test_a_screenshot_needs_no_screen_and_prints_no_qt_noise(tmp_path):
    picture = tmp_path / "shot.png"
    result = subprocess.run([STUDIO, "--screenshot", picture, "--frames", "5", "--size", "640x480"],
                            capture_output=True, text=True, timeout=120, env=_environment(tmp_path))
    assert result.returncode == 0, result.stderr
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [line for line in result.stderr.splitlines() if not line.startswith("Sound is off: ")] == []


def test_without_qt_the_studio_names_its_extra(tmp_path):
    code = "import sys; sys.modules['PySide6'] = None; from studio.app import main; sys.exit(main(['--frames', '1']))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env=_environment(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "retro-studio: the studio needs PySide6 (Qt), which is not installed: "
        "pip install 'retro-integration-studio[studio]'"
    )


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
