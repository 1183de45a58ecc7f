"""check_integration(screen=...) and ``emucore check --screen``: the reward against the NES demo's
score read off every frame of a movie (blinking, one frame behind), at every change of it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import emucore
from emucore.assist import ScreenNumber, ScreenNumberError, check_integration
from emucore.assist.screen_check import changes
from emucore.assist.screen_file import SCREEN_FILE, read_screen, save_screen
from tests.conftest import ROOT
from tests.emucore.assist.test_check_integration import NES, REWARD, broken, ordinary, record
from tests.emucore.assist.test_screen_number import SCORE_BOX


@pytest.fixture(scope="module")
def movie(tmp_path_factory):
    return record(NES, tmp_path_factory.mktemp("screen-movie") / "play", ordinary, steps=400)


@pytest.fixture(scope="module")
def reader() -> ScreenNumber:
    """Learned from one frame of the same play, every digit taught once as a person would."""
    env = emucore.make(str(NES), use_restricted_actions=emucore.Actions.ALL)
    frames, shown, score = [], [], 0
    try:
        env.reset()
        for step in range(400):
            action = np.zeros(env.num_buttons, dtype=np.int8)
            for name in ordinary(step):
                action[env.buttons.index(name)] = 1
            observation, _, _, _, info = env.step(action)
            frames.append(observation)
            shown.append(f"{score:05d}")  # the HUD draws the score of the frame before
            score = info["score"]
    finally:
        env.close()
    screen = ScreenNumber.learn([(frames[120], shown[120])], SCORE_BOX)
    for unseen in screen.unseen(frames):
        screen.teach(frames[unseen.frame], unseen.cell, shown[unseen.frame][unseen.cell])
    return screen


def test_changes_tile_the_play_and_skip_unreadable_frames():
    assert changes([None, 0, 0, None, 10, 10, 20, None, None, 30]) == [(1, 0, 4, 10), (4, 10, 6, 20), (6, 20, 9, 30)]
    assert changes([None, None]) == [] and changes([5, 5, 5]) == []


def test_the_shipped_reward_agrees_with_the_screen_at_every_change(movie, reader, tmp_path):
    report = check_integration(NES, movies=[movie], screen=reader)
    summary = [f for f in report.findings if f.kind == "screen"]
    assert len(summary) == 1 and summary[0].severity == "info", report.text()
    # 150 frames of B add 10 each; the blink hides some, so the number read changes 120 times
    assert "at 120 of 120 changes (100%)" in summary[0].message
    assert "1 frame after the reward" in summary[0].message and "329 of 401 frames readable" in summary[0].message
    assert not [f for f in report.findings if f.kind == "screen-reward"]


def test_a_doubled_reward_is_caught_at_each_change_with_the_multiplier_that_matches(movie, reader, tmp_path):
    folder = broken(tmp_path, scenario={"reward": {"variables": {"score": {"reward": 2.0}}}})
    save_screen(reader, folder)
    report = check_integration(folder, movies=[movie], screen=True)
    wrong = [f for f in report.findings if f.kind == "screen-reward"]
    assert wrong and all(f.severity == "problem" for f in wrong)
    first = min((f for f in wrong if f.frame is not None), key=lambda f: f.frame)
    assert first.message.endswith(f"reward 20 where the screen went 0 to 10 at frame {first.frame}")
    assert first.variable == "score" and 50 < first.frame < 60
    assert any(f.message.endswith("115 more changes where the reward disagrees with the screen") for f in wrong)
    assert any(f.message.endswith("at every disagreement the screen changed 0.5x the reward: a reward multiplier "
                                  "of 1.0 for score would match") for f in wrong)
    assert "at 0 of 120 changes (0%)" in next(f.message for f in report.findings if f.kind == "screen")


def test_emucore_check_screen_reads_the_folders_reader(movie, reader, tmp_path):
    folder = broken(tmp_path, scenario={"reward": REWARD})
    command = [sys.executable, "-m", "emucore.cli", "check", str(folder), "--movie", str(movie), "--screen"]
    missing = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert missing.returncode == 2 and f"has no {SCREEN_FILE}" in missing.stderr
    saved = save_screen(reader, folder)
    assert read_screen(saved).glyphs == reader.glyphs
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agrees with the number on screen at 120 of 120 changes" in done.stdout
    saved.write_text("{not json")
    with pytest.raises(ScreenNumberError, match=f"{SCREEN_FILE}: not a JSON file"):
        read_screen(saved)
