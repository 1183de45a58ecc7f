"""The assisted tools on the traps built into our homebrew games (homebrew/*/README.md, "Traps
for the assisted tools"): a HUD buffer that holds the score in BCD 3 frames of 4, a binary
count of hundreds drawn with "00", a one-digit-per-byte tally drawn with a fixed trailing 0
before a second player's tally, and lives that reach 0 before the game over with a dying byte
set at every death. Each trap fools the tool without the play; the play must undo it.
"""

from __future__ import annotations

import pytest

import emucore
from emucore import Emulator
from emucore.assist import done_rules, solve_value, suggest_done
from emucore.operations import Operation
from emucore.paths import integrations_dir
from emucore.search import Snapshot
from tests.conftest import GENESIS_ROM, NES_ROM

NES_A, NES_B, NES_SELECT = 1 << 8, 1 << 0, 1 << 2
GEN_A = 1 << 1
FRAME, GAME_OVER, SCORE, BONUS, REST, DYING, HUD_BUF = 0x10, 0x12, 0x20, 0x30, 0x33, 0x34, 0x40
G_FRAME, P1_TALLY = 0xFF0008, 0xFF0020


def started(rom, frame: int, frame_type: str) -> Emulator:
    emulator = Emulator(rom)
    while emulator.read(frame, frame_type) < 1:
        emulator.step()
    return emulator


def play(emulator: Emulator, mask: int, frames: int, history: list[bytes]) -> None:
    emulator.set_button_mask(mask)
    for _ in range(frames):
        emulator.step()
        history.append(emulator.get_state())
    emulator.set_button_mask(0)


def score_moment(emulator: Emulator, history: list[bytes]) -> None:
    """On to a frame whose HUD buffer holds the score (``frame & 3 != 0``), as a user's pause may."""
    play(emulator, 0, 1, history)
    while emulator.read(FRAME, "<u2") & 3 == 0:
        play(emulator, 0, 1, history)


def keys(found) -> list[tuple[int, str, int]]:
    return [(c.address, c.type, c.scale) for c in found]


def test_a_volatile_hud_buffer_wins_on_checkpoints_and_loses_on_the_play():
    with started(NES_ROM, FRAME, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = []
        for mask, frames in ((NES_A, 12), (NES_B, 30), (NES_A | NES_B, 20), (NES_A, 41)):
            play(nes, mask, frames, history)
            score_moment(nes, history)
            checkpoints.append((nes.get_state(), f"{nes.read(SCORE, '<u2'):05d}"))
        blind = solve_value(nes, checkpoints)
        assert keys(blind)[0] == (HUD_BUF, ">d3", 1)  # the trap bites without the play
        found = solve_value(nes, checkpoints, history)
        assert keys(found)[0] in {(0x22, ">n5", 1), (SCORE, "<u4", 1), (SCORE, "<u2", 1)}
        buffer = next(c for c in found if c.address == HUD_BUF and c.type == ">d3")
        assert buffer.steady is False and found[0].steady is True
        assert any("the steadiest reading" in n or "came straight back" in n for n in buffer.notes), buffer.notes
        assert keys(found).index((HUD_BUF, ">d3", 1)) > max(i for i, c in enumerate(found) if c.steady)
        assert not any(HUD_BUF in (a.first.address, a.second.address) for a in found.ambiguities)


def test_a_recorded_movie_is_history_too(tmp_path):
    """The play as a .bk2 replayed from its start state: the buffer is volatile there as well."""
    env = emucore.make(str(integrations_dir() / "StudioDemo-Nes"), record=str(tmp_path))
    try:
        env.reset(seed=0)
        emulator, buttons = env.unwrapped.em, env.unwrapped.buttons
        press = {name: [int(b == name) for b in buttons] for name in ("A", "B")}
        checkpoints = []
        for name, frames in (("A", 14), ("B", 25), ("A", 33), ("B", 9)):
            for _ in range(frames):
                env.step(press[name])
            while emulator.read(FRAME, "<u2") & 3 == 0:
                env.step([0] * len(buttons))
            checkpoints.append((emulator.get_state(), f"{emulator.read(SCORE, '<u2'):05d}"))
    finally:
        env.close()
    movie = next(tmp_path.glob("*.bk2"))
    with Emulator(NES_ROM) as nes:
        found = solve_value(nes, checkpoints, movie)
        assert found.played_frames > 80 and keys(found)[0][0] != HUD_BUF
        assert next(c for c in found if c.address == HUD_BUF).steady is False


def test_a_binary_count_of_hundreds_is_ambiguous_until_1000_and_then_found():
    with started(NES_ROM, FRAME, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = []
        for frames in (3, 2, 2, 1):  # counts 3, 5, 7, 8: the screen shows 000300 .. 000800
            play(nes, NES_SELECT, frames, history)
            checkpoints.append((nes.get_state(), f"{100 * nes.read(BONUS, '<u2'):06d}"))
        found = solve_value(nes, checkpoints, history)
        top = keys(found)[:3]
        assert (BONUS, "<u2", 100) in top or (BONUS, "|u1", 100) in top
        assert (BONUS, ">d2", 1) not in keys(found)[:6]  # the drawn "00" read from the zero byte after it
        binary = (BONUS, "<u2", 100)
        said = [a for a in found.ambiguities if binary in {(c.address, c.type, c.scale) for c in (a.first, a.second)}]
        bcd = [a for a in said if "d" in a.first.type[-2] + a.second.type[-2]]
        assert any(a.value == 1000 and "a shown value of 1,000 or more" in a.separated_by for a in bcd)
        play(nes, NES_SELECT, 8, history)  # count 16: the screen shows 001600
        checkpoints.append((nes.get_state(), f"{100 * nes.read(BONUS, '<u2'):06d}"))
        found = solve_value(nes, checkpoints, history)
        assert keys(found)[0] == (BONUS, "<u2", 100)  # little-endian, as the 6502 keeps it
        assert not any("d" in c.type for c in found if c.address == BONUS)


def test_one_digit_per_byte_drawn_with_a_fixed_zero_is_found_at_x10():
    """The trailing 0 is drawn, not stored; the byte after the tally (the second player's
    first digit) stays 0, and reading it as the last digit is no evidence."""
    with started(GENESIS_ROM, G_FRAME, ">u2") as genesis:
        history: list[bytes] = []
        checkpoints = []
        for frames in (12, 30, 25, 36):
            play(genesis, GEN_A, frames, history)
            tally = genesis.read(P1_TALLY, ">n6")
            checkpoints.append((genesis.get_state(), f"{tally:06d}0"))
        found = solve_value(genesis, checkpoints, history)
        assert (P1_TALLY, ">n6", 10) in keys(found)[:3]
        assert keys(found).index((P1_TALLY, ">n6", 10)) < keys(found).index((P1_TALLY, ">n7", 1))
        pair = next(a for a in found.ambiguities if {a.first.type, a.second.type} == {">n6", ">n7"}
                    and a.first.address == a.second.address == P1_TALLY)
        assert pair.separated_by.startswith("a shown value that does not end in 0")


@pytest.fixture(scope="module")
def nes_episode():
    """The NES game left alone to its game over: lives 3, 2, 1, 0 (rest 2, 1, 0, 0); the dying
    byte is negative for 30 frames after each death and through the game over."""
    emulator = started(NES_ROM, FRAME, "<u2")
    frames = []
    while not frames or not frames[-1].read(GAME_OVER, "|u1"):
        emulator.step()
        frames.append(Snapshot.capture(emulator.memory))
    yield emulator, frames
    emulator.close()


def test_marks_before_the_first_death_allow_rules_that_fire_at_it(nes_episode):
    emulator, frames = nes_episode
    rules = done_rules(emulator, frames[20:290:50], frames[-1:])
    early = [r for r in rules if _first_fire(r, frames) < len(frames) - 1]
    assert early and any(t.address in (DYING, REST) for r in early for t in r.tests)
    assert "one game over seen" in rules.warnings[0]


def test_the_whole_episode_rules_out_every_rule_that_fires_at_an_earlier_death(nes_episode):
    emulator, frames = nes_episode
    rules = done_rules(emulator, episodes=[frames])
    assert rules and all(_first_fire(rule, frames) == len(frames) - 1 for rule in rules)
    assert rules[0].tests[0].address == GAME_OVER
    assert not any(t.address in (DYING, REST) and len(r.tests) == 1 for r in rules for t in r.tests)
    variables, done = suggest_done(emulator, episodes=[frames])
    assert variables == {"gameover": {"address": GAME_OVER, "type": "|u1"}}


def _first_fire(rule, frames: list[Snapshot]) -> int:
    for index, snap in enumerate(frames):
        if all(Operation(t.op).compute(snap.read(t.address, t.type), t.reference) for t in rule.tests):
            return index
    return len(frames)
