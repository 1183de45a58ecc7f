"""``emucore check --checkpoint`` and ``check_integration`` on scores shown x1, x10 and x100.

A game that stores the score / 10 and shows it x10 needs a reward multiplier of 10: the rewards
then add up to the shown change. The check once multiplied the shown change by the multiplier
again, and called such an integration "10x too small" (x100: "100x too small"). Integration
folders are built from StudioDemo-Nes with the multiplier in scenario.json; the shown value of
each checkpoint is the game's RAM score, read while recording, times the display scale.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.assist import check_integration
from emucore.paths import integrations_dir
from tests.conftest import ROOT

NES = integrations_dir() / "StudioDemo-Nes"
FRAMES = (40, 120, 300)


@pytest.fixture(scope="module")
def play(tmp_path_factory) -> tuple[Path, list[int]]:
    """A movie (right, then B for +10 a frame, then nothing) and the RAM score after each frame."""
    out = tmp_path_factory.mktemp("multiplier")
    env = emucore.make(str(NES), record=str(out), use_restricted_actions=emucore.Actions.ALL)
    try:
        env.reset()
        scores = [0]
        for step in range(400):
            action = np.zeros(env.num_buttons, dtype=np.int8)
            action[env.buttons.index("RIGHT" if step < 50 else "B" if step < 200 else "A")] = 1
            scores.append(env.step(action)[4]["score"])
        return Path(env.movie.path), scores
    finally:
        env.close()


def folder_with(tmp_path: Path, multiplier: float) -> Path:
    folder = tmp_path / f"x{multiplier:g}" / NES.name
    shutil.copytree(NES, folder)
    scenario = json.loads((folder / "scenario.json").read_text())
    scenario["reward"] = {"variables": {"score": {"reward": multiplier}}}
    (folder / "scenario.json").write_text(json.dumps(scenario))
    return folder


def both(folder: Path, movie: Path, points: list[tuple[int, int]]) -> tuple[list[tuple[str, str]], dict]:
    """The reward-scale findings of the Python call, and the command's JSON report."""
    report = check_integration(folder, movies=[movie], checkpoints={0: points})
    python = [(f.severity, f.message) for f in report.findings if f.kind == "reward-scale"]
    done = subprocess.run([sys.executable, "-m", "emucore.cli", "check", str(folder), "--movie", str(movie), "--json",
                           "--checkpoint", *(f"{frame}={shown:,}" for frame, shown in points)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout)
    assert document["ok"] == report.ok and done.returncode == (0 if report.ok else 1)
    return python, document


def cli_scale(document: dict) -> list[tuple[str, str]]:
    return [(f["severity"], f["message"]) for f in document["findings"] if f["kind"] == "reward-scale"]


@pytest.mark.parametrize("scale", [1, 10, 100])
def test_a_multiplier_that_matches_the_shown_scale_agrees_on_the_command_line_and_in_python(play, tmp_path, scale):
    movie, scores = play
    assert scores[FRAMES[0]] < scores[FRAMES[1]] < scores[FRAMES[2]]  # B was held in between
    points = [(frame, scores[frame] * scale) for frame in FRAMES]
    python, document = both(folder_with(tmp_path, float(scale)), movie, points)
    assert python == cli_scale(document)
    assert [severity for severity, _ in python] == ["info", "info"], python
    assert all(message.endswith("they agree") and f"(score x{scale:.1f})" in message for _, message in python)
    assert document["ok"] is True


@pytest.mark.parametrize(("multiplier", "scale", "words", "advice"), [
    (1, 10, "10x too small", "a reward multiplier of 10 would match"),
    (10, 100, "10x too small", "a reward multiplier of 100 would match"),
    (100, 10, "10x too large", "a reward multiplier of 10 would match"),
    (10, 1, "10x too large", "a reward multiplier of 1 would match"),
])
def test_a_wrong_multiplier_is_named_once_by_both(play, tmp_path, multiplier, scale, words, advice):
    movie, scores = play
    points = [(frame, scores[frame] * scale) for frame in FRAMES]
    python, document = both(folder_with(tmp_path, float(multiplier)), movie, points)
    assert python == cli_scale(document) and document["ok"] is False
    # B held between the first two checkpoints and between the last two: both spans name it
    assert [severity for severity, _ in python] == ["problem", "problem"], python
    assert all(f"the reward is {words}" in message and message.endswith(advice) for _, message in python), python
