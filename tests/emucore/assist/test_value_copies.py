"""``solve_value`` on a person's approximate evidence, on the NES homebrew game's traps
(homebrew/nes/README.md): a top score at $08 that is a second copy of the score's digits at $22
(it follows the score a frame later and keeps the old game's best in a new game), and a score
whose HUD digits blink, so that a value typed from the screen can be a few frames stale.
"""

from __future__ import annotations

import numpy as np

from emucore import Emulator
from emucore.assist import solve_value
from tests.conftest import NES_ROM
from tests.emucore.assist.test_assisted_traps import GAME_OVER, SCORE, keys, play, started
from tests.homebrew.test_homebrew_traps import cell

NES_A, NES_B, START = 1 << 8, 1 << 0, 1 << 3
DIGITS, TOP = 0x22, 0x08
SCORE_FAMILY = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26}  # the binary score and its digits


def steady_checkpoints(nes: Emulator, history: list[bytes]) -> list[tuple[bytes, str]]:
    """Four checkpoints of a first game, each taken with the score standing still for 20 frames
    (so the top score has caught up: both copies read it)."""
    checkpoints = []
    for mask, frames in ((NES_B, 3), (NES_A, 7), (NES_B, 5), (NES_A, 3)):
        play(nes, mask, frames, history)
        play(nes, 0, 20, history)
        assert nes.read(TOP, ">n5") == nes.read(SCORE, "<u2")
        checkpoints.append((nes.get_state(), f"{nes.read(SCORE, '<u2'):05d}"))
    return checkpoints


def test_a_top_score_that_follows_the_score_ranks_after_it_and_the_pair_is_named():
    with started(NES_ROM, 0x10, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = steady_checkpoints(nes, history)
        blind = solve_value(nes, checkpoints)
        found = solve_value(nes, checkpoints, history)

    # without the play nothing tells the copies apart: the lower address comes first, and the pair is named
    assert keys(blind)[0][0] == TOP
    (unseen,) = [a for a in blind.ambiguities if a.kind == "copies"]
    assert {unseen.first.address, unseen.second.address} == {TOP, DIGITS}
    assert "a new game after a game over" in unseen.separated_by

    # with it, the score (which changes first) is first; the top score's family after every score reading
    ranked = keys(found)
    assert ranked[0][0] in SCORE_FAMILY and (DIGITS, ">n5", 1) in ranked[:3]
    tops = [k for k, (address, _, _) in enumerate(ranked) if TOP - 4 <= address <= TOP + 4]
    scores = [k for k, (address, _, _) in enumerate(ranked) if address in SCORE_FAMILY]
    assert tops and max(scores[:3]) < min(tops)
    (copies,) = [a for a in found.ambiguities if a.kind == "copies"]
    assert (copies.first.address, copies.second.address) == (DIGITS, TOP)
    assert ">n5 at 0x22 changes first and >n5 at 0x8 follows it 1 frame later" in copies.separated_by
    assert "a new game after a game over" in copies.separated_by
    assert found.ambiguities[0] is copies and copies.describe().startswith("two copies of the value")
    assert any("follows it 1 frame later" in note for note in found[0].notes)


def test_a_new_game_in_the_play_shows_the_top_score_for_what_it_is():
    """The play goes on through the game over into a new game (no checkpoint there): the top
    score keeps the first game's best while the score starts again at 0."""
    with started(NES_ROM, 0x10, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = steady_checkpoints(nes, history)
        best = nes.read(SCORE, "<u2")
        while not nes.read(GAME_OVER, "|u1"):
            play(nes, 0, 1, history)
        play(nes, START, 1, history)
        play(nes, NES_A, 30, history)
        assert nes.read(SCORE, "<u2") == 30 and nes.read(TOP, ">n5") == best
        found = solve_value(nes, checkpoints, history)
    ranked = keys(found)
    assert ranked[0][0] in SCORE_FAMILY
    top = next(c for c in found if (c.address, c.type) == (TOP, ">n5"))
    said = [n for n in top.notes if "top score" in n]
    assert said and f">n5 at 0x8 kept {best:,} when >n5 at 0x22 fell back to 0" in said[0]
    # settled by the play: not a choice left open
    assert not [a for a in found.ambiguities if a.kind == "copies" and TOP in (a.first.address, a.second.address)]


def blank(screen: np.ndarray) -> bool:
    """Whether the HUD's five score digits (row 2, columns 8-12) are blank in the picture."""
    return not any(any(cell(screen, 8 + i, 2)) for i in range(5))


def test_a_value_typed_from_a_blinking_score_is_read_a_few_frames_before_its_checkpoint():
    with started(NES_ROM, 0x10, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = steady_checkpoints(nes, history)[:2]
        # the score rises; the person pauses while the digits are blank and types the last value
        # drawn (the picture shows the frame before's values)
        last_drawn, stale = None, 0
        nes.set_button_mask(NES_A)
        while True:
            nes.step()
            history.append(nes.get_state())
            if not blank(nes.get_screen()):
                last_drawn, stale = nes.read(SCORE, "<u2") - 1, 0
            else:
                stale += 1
                if stale == 4 and last_drawn is not None:
                    break
        nes.set_button_mask(0)
        assert nes.read(SCORE, "<u2") == last_drawn + 5  # typed 5 frames stale: RAM is ahead
        checkpoints.append((nes.get_state(), f"{last_drawn:05d}"))
        play(nes, NES_B, 4, history)
        play(nes, 0, 20, history)
        checkpoints.append((nes.get_state(), f"{nes.read(SCORE, '<u2'):05d}"))

        strict = solve_value(nes, checkpoints, history, near=0)
        found = solve_value(nes, checkpoints, history)
    assert not [k for k in keys(strict) if k[0] in SCORE_FAMILY]  # taken literally, the score fails checkpoint 3
    best = found[0]
    assert best.address in SCORE_FAMILY and best.offsets == (0, 0, -5, 0)
    assert (DIGITS, ">n5", 1) in keys(found)[:3]
    assert any("checkpoint 3 (shown" in n and "reads 5 frames before it was taken" in n for n in best.notes)
    assert "1 checkpoint read a few frames off" in best.describe()
