"""solve_value with a ScreenNumber: the checkpoints come from every change of the score on screen
in the play (the NES demo's rewind-like history of states), none typed by a person."""

from __future__ import annotations

import pytest

from emucore.assist import ScreenNumber, solve_value
from emucore.assist.screen_play import pictures, screen_checkpoints
from tests.emucore.assist.test_screen_number import NES_A, NES_B, SCORE, SCORE_BOX, Nes


@pytest.fixture
def played():
    nes = Nes()
    history: list[bytes] = []
    for mask, frames in ((NES_B, 13), (NES_A, 9), (NES_A | NES_B, 25), (0, 20), (NES_B, 40), (NES_A, 30)):
        nes.emulator.set_button_mask(mask)
        for _ in range(frames):
            nes.emulator.step()
            history.append(nes.emulator.get_state())
    nes.emulator.set_button_mask(0)
    yield nes, history
    nes.close()


def test_the_solver_takes_its_checkpoints_from_the_screen(played):
    nes, history = played
    shown = []
    for state in history:  # what each state's picture shows: the score the state holds
        nes.emulator.set_state(state)
        shown.append(f"{nes.emulator.read(SCORE, '<u2'):05d}")
    frames = [picture.copy() for _, picture in pictures(nes.emulator, history)]
    reader = ScreenNumber.learn([(frames[-1], shown[-1])], SCORE_BOX)
    for unseen in reader.unseen(frames):  # "which digit is this?", answered once per shape
        reader.teach(frames[unseen.frame], unseen.cell, shown[unseen.frame][unseen.cell])
    now = nes.emulator.get_state()
    read = screen_checkpoints(nes.emulator, reader, history)
    assert nes.emulator.get_state() == now  # left as it was
    assert read.frames == len(history) and read.readable < read.frames  # the blink's off frames
    assert read.changes >= 10 and len(read.checkpoints) >= 10
    found = solve_value(nes.emulator, [], history, screen=reader)
    assert found and (found[0].address, found[0].type) in {(0x22, ">n5"), (SCORE, "<u2"), (SCORE, "<u4")}
    assert found.screen_read.frames == len(history)
    assert found.screen_read.describe().startswith(f"read {len(history)} frames, ")
    sparse = screen_checkpoints(nes.emulator, reader, history, most=40)
    assert sparse.stride == 4 and sparse.frames == len(range(0, len(history), 4))
    assert "(one state in 4)" in sparse.describe() and sparse.changes >= 5


def test_screen_needs_states_not_a_movie(played):
    nes, history = played
    with pytest.raises(ValueError, match="screen must be a ScreenNumber"):
        solve_value(nes.emulator, [], history, screen="not a reader")
    frame = next(picture.copy() for _, picture in pictures(nes.emulator, history[-1:]))
    reader = ScreenNumber.learn([(frame, f"{nes.emulator.read(SCORE, '<u2'):05d}")], SCORE_BOX)
    with pytest.raises(ValueError, match="states in play order"):
        solve_value(nes.emulator, [], None, screen=reader)
