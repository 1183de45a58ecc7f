"""``solve_value``: the score from what the screen shows, on real cores and real ROMs.

Ground truth: the homebrew RAM maps (homebrew/*/README.md) and stable-retro's shipped
integrations for the Atari 2600 ROMs that the ale-py wheel ships.
"""

from __future__ import annotations

import pytest

from emucore import Emulator
from emucore.assist import ValueCandidate, solve_value
from tests.conftest import GENESIS_ROM, NES_ROM

G_B, G_C, LEFT = 1 << 0, 1 << 8, 1 << 6
N_A, N_B = 1 << 8, 1 << 0
G_SCORE, G_SCORE_BCD, G_LIVES, G_DX = 0xFF0000, 0xFF0004, 0xFF0012, 0xFF000E


def play(emulator: Emulator, mask: int, frames: int) -> None:
    emulator.set_button_mask(mask)
    for _ in range(frames):
        emulator.step()
    emulator.set_button_mask(0)
    emulator.step()


def score_checkpoints(emulator: Emulator, plus_one: int, plus_ten: int, read) -> list[tuple[bytes, int]]:
    out = []
    for mask, frames in ((plus_one, 12), (plus_ten, 30), (plus_one | plus_ten, 20), (plus_ten, 40)):
        play(emulator, mask, frames)
        out.append((emulator.get_state(), read()))
    return out


def started(rom) -> Emulator:
    emulator = Emulator(rom)
    play(emulator, 0, 9)
    return emulator


@pytest.fixture(scope="module")
def genesis():
    with started(GENESIS_ROM) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def genesis_scores(genesis):
    return score_checkpoints(genesis, G_B, G_C, lambda: genesis.read(G_SCORE, ">u4"))


@pytest.fixture(scope="module")
def nes():
    with started(NES_ROM) as emulator:
        yield emulator


def nes_score_play(nes: Emulator, plan) -> tuple[list[bytes], list[tuple[bytes, str]]]:
    """Plays ``(mask, frames)`` in turn: the state after every frame (the history), and a
    checkpoint at the end of each with the NES score's 5 digits as drawn."""
    history, checkpoints = [], []
    for mask, frames in plan:
        nes.set_button_mask(mask)
        for _ in range(frames):
            nes.step()
            history.append(nes.get_state())
        checkpoints.append((history[-1], f"{nes.read(32, '<u2'):05d}"))
    return history, checkpoints


def keys(candidates: list[ValueCandidate]) -> list[tuple[int, str, int, int]]:
    return [(c.address, c.type, c.scale, c.bias) for c in candidates]


def test_eight_drawn_digits_choose_the_eight_digit_bcd_score(genesis, genesis_scores):
    found = solve_value(genesis, [(s, f"{v:08d}") for s, v in genesis_scores])
    assert keys(found)[0] == (G_SCORE_BCD, ">d4", 1, 0)
    assert found[0].values == tuple(v for _, v in genesis_scores) and found[0].exact
    assert (G_SCORE, ">u4", 1, 0) in keys(found)  # the binary copy of the same score is offered too
    assert all(c.shown == tuple(v for _, v in genesis_scores) for c in found)


def test_an_int_gives_the_narrowest_type_first_and_its_wider_aliases_next(genesis, genesis_scores):
    found = solve_value(genesis, genesis_scores)  # scores below 1000: the high bytes are zero
    assert keys(found)[0] == (G_SCORE + 2, ">u2", 1, 0)
    assert (G_SCORE, ">u4", 1, 0) in keys(found)[:3]


def test_a_screen_showing_ten_times_the_stored_value_gives_scale_10(genesis, genesis_scores):
    found = solve_value(genesis, [(s, f"{10 * v:09d}") for s, v in genesis_scores])
    assert keys(found)[0] == (G_SCORE_BCD, ">d4", 10, 0)
    assert found[0].shown == tuple(10 * v for _, v in genesis_scores)


def test_lives_shown_as_stored_plus_one_are_found_with_a_bias(genesis):
    start = genesis.get_state()
    checkpoints = []
    for frames in (20, 300, 300):  # a life is lost every 300 frames
        play(genesis, 0, frames)
        checkpoints.append((genesis.get_state(), genesis.read(G_LIVES, "|u1") + 1))
    genesis.set_state(start)
    assert [v for _, v in checkpoints] == [4, 3, 2]
    found = solve_value(genesis, checkpoints)
    assert (G_LIVES, "|u1", 1, 1) in keys(found)[:3]
    assert all(c.bias == 0 for c in found[: keys(found).index((G_LIVES, "|u1", 1, 1))] if c.address != G_LIVES)


def test_a_negative_shown_value_is_found_in_a_signed_type(genesis):
    start = genesis.get_state()
    checkpoints = []
    for mask, direction in ((LEFT, -1), (0, 0), (LEFT, -1)):
        genesis.set_button_mask(mask)
        genesis.step()
        genesis.step()
        checkpoints.append((genesis.get_state(), direction))
    genesis.set_button_mask(0)
    genesis.set_state(start)
    found = solve_value(genesis, checkpoints)
    assert (G_DX, ">i2", 1, 0) in keys(found)[:3]


def test_nibble_digits_one_per_byte():
    """With the play as history: the game's HUD buffer at 0x40 (BCD, the score 3 frames of 4)
    reads the checkpoints too, but not the play (tests/emucore/assist/test_assisted_traps.py)."""
    with started(NES_ROM) as nes:
        history, checkpoints = nes_score_play(nes, ((N_A, 12), (N_B, 30), (N_A | N_B, 20), (N_B, 40)))
        found = solve_value(nes, checkpoints, history)
        assert keys(found)[0] == (0x22, ">n5", 1, 0)
        assert (0x20, "<u2", 1, 0) in keys(found)


def test_a_last_digit_that_never_changed_is_no_evidence_and_is_said_to_be():
    """Scores that all end in 0: the last digit byte stayed 0, so the digits before it at x10
    explain the screen as well; the two are named as an ambiguity, with what would end it."""
    with started(NES_ROM) as nes:
        checkpoints = score_checkpoints(nes, N_B, N_B, lambda: nes.read(32, "<u2"))
        assert all(v % 10 == 0 for _, v in checkpoints)
        found = solve_value(nes, [(s, f"{v:05d}") for s, v in checkpoints])
    ranked = keys(found)
    # the score's digits at 0x22 and the top score's at 0x8 (a copy, homebrew/nes/README.md):
    # whichever copy's >n5 is listed, its x10 reading of the bytes before the last comes first
    listed = [a for a in (0x8, 0x22) if (a, ">n5", 1, 0) in ranked]
    assert listed and all(ranked.index((a, ">n4", 10, 0)) < ranked.index((a, ">n5", 1, 0)) for a in listed)
    pairs = {(a.first.type, a.second.type): a for a in found.ambiguities
             if a.kind == "reading" and a.first.address == a.second.address}
    assert pairs[(">n4", ">n5")].separated_by == "a shown value that does not end in 0"
    # with no play, nothing tells the two copies apart: named, with what would
    (copies,) = [a for a in found.ambiguities if a.kind == "copies"]
    assert {copies.first.address, copies.second.address} == {0x8, 0x22}
    assert "a new game after a game over" in copies.describe() and copies.describe().startswith("two copies")


def test_no_candidate_gives_an_empty_list(genesis, genesis_scores):
    assert solve_value(genesis, [(genesis_scores[0][0], 987654321), (genesis_scores[1][0], 123456789)]) == []


def test_the_emulator_is_left_as_it_was(genesis, genesis_scores):
    play(genesis, G_B, 3)
    before, frame = genesis.get_state(), genesis.frame_count
    solve_value(genesis, genesis_scores)
    assert genesis.get_state() == before and genesis.frame_count == frame


@pytest.mark.parametrize(
    ("checkpoints", "message"),
    [
        (lambda s: [(s, 1)], "at least two checkpoints"),
        (lambda s: [(s, 1), (s, "12a")], "checkpoint 1: shown '12a' is not a number"),
        (lambda s: [(s, 1), (s, 2.5)], "checkpoint 1: shown is an int or the digits drawn"),
        (lambda s: [(s, 1), (s, -(10**12))], "no signed type"),
        (lambda s: [(s, 1), (s, "9" * 30)], "larger than any type holds"),
        (lambda s: [(s, 1), "nope"], "checkpoint 1 is not a (state, shown) pair"),
        (lambda s: [(s, 1), (b"garbage", 2)], "checkpoint 1:"),
        (lambda s: [(s, 1), ("text", 2)], "checkpoint 1: a state is bytes"),
    ],
)
def test_bad_arguments_get_a_clear_value_error(genesis, checkpoints, message):
    before = genesis.get_state()
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        solve_value(genesis, checkpoints(before))
    assert genesis.get_state() == before


def test_a_negative_value_with_only_unsigned_types_is_refused(genesis, genesis_scores):
    with pytest.raises(ValueError, match="negative"):
        solve_value(genesis, [(genesis_scores[0][0], -3), (genesis_scores[1][0], 2)], types=["|u1", ">u2"])


def test_a_state_of_another_core_names_the_checkpoint(genesis, nes):
    with pytest.raises(ValueError, match="checkpoint 0: .*state"):
        solve_value(genesis, [(nes.get_state(), 1), (genesis.get_state(), 2)])


@pytest.mark.slow  # long play of real games
@pytest.mark.parametrize(("game", "digits"), [("AirRaid", 6), ("MsPacman", 6), ("CrazyClimber", 4)])
def test_real_atari_scores_match_the_shipped_integration(stable_atari, game, digits):
    """Big-endian BCD (AirRaid ``>d3``), little-endian BCD (Ms. Pac-Man ``<d3``), nibbles
    (Crazy Climber ``<n4``): random play, four scores, the shipped variable comes first."""
    from bench.eval_assisted import score_checkpoints

    env = stable_atari(game)
    truth = env.unwrapped.data.variables["score"]
    checkpoints = score_checkpoints(env, "score", range(4))
    assert len(checkpoints) == 4
    found = solve_value(env.unwrapped.em, [(s, f"{v:0{digits}d}") for s, v in checkpoints])
    assert (found[0].address, found[0].type) == (truth.address, truth.type)
    as_ints = solve_value(env.unwrapped.em, checkpoints)
    top = [(c.address, c.type) for c in as_ints[:3]]
    named = [(a.second.address, a.second.type) for a in as_ints.ambiguities if (a.first.address, a.first.type) in top]
    assert (truth.address, truth.type) in top + named  # Ms. Pac-Man's scores below 100: |d1 reads them too


def test_the_play_between_the_checkpoints_checks_every_candidate():
    """States of every frame as ``history``: the checkpoints are found in it, the score's
    readings are steady there and say so; a state list with a foreign state is refused."""
    with started(NES_ROM) as nes:
        history, checkpoints = nes_score_play(nes, ((N_A, 12), (N_B, 30), (N_A | N_B, 20), (N_A, 40)))
        found = solve_value(nes, checkpoints, history)
        assert found.played_frames == len(history)
        assert keys(found)[0] == (0x22, ">n5", 1, 0)
        assert found[0].steady is True and any(note.startswith("steady in 102 frames") for note in found[0].notes)
        assert solve_value(nes, checkpoints)[0].steady is None
        with pytest.raises(ValueError, match="history frame 1"):
            solve_value(nes, checkpoints, [history[0], b"garbage"])
