"""``python -m emucore.examples.ppo_retro`` (shipped in the package) runs: a short run writes its TensorBoard log and
its learning curve; ``examples/ppo_retro.py`` in the source tree runs the same main; without torch the import names
the rl extra."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "ppo_retro.py"


@pytest.mark.slow  # training
def test_a_short_run_logs_its_episodes(tmp_path):
    pytest.importorskip("torch.utils.tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    curve = tmp_path / "curve.csv"
    done = subprocess.run(
        [sys.executable, "-m", "emucore.examples.ppo_retro", "--total-steps", "1024", "--num-envs", "4",
         "--num-steps", "128", "--epochs", "1", "--threads", "1", "--runs", str(tmp_path / "runs"),
         "--curve", str(curve), "--sticky-prob", "0.25"],
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


def test_the_source_tree_script_is_the_module():
    pytest.importorskip("torch.utils.tensorboard")
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m emucore.examples.ppo_retro [-h] [--game GAME]")


def test_without_torch_the_import_names_the_rl_extra():
    code = "import sys; sys.modules['torch'] = None\nimport emucore.examples.ppo_retro"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "emucore.errors.MissingExtraError: emucore.examples.ppo_retro needs torch, which is not installed: "
        "pip install 'retro-integration-studio[rl]'")
