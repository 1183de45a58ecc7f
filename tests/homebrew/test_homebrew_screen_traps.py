"""The NES homebrew game's traps for a person's evidence (homebrew/nes/README.md, "Traps for the
assisted tools"), played on the real ROM through emucore on both NES cores: a top score that
follows the score a frame late and outlives a game, a score whose HUD digits blink, and a GAME
OVER text that appears 225 frames after the game over. None of them changes the game."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import Emulator
from tests.homebrew.test_homebrew_traps import (
    FRAME,
    GAME_OVER,
    LIVES,
    NES_A,
    NES_B,
    NES_CORES,
    SCORE,
    START,
    cell,
    hold,
    nes,
    raw,
)

TOP, OVER_DELAY = 0x08, 0x35
SCORE_DIGITS = 0x22


def top(emu: Emulator) -> int:
    return emu.read(TOP, ">n5")


def digits_row(screen: np.ndarray, row: int) -> list[bytes]:
    return [cell(screen, 8 + i, row) for i in range(5)]


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_top_score_follows_the_score_a_frame_late_and_outlives_the_game(core):
    rng = np.random.default_rng(11)
    with nes(core) as emu:
        assert top(emu) == 0
        previous_score, best, lagging = 0, 0, 0
        while emu.read(GAME_OVER, "|u1") == 0:
            hold(emu, int(rng.choice([0, NES_A, NES_B, NES_A | NES_B])), 1)
            best = max(best, previous_score)  # the score of the frame before
            assert top(emu) == best, emu.read(FRAME, "<u2")
            assert all(0 <= d <= 9 for d in raw(emu, TOP, 5))
            score = emu.read(SCORE, "<u2")
            lagging += top(emu) != score
            previous_score = score
        assert lagging > 100  # it differed on every frame the score rose
        hold(emu, 0, 1)
        first_best = emu.read(SCORE, "<u2")
        assert top(emu) == first_best > 1000

        # a new game: the score starts again at 0, the top score keeps the old best
        hold(emu, START, 1)
        assert (emu.read(GAME_OVER, "|u1"), emu.read(LIVES, "|u1"), emu.read(SCORE, "<u2")) == (0, 3, 0)
        hold(emu, NES_A, 50)
        assert emu.read(SCORE, "<u2") == 50 and top(emu) == first_best
        # beaten: from then on it follows the score one frame late
        while emu.read(SCORE, "<u2") <= first_best:
            hold(emu, NES_A | NES_B, 1)
        beaten = emu.read(SCORE, "<u2")
        assert top(emu) == first_best  # the frame that beat it: not yet
        hold(emu, NES_A, 1)
        assert top(emu) == beaten and emu.read(SCORE, "<u2") == beaten + 1

        # drawn under the score as TOP ddddd (row 6), from the values of the previous frame
        while emu.read(FRAME, "<u2") % 32 != 5:  # a frame whose score digits are shown
            hold(emu, 0, 1)
        hold(emu, 0, 1)
        screen = emu.get_screen()
        shown = f"{emu.read(SCORE, '<u2'):05d}"
        assert shown == f"{top(emu):05d}"  # the score stood still for a frame
        assert digits_row(screen, 6) == digits_row(screen, 2)
        assert len(set(digits_row(screen, 6))) == len(set(shown))


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_score_digits_blink_six_frames_in_thirty_two(core):
    with nes(core) as emu:
        blank = cell(np.zeros((240, 256, 3), dtype=np.uint8), 8, 2)
        hidden = shown = 0
        previous = None
        for _ in range(200):
            hold(emu, NES_A, 1)
            frame = emu.read(FRAME, "<u2")
            screen = emu.get_screen()  # the values of the frame before
            score_cells, top_cells = digits_row(screen, 2), digits_row(screen, 6)
            assert all(any(c) for c in top_cells)  # the top score never blinks
            if (frame - 1) % 32 >= 26:
                assert score_cells == [blank] * 5, frame
                hidden += 1
            else:
                assert all(any(c) for c in score_cells), frame
                if previous is not None:
                    assert score_cells != previous  # a rising score, drawn each shown frame
                previous = score_cells
                shown += 1
            # RAM is unaffected: the digits always equal the score
            assert emu.read(SCORE_DIGITS, ">n5") == emu.read(SCORE, "<u2") == frame - 1
        assert (hidden, shown) == (36, 164)  # six blank spells of 6 frames in 200 frames


def message_shown(emu: Emulator) -> bool:
    screen = emu.get_screen()
    return any(any(cell(screen, 10 + i, 13)) for i in range(11))


@pytest.mark.slow  # a whole game played
@pytest.mark.parametrize("core", NES_CORES)
def test_nes_game_over_text_comes_225_frames_after_the_game_over(core):
    with nes(core) as emu:
        while emu.read(GAME_OVER, "|u1") == 0:
            assert emu.read(OVER_DELAY, "|u1") == 224 and not message_shown(emu)
            hold(emu, 0, 1)
        over = emu.read(FRAME, "<u2")
        assert over == 900 and emu.read(LIVES, "|u1") == 0 and emu.read(OVER_DELAY, "|u1") == 224
        seen = None
        for k in range(1, 300):
            hold(emu, 0, 1)
            assert emu.read(OVER_DELAY, "|u1") == max(224 - k, 0)
            if seen is None and message_shown(emu):
                seen = emu.read(FRAME, "<u2")
        assert seen == over + 225  # a person who marks at the text marks 225 frames late
        # both lines: GAME OVER and PRESS START
        screen = emu.get_screen()
        assert any(any(cell(screen, 10 + i, 15)) for i in range(11))

        # START restarts at once; the text goes and does not come back while playing
        hold(emu, START, 1)
        assert (emu.read(GAME_OVER, "|u1"), emu.read(OVER_DELAY, "|u1")) == (0, 224)
        hold(emu, 0, 2)
        assert not message_shown(emu)

        # START before the text: a new game straight away, no text ever
        while emu.read(GAME_OVER, "|u1") == 0:
            hold(emu, 0, 1)
        hold(emu, 0, 30)
        assert emu.read(OVER_DELAY, "|u1") == 194 and not message_shown(emu)
        hold(emu, START, 1)
        assert (emu.read(GAME_OVER, "|u1"), emu.read(LIVES, "|u1"), emu.read(OVER_DELAY, "|u1")) == (0, 3, 224)
        for _ in range(300):
            hold(emu, 0, 1)
            assert not message_shown(emu) and emu.read(OVER_DELAY, "|u1") == 224
