"""Game sound through QtMultimedia: the output plays what the AudioBuffer gives it, or stays silent without a device."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.conftest import ROOT
from tests.studio.model.test_audio_buffer import frame_sizes, sine


def test_audio_output_plays_or_stays_silent_without_errors(qapp):
    from studio.qt.play.audio_buffer_output import AudioOutput

    out = AudioOutput(32040.5)
    assert isinstance(out.available, bool)
    at = 0
    for n in frame_sizes(32040.5, 30):
        out.feed([sine(32040.5, at, n), np.zeros((0, 2), np.int16)])
        at += n
    out.feed([])
    out.set_volume(0.3)
    out.set_muted(True)
    out.feed([sine(32040.5, at, 534)])
    assert out.volume == pytest.approx(0.3) and out.muted
    if out.available:
        assert out.device_rate == out.buffer.target_rate > 0
    out.close()
    assert not out.available
    out.feed([sine(32040.5, 0, 534)])  # a no-op now
    out.close()


NO_DEVICE_SCRIPT = textwrap.dedent("""
    import logging, numpy as np
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(message)s")
    from studio.qt.play.audio_buffer_output import AudioOutput
    chunk = np.zeros((735, 2), np.int16)
    early = AudioOutput(44100)  # no QApplication yet
    early.feed([chunk])
    from PySide6.QtCore import QCoreApplication
    app = QCoreApplication([])
    outs = [AudioOutput(44100), AudioOutput(32040.5)]
    for out in outs:
        out.feed([chunk, chunk]); out.set_volume(0.5); out.set_muted(True); out.close(); out.feed([chunk])
    print("AVAILABLE", early.available, [out.available for out in outs])
""")


def test_audio_output_without_a_sound_device_is_a_silent_no_op(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(tmp_path),
               PULSE_SERVER=f"unix:{tmp_path}/no-pulse", PIPEWIRE_REMOTE=str(tmp_path / "no-pipewire"),
               PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", NO_DEVICE_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "AVAILABLE False [False, False]" in run.stdout
    said = [line for line in run.stderr.splitlines()
            if line.startswith("studio.qt.play.audio_buffer_output Sound is off")]
    if importlib.util.find_spec("PySide6.QtMultimedia") is None:  # PySide6-Addons not installed
        assert len(said) == 1 and "PySide6-Addons" in said[0], run.stderr
        return
    assert len(said) == 2, run.stderr  # once without an application, once for the missing device
    assert "QApplication" in said[0] and "no audio output device" in said[1]
