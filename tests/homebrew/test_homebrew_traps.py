"""The traps for memory-search tools in our homebrew games (homebrew/*/README.md, "Traps for
the assisted tools"), played on the real ROMs through emucore: a binary count of hundreds, a
volatile BCD HUD buffer, lives that reach 0 before the game over with a dying byte (NES), and
one-digit-per-byte tallies for two players (Genesis). None of them is in data.json."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import Emulator
from tests.conftest import GENESIS_ROM, NES_ROM, require_core

START = 1 << 3
NES_A, NES_B, NES_SELECT = 1 << 8, 1 << 0, 1 << 2
GEN_A, GEN_B = 1 << 1, 1 << 0

# NES zero page: the documented variables and the trap bytes
FRAME, GAME_OVER, LIVES, TIMER, SCORE = 0x10, 0x12, 0x13, 0x14, 0x20
BONUS, REST, DYING, HUD_BUF = 0x30, 0x33, 0x34, 0x40
# Genesis work RAM (logical addresses)
G_SCORE, G_FRAME, G_LIVES, G_GAME_OVER = 0xFF0000, 0xFF0008, 0xFF0012, 0xFF0013
P1_TALLY, P2_TALLY = 0xFF0020, 0xFF0026


def hold(emu: Emulator, mask: int, frames: int, mask2: int = 0) -> None:
    emu.set_button_mask(mask)
    emu.set_button_mask(mask2, player=1)
    for _ in range(frames):
        emu.step()
    emu.set_button_mask(0)
    emu.set_button_mask(0, player=1)


def boot(emu: Emulator, frame_address: int, frame_type: str) -> None:
    """Runs until the game has processed its first frame."""
    for _ in range(30):
        if emu.read(frame_address, frame_type) == 1:
            return
        emu.step()
    raise AssertionError("the game did not start within 30 frames")


def raw(emu: Emulator, address: int, count: int) -> list[int]:
    return [emu.read(address + i, "|u1") for i in range(count)]


def nes(core: str) -> Emulator:
    require_core(core)
    emu = Emulator(NES_ROM, core=core)
    boot(emu, FRAME, "<u2")
    return emu


def genesis(core: str) -> Emulator:
    require_core(core)
    emu = Emulator(GENESIS_ROM, core=core)
    boot(emu, G_FRAME, ">u2")
    return emu


def cell(screen: np.ndarray, col: int, row: int, nes: bool = True) -> bytes:
    """The on/off pixels of one 8x8 text cell (white text on a dark backdrop). The NES cores
    crop the 256x240 picture, centred (fceumm to 240x224, nestopia to 256x224); the Genesis
    cores show it from the top left (picodrive adds 16 lines below the 224)."""
    top, left = ((240 - screen.shape[0]) // 2, (256 - screen.shape[1]) // 2) if nes else (0, 0)
    block = screen[row * 8 - top : row * 8 - top + 8, col * 8 - left : col * 8 - left + 8]
    return (block.min(axis=2) > 200).tobytes()


NES_CORES = ["fceumm", "nestopia"]
GENESIS_CORES = ["genesis_plus_gx", "picodrive"]


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_bonus_is_a_binary_count_of_hundreds(core):
    with nes(core) as emu:
        assert raw(emu, BONUS, 2) == [0, 0]
        hold(emu, NES_SELECT, 16)
        assert raw(emu, BONUS, 2) == [0x10, 0x00]  # 16 hundreds, shown as 001600
        assert emu.read(BONUS, "<u2") == 16
        assert emu.read(SCORE, "<u2") == 0  # SELECT changes nothing else
        hold(emu, NES_SELECT | NES_A, 4)
        assert emu.read(BONUS, "<u2") == 20 and emu.read(SCORE, "<u2") == 4

        # the HUD: "BONUS" then the count's 4 digits and a fixed "00" (row 4, columns 8-13),
        # drawn with the score's glyphs (the picture lags RAM by a frame on the NES)
        hold(emu, NES_A, 16)  # score 20, bonus 20: "00020" and "002000"
        hold(emu, 0, 1)
        screen = emu.get_screen()
        glyph = {d: cell(screen, 8 + i, 2) for i, d in enumerate("00020")}
        assert len(set(glyph.values())) == 2 and all(any(g) for g in glyph.values())
        for i, d in enumerate("002000"):
            assert cell(screen, 8 + i, 4) == glyph[d], (i, d)

        # saturation at 9999 (poked: a game has only 900 play frames)
        emu.write(BONUS, "<u2", 9997)
        hold(emu, NES_SELECT, 5)
        assert emu.read(BONUS, "<u2") == 9999 and raw(emu, BONUS, 2) == [0x0F, 0x27]
        emu.write(BONUS, "<u2", 20)

        # frozen in game over, 0 after a START restart
        while emu.read(GAME_OVER, "|u1") == 0:
            hold(emu, 0, 1)
        hold(emu, NES_SELECT, 10)
        assert emu.read(BONUS, "<u2") == 20
        hold(emu, START, 1)
        assert emu.read(GAME_OVER, "|u1") == 0 and emu.read(BONUS, "<u2") == 0
        hold(emu, NES_SELECT, 3)
        assert emu.read(BONUS, "<u2") == 3


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_hud_buf_holds_the_score_three_frames_of_four(core):
    rng = np.random.default_rng(7)
    with nes(core) as emu:
        seen = {"score": 0, "timer": 0}
        for step in range(1300):
            mask = int(rng.choice([0, NES_A, NES_B, NES_A | NES_B, NES_SELECT]))
            if step in (950, 951):  # a restart after the game over
                mask = START * (step == 951)
            hold(emu, mask, 1)
            frame = emu.read(FRAME, "<u2")
            buf = emu.read(HUD_BUF, ">d3")
            if frame & 3:
                assert buf == emu.read(SCORE, "<u2"), (frame, buf)
                seen["score"] += 1
            else:
                assert buf == emu.read(TIMER, "<u2"), (frame, buf)
                seen["timer"] += 1
        assert emu.read(SCORE, "<u2") > 999  # the BCD conversion went past 3 digits
        assert seen["score"] == 3 * seen["timer"]
        # packed BCD, most significant byte first: score 61234 -> 06 12 34
        emu.write(SCORE, "<u2", 61234)
        hold(emu, 0, 1)
        if emu.read(FRAME, "<u2") & 3 == 0:
            hold(emu, 0, 1)
        assert raw(emu, HUD_BUF, 3) == [0x06, 0x12, 0x34]
        while emu.read(FRAME, "<u2") & 3:
            hold(emu, 0, 1)
        assert raw(emu, HUD_BUF, 3) == list(bytes.fromhex(f"{emu.read(TIMER, '<u2'):06d}"))


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_rest_reaches_zero_before_the_game_over_and_dying_marks_each_death(core):
    with nes(core) as emu:
        assert (emu.read(REST, "|u1"), emu.read(DYING, "|u1")) == (2, 0)
        history = {}  # frame -> (lives, rest, dying, game_over)
        while emu.read(FRAME, "<u2") < 1000:
            hold(emu, 0, 1)
            lives, game_over = emu.read(LIVES, "|u1"), emu.read(GAME_OVER, "|u1")
            rest, dying = emu.read(REST, "|u1"), emu.read(DYING, "|i1")
            assert rest == max(lives - 1, 0)
            history[emu.read(FRAME, "<u2")] = (lives, rest, dying, game_over)

        # rest: 2, 1, then 0 at the second life loss while the game goes on
        assert history[299][:2] == (3, 2) and history[300][:2] == (2, 1)
        assert history[599][:2] == (2, 1) and history[600] == (1, 0, -98, 0)
        assert all(history[f][1] == 0 and history[f][3] == 0 for f in range(600, 900))

        # dying: $9E (-98) at each death, one less per play frame, negative 30 frames
        for death in (300, 600):
            assert [history[death + k][2] for k in range(30)] == [-98 - k for k in range(30)]  # $9E..$81
            assert history[death + 30][2] == 0 and history[death - 1][2] == 0
        assert all(history[f][2] == 0 for f in range(2, 300))
        # the last death sets it too, and the game over freezes it
        assert history[899][3] == 0 and history[900] == (0, 0, -98, 1)
        assert all(history[f][2:] == (-98, 1) for f in range(900, 1000))
        assert emu.read(DYING, "|u1") == 0x9E

        # a START restart clears it; rest is back to 2
        hold(emu, START, 1)
        assert (emu.read(GAME_OVER, "|u1"), emu.read(DYING, "|u1"), emu.read(REST, "|u1")) == (0, 0, 2)


@pytest.mark.parametrize("core", NES_CORES)
def test_nes_rest_is_drawn(core):
    with nes(core) as emu:
        while emu.read(FRAME, "<u2") < 601:
            hold(emu, 0, 1)
        screen = emu.get_screen()  # shows frame 600: LIVES 1, REST 0
        assert cell(screen, 28, 2) != cell(screen, 28, 4) and any(cell(screen, 28, 4))
        lives_one = cell(screen, 28, 2)
        hold(emu, 0, 1)
        while emu.read(GAME_OVER, "|u1") == 0:
            hold(emu, 0, 1)
        hold(emu, 0, 1)
        screen = emu.get_screen()  # LIVES 0, REST 0
        assert cell(screen, 28, 2) == cell(screen, 28, 4) != lives_one


@pytest.mark.parametrize("core", GENESIS_CORES)
def test_genesis_tallies_keep_one_digit_per_byte(core):
    with genesis(core) as emu:
        assert raw(emu, P1_TALLY, 12) == [0] * 12
        hold(emu, GEN_A, 16)
        assert raw(emu, P1_TALLY, 6) == [0, 0, 0, 0, 1, 6]  # shown as 1P 0000160
        assert emu.read(P1_TALLY, ">n6") == 16
        assert raw(emu, P2_TALLY, 6) == [0] * 6 and emu.read(G_SCORE, ">u4") == 0

        # the second player's A on pad 2, right after it
        hold(emu, 0, 23, mask2=GEN_A)
        assert raw(emu, P2_TALLY, 6) == [0, 0, 0, 0, 2, 3] and emu.read(P1_TALLY, ">n6") == 16
        hold(emu, GEN_A | GEN_B, 5, mask2=GEN_A)
        assert emu.read(P1_TALLY, ">n6") == 21 and emu.read(P2_TALLY, ">n6") == 28
        assert emu.read(G_SCORE, ">u4") == 5

        # carries through the digits, saturation at 999999
        for i, digit in enumerate([0, 0, 0, 9, 9, 8]):
            emu.write(P1_TALLY + i, "|u1", digit)
        hold(emu, GEN_A, 2)
        assert raw(emu, P1_TALLY, 6) == [0, 0, 1, 0, 0, 0]
        for i in range(6):
            emu.write(P1_TALLY + i, "|u1", 9)
        emu.write(P1_TALLY + 5, "|u1", 7)
        hold(emu, GEN_A, 5)
        assert raw(emu, P1_TALLY, 6) == [9] * 6
        for i, digit in enumerate([0, 0, 0, 0, 2, 1]):
            emu.write(P1_TALLY + i, "|u1", digit)

        # frozen in game over, 0 after a restart
        while emu.read(G_GAME_OVER, "|u1") == 0:
            hold(emu, 0, 1)
        hold(emu, GEN_A, 10, mask2=GEN_A)
        assert (emu.read(P1_TALLY, ">n6"), emu.read(P2_TALLY, ">n6")) == (21, 28)
        hold(emu, START, 1)
        assert emu.read(G_LIVES, "|u1") == 3 and raw(emu, P1_TALLY, 12) == [0] * 12
        hold(emu, GEN_A, 2, mask2=GEN_A)
        assert (emu.read(P1_TALLY, ">n6"), emu.read(P2_TALLY, ">n6")) == (2, 2)


@pytest.mark.parametrize("core", GENESIS_CORES)
def test_genesis_tallies_are_drawn_with_a_trailing_zero(core):
    with genesis(core) as emu:
        hold(emu, GEN_A, 13, mask2=GEN_A)
        hold(emu, 0, 33, mask2=GEN_A)  # 1P 13, 2P 46
        emu.write(G_SCORE, ">u4", 1346)
        emu.write(0xFF0004, ">d4", 1346)  # score_bcd, which the HUD draws
        hold(emu, 0, 2)  # picodrive's picture lags a frame, genesis_plus_gx's does not
        screen = emu.get_screen()
        glyph = {d: cell(screen, 8 + i, 1, nes=False) for i, d in enumerate("00001346")}
        assert len(set(glyph.values())) == 5
        # "1P " at columns 2-4, 6 digits at 5-10 and a fixed 0; "2P " at 27-29, digits at 30-35
        for col, text in ((5, "0000130"), (30, "0000460")):
            for i, d in enumerate(text):
                assert cell(screen, col + i, 3, nes=False) == glyph[d], (col, i, d)
        assert cell(screen, 2, 3, nes=False) == glyph["1"]
