"""``find_onsets``: where a game over marked late began, as the README's example uses it.

Ground truth: homebrew/nes/README.md: the game is over at the 900th play frame (``game_over``
becomes 1), the GAME OVER text follows 225 frames later, and the game then ignores every button
but START. The movies here are marked 236 frames after the game over.
"""

from __future__ import annotations

import json

import pytest

from emucore import Emulator
from emucore.assist import episode_examples, find_onsets
from emucore.assist.done_onset import WINDOW
from tests.emucore.assist.test_check_integration import NES, record, scoring


@pytest.mark.slow  # long replays
def test_late_marks_are_found_where_the_game_over_began(tmp_path):
    movies = [record(NES, tmp_path / f"late{i}", scoring, until=lambda info: info["frame"] == 900 + 236)
              for i in (1, 2)]
    emu = Emulator(NES / "rom.nes")
    data = json.loads((NES / "data.json").read_text())["info"]
    marked = episode_examples(emu, [str(m) for m in movies], margin=WINDOW)
    onsets = find_onsets(emu, marked, data=data)
    assert onsets.frames_before == [236, 236] and onsets.confirmed
    assert onsets.rule is not None and onsets.rule.describe() in ("game_over nonzero", "lives zero")
    on_time = [record(NES, tmp_path / "on-time", scoring, until=lambda info: info["game_over"] == 1)]
    assert find_onsets(emu, episode_examples(emu, [str(m) for m in on_time], margin=WINDOW),
                       data=data).frames_before == [0]
    emu.close()
