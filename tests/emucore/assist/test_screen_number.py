"""ScreenNumber on our homebrew games: the NES demo's blinking score in nametable tiles over a
backdrop that changes colour, its top-score copy under it, and the Genesis demo's 8 BCD digits
beside two tallies in the same font. Every read is checked against the score in RAM (the NES
HUD shows the score of the frame before, the Genesis one the score of the frame)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emucore import Emulator
from emucore.assist import ScreenNumber, ScreenNumberError
from tests.conftest import GENESIS_ROM, NES_ROM

NES_A, NES_B, NES_START = 1 << 8, 1 << 0, 1 << 3
FRAME, GAME_OVER, SCORE, TOP = 0x10, 0x12, 0x20, 0x08
SCORE_BOX = (56, 8, 40, 7)  # tile row 2, columns 8-12 (the picture starts at NES x 8, y 8)
BLINK_OFF = 26  # the score is blank when frame & 31 >= 26


class Nes:
    """The NES demo played frame by frame, keeping each frame's picture and the score it shows."""

    def __init__(self) -> None:
        self.emulator = Emulator(NES_ROM)
        self.frames: list[np.ndarray] = []
        self.shown: list[str] = []  # the score of the frame before: what the HUD draws
        self.blank: list[bool] = []
        while self.emulator.read(FRAME, "<u2") < 1:
            self.emulator.step()

    def play(self, mask: int, frames: int) -> None:
        self.emulator.set_button_mask(mask)
        for _ in range(frames):
            before = f"{self.emulator.read(SCORE, '<u2'):05d}"
            self.emulator.step()
            self.frames.append(self.emulator.get_screen().copy())
            self.shown.append(before)
            self.blank.append(self.emulator.read(FRAME, "<u2") - 1 & 31 >= BLINK_OFF)
        self.emulator.set_button_mask(0)

    def example(self) -> tuple[np.ndarray, str]:
        """The next frame with the score drawn and steady."""
        self.play(0, 2)
        while self.blank[-1]:
            self.play(0, 1)
        return self.frames[-1], self.shown[-1]

    def close(self) -> None:
        self.emulator.close()


@pytest.fixture
def nes():
    game = Nes()
    yield game
    game.close()


def first_game_examples(nes: Nes) -> list[tuple[np.ndarray, str]]:
    out = []
    for mask, frames in ((NES_A | NES_B, 20), (NES_B, 13), (NES_A, 7)):
        nes.play(mask, frames)
        out.append(nes.example())
    return out


def second_game(nes: Nes) -> None:
    while not nes.emulator.read(GAME_OVER, "|u1"):
        nes.play(NES_B, 50)
    nes.play(0, 2)
    nes.play(NES_START, 1)
    nes.play(NES_A, 31)


def check_reads(reader: ScreenNumber, nes: Nes, start: int = 0) -> tuple[int, int]:
    """(read right, unreadable) over the frames from ``start``; fails on any wrong read."""
    right = unreadable = 0
    for index in range(start, len(nes.frames)):
        read = reader.read(nes.frames[index])
        if read is None:
            unreadable += 1
            continue
        assert read == nes.shown[index], f"frame {index}: read {read}, the HUD shows {nes.shown[index]}"
        assert not nes.blank[index]
        right += 1
    return right, unreadable


def test_locate_finds_the_score_not_its_top_copy_and_reads_every_frame(nes):
    examples = first_game_examples(nes)
    with pytest.raises(ScreenNumberError, match="2 places") as alike:
        ScreenNumber.locate(examples)  # the top score draws the same digits all through the first game
    assert len(alike.value.boxes) == 2
    second_game(nes)
    start = len(nes.frames)
    examples.append(nes.example())  # a new game: the top keeps the first game's best
    reader = ScreenNumber.locate(examples)
    assert reader.box[:3] == SCORE_BOX[:3] and reader.pitch == 8 and reader.cells == 5
    nes.play(NES_A | NES_B, 300)
    nes.play(NES_A, 200)  # A held: the backdrop is green, not blue
    for unseen in reader.unseen(nes.frames):
        digit = nes.shown[unseen.frame][unseen.cell]
        reader.teach(nes.frames[unseen.frame], unseen.cell, digit)
    assert reader.glyphs == "0123456789"
    right, unreadable = check_reads(reader, nes, start)
    blinking = sum(nes.blank[start:])
    assert unreadable == blinking  # the blink's off frames, and nothing else
    assert right == len(nes.frames) - start - blinking


def test_learn_in_a_dragged_box_from_one_example_and_read_the_blink_as_none(nes):
    nes.play(NES_B, 13)
    frame, shown = nes.example()
    assert shown == "00130"
    reader = ScreenNumber.learn([(frame, shown)], (54, 6, 44, 11))  # a few pixels loose
    assert reader.box[:2] == SCORE_BOX[:2] and reader.glyphs == "013"
    nes.play(NES_A, 1)  # 00131: digits it has seen
    nes.play(0, 40)
    off = [i for i, blank in enumerate(nes.blank) if blank]
    assert off and all(reader.read(nes.frames[i]) is None for i in off)
    right, _ = check_reads(reader, nes)
    assert right > 20


def test_a_wrong_example_is_left_out_and_said(nes):
    examples = first_game_examples(nes)
    second_game(nes)
    examples.append(nes.example())
    frame, shown = examples[1]
    examples[1] = (frame, shown[:-2] + "99")  # mistyped
    reader = ScreenNumber.locate(examples)
    assert reader.box[:3] == SCORE_BOX[:3]
    assert any("example 1" in note and "left out" in note for note in reader.notes)
    with pytest.raises(ScreenNumberError, match="no place on the screen"):
        ScreenNumber.locate(examples[:2])


def test_the_reader_round_trips_through_json(nes):
    examples = first_game_examples(nes)
    reader = ScreenNumber.learn(examples, SCORE_BOX)
    nes.play(NES_A | NES_B, 60)
    again = ScreenNumber.from_dict(json.loads(json.dumps(reader.to_dict())))
    assert again.box == reader.box and again.glyphs == reader.glyphs and again.pitch == reader.pitch
    assert [again.read(f) for f in nes.frames] == [reader.read(f) for f in nes.frames]
    broken = reader.to_dict()
    broken["glyphs"]["0"] = ["not base64!"]
    with pytest.raises(ScreenNumberError, match="glyph 0"):
        ScreenNumber.from_dict(broken)
    with pytest.raises(ScreenNumberError, match="version"):
        ScreenNumber.from_dict({**reader.to_dict(), "version": 99})


def test_bad_examples_and_frames_are_named(nes):
    frame, _ = nes.example()
    with pytest.raises(ScreenNumberError, match="only the digit 0"):
        ScreenNumber.locate([(frame, "00000"), (frame, "0")])
    with pytest.raises(ValueError, match="example 1: shown must be the digits"):
        ScreenNumber.locate([(frame, "00000"), (frame, "12a")])
    with pytest.raises(ValueError, match="example 0's frame must be an RGB frame"):
        ScreenNumber.locate([(frame[:, :, 0], "00000"), (frame, "12")])
    nes.play(NES_B, 13)
    reader = ScreenNumber.learn([nes.example()], SCORE_BOX)
    with pytest.raises(ValueError, match="reads 240x224 frames"):
        reader.read(np.zeros((10, 10, 3), dtype=np.uint8))
    with pytest.raises(ScreenNumberError, match="learned as"):
        reader.teach(nes.frames[-1], 2, "7")  # cell 2 draws the 1


def test_the_genesis_demo_score_in_its_own_font():
    with Emulator(GENESIS_ROM) as gen:
        frames, shown = [], []
        for buttons, hold in ((1 << 0, 30), (1 << 8, 12), (1 << 0 | 1 << 8, 25), (1 << 8, 40)):
            gen.set_button_mask(buttons)
            for _ in range(hold):
                gen.step()
                frames.append(gen.get_screen().copy())
                shown.append(f"{gen.read(0xFF0000, '>u4'):08d}")  # drawn in the same frame
    picks = [29, 66, 90]
    reader = ScreenNumber.locate([(frames[i], shown[i]) for i in picks])
    assert reader.cells == 8
    for unseen in reader.unseen(frames[4:]):  # from the first frame of play on
        reader.teach(frames[4 + unseen.frame], unseen.cell, shown[4 + unseen.frame][unseen.cell])
    reads = [reader.read(f) for f in frames[4:]]
    assert reads == shown[4:]
