"""examples/ppo_retro.py runs: a short run writes its TensorBoard log and its learning curve."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_retro.py"


def test_a_short_run_logs_its_episodes(tmp_path):
    pytest.importorskip("torch.utils.tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    curve = tmp_path / "curve.csv"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--total-steps", "1024", "--num-envs", "4", "--num-steps", "128",
         "--epochs", "1", "--threads", "1", "--runs", str(tmp_path / "runs"), "--curve", str(curve),
         "--sticky-prob", "0.25"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(curve.open()))
    assert rows[0] == ["env_step", "episode_return"] and len(rows) > 1  # a 225-step episode ended in 256 steps
    (run,) = (tmp_path / "runs").iterdir()
    events = EventAccumulator(str(run))
    events.Reload()
    returns = [event.value for event in events.Scalars("charts/episode_return")]
    assert returns == [pytest.approx(float(row[1])) for row in rows[1:]]
    assert {"losses/policy", "losses/value", "charts/steps_per_second"} <= set(events.Tags()["scalars"])
