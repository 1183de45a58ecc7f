"""Rewind restores exact RAM and frames, and stays within its memory budget."""

from __future__ import annotations

import numpy as np

from emucore import Emulator
from studio.model.play.rewind import RewindBuffer
from tests.conftest import GENESIS_ROM


def test_rewind_restores_exact_ram_and_frames():
    with Emulator(GENESIS_ROM) as emu:
        buffer = RewindBuffer(keyframe_every=16)
        rng = np.random.default_rng(0)
        history = []
        masks = [int(m) for m in rng.integers(0, 4096, 101)]
        for frame in range(100):
            emu.set_button_mask(masks[frame])
            emu.step()
            buffer.push(frame, emu.get_state())
            history.append((emu.get_ram().copy(), emu.get_screen()))
        for frame in range(99, -1, -1):
            popped_frame, state = buffer.pop()
            assert popped_frame == frame
            emu.set_state(state)
            assert np.array_equal(emu.get_ram(), history[frame][0])
            if frame + 1 < len(history):  # and playing on from there repeats the recorded frame
                emu.set_button_mask(masks[frame + 1])
                emu.step()
                assert np.array_equal(emu.get_ram(), history[frame + 1][0])
                assert np.array_equal(emu.get_screen(), history[frame + 1][1])
        assert buffer.pop() is None and len(buffer) == 0


def test_budget_drops_the_oldest_groups():
    buffer = RewindBuffer(max_bytes=50_000, keyframe_every=10)
    rng = np.random.default_rng(1)
    for frame in range(200):
        buffer.push(frame, rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())  # incompressible
    assert buffer.nbytes <= 50_000 + 4100
    assert buffer.oldest_frame() > 0
    assert buffer.pop()[0] == 199


def test_states_of_changing_size_start_new_groups():
    buffer = RewindBuffer()
    buffer.push(0, b"a" * 100)
    buffer.push(1, b"b" * 120)
    buffer.push(2, b"c" * 120)
    assert [buffer.pop(), buffer.pop(), buffer.pop()] == [(2, b"c" * 120), (1, b"b" * 120), (0, b"a" * 100)]


def test_state_count_budget_keeps_the_newest_whole_groups():
    buffer = RewindBuffer(keyframe_every=5, max_states=12)
    for frame in range(40):
        buffer.push(frame, bytes([frame]) * 64)
    assert 12 <= len(buffer) <= 12 + 5
    frames = []
    while (item := buffer.pop()) is not None:
        frames.append(item[0])
    assert frames == list(range(39, 39 - len(frames), -1)) and len(frames) == len(set(frames))
