"""ScreenIcons on a real game: Ms. Pac-Man draws the lives left as Ms. Pac-Man icons at the bottom
(ale-py's ROM, stable-retro's integration: ``lives`` in RAM is the count drawn)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emucore.assist import ScreenIcons, ScreenNumberError
from emucore.assist.screen_play import read_states

BOX = (8, 168, 40, 20)  # loose, around the row at the bottom left


@pytest.fixture
def mspacman(stable_atari):
    env = stable_atari("MsPacman")
    env.action_space.seed(0)
    env.reset(seed=0)
    frames, lives, states = [], [], []
    for _ in range(2500):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        frames.append(env.em.get_screen().copy())
        lives.append(int(info["lives"]))
        states.append(env.em.get_state())
        if terminated or truncated:
            break
    assert {2, 1, 0} <= set(lives)
    return env, frames, lives, states


def test_icons_are_counted_on_every_frame(mspacman):
    env, frames, lives, _ = mspacman
    examples = [(frames[lives.index(n) + 30], n) for n in (2, 1, 0)]
    icons = ScreenIcons.learn(examples, BOX)
    assert icons.align == "left" and icons.reader.pitch == 16
    reads = [icons.read(f) for f in frames]
    assert all(read is None or read == n for read, n in zip(reads, lives))  # never a wrong count
    assert all(read is None for read, n in zip(reads, lives) if n == 0)  # nothing drawn: not "0"
    drawn = [read for read, n in zip(reads, lives) if n]
    assert sum(read is not None for read in drawn) >= 0.95 * len(drawn)
    again = ScreenIcons.from_dict(json.loads(json.dumps(icons.to_dict())))
    assert [again.read(f) for f in frames[::50]] == reads[::50]


def test_labels_for_the_lives_wizard_come_from_the_states(mspacman):
    env, frames, lives, states = mspacman
    icons = ScreenIcons.learn([(frames[lives.index(n) + 30], n) for n in (2, 1)], BOX)
    picks = [lives.index(n) + 40 for n in (2, 1)]
    labels = read_states(env.em, icons.read, [states[i] for i in picks])
    assert [count for _, count in labels] == [2, 1]


def test_one_icon_cannot_tell_the_pitch(mspacman):
    _, frames, lives, _ = mspacman
    with pytest.raises(ScreenNumberError, match="two or more icons"):
        ScreenIcons.learn([(frames[lives.index(1) + 30], 1)], BOX)
    with pytest.raises(ValueError, match="icons shown must be an int"):
        ScreenIcons.learn([(frames[0], "2")], BOX)
    with pytest.raises(ScreenNumberError, match="no row of 3 alike icons"):
        ScreenIcons.learn([(frames[lives.index(2) + 30], 3)], BOX)
    assert np.asarray(frames[0]).shape == (210, 160, 3)
