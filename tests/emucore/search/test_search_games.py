"""Memory search on the homebrew games: scripted play narrows to the documented addresses.

The RAM maps are in homebrew/genesis/README.md and homebrew/nes/README.md. Each test plays
like a person searching would (hold a button, refine; release, refine) and asserts that the
true address and type are among a handful of candidates after the stated number of refinements.
The other survivors are genuine aliases (the low half of the score, the BCD copy, the same byte
read as ``|i1``/``|d1``), which no amount of play can tell apart.
"""

from __future__ import annotations

import numpy as np
import pytest

from emucore import Emulator
from emucore.movie import MovieRecorder
from emucore.search import MemorySearch, compare_states, search_movie, snapshot_from_state
from tests.conftest import GENESIS_ROM, NES_ROM, play

# Genesis pad bits (libretro ids): B 0, RIGHT 7, LEFT 6, C 8. NES: B 0, A 8, LEFT 6, RIGHT 7.
G_B, G_C, RIGHT, LEFT = 1 << 0, 1 << 8, 1 << 7, 1 << 6
N_A, N_B = 1 << 8, 1 << 0

# Genesis: lives drop at power-on frames 304, 604, 904 (README "Timings"); NES at frame counter 300, 600, 900.
GENESIS_LIVES = (0xFF0012, "|u1")
NES_LIVES = (19, "|u1")


@pytest.fixture
def genesis():
    emulator = Emulator(GENESIS_ROM)
    play(emulator, 0, 9)  # boot: the game reads the pad from power-on frame 5
    yield emulator
    emulator.close()


@pytest.fixture
def nes():
    emulator = Emulator(NES_ROM)
    play(emulator, 0, 9)  # the first NMI (first game frame) is power-on frame 5
    yield emulator
    emulator.close()


def narrow_score(emulator: Emulator, plus_one: int, plus_ten: int) -> MemorySearch:
    """Six refinements: +1 x 20, unchanged, +10 x 30 (past 255), unchanged, +10 x 80 (past 1000), +1 x 7."""
    s = MemorySearch(emulator)
    play(emulator, plus_one, 20)
    s.refine("increased-by", 20)
    play(emulator, 0, 10)
    s.refine("unchanged")
    play(emulator, plus_ten, 30)
    s.refine("increased-by", 300)
    play(emulator, 0, 5)
    s.refine("unchanged")
    play(emulator, plus_ten, 80)
    s.refine("increased-by", 800)
    play(emulator, plus_one, 7)
    s.refine("increased-by", 7)
    return s


def test_genesis_score(genesis):
    s = narrow_score(genesis, G_B, G_C)
    found = {(c.address, c.type) for c in s.candidates}
    assert (0xFF0000, ">u4") in found and (0xFF0004, ">d4") in found  # score and score_bcd
    # the rest are the same score read through its low half or the low BCD digits
    assert found <= {(0xFF0000, ">u4"), (0xFF0000, ">i4"), (0xFF0002, ">u2"), (0xFF0002, ">i2"),
                     (0xFF0004, ">d4"), (0xFF0006, ">d2")}
    assert len(s.history) == 7 and [h.count for h in s.history][-1] == len(found)
    for c in s.candidates:
        assert c.value == genesis.memory.read(c.address, c.type) == 1127


def test_nes_score(nes):
    s = narrow_score(nes, N_A, N_B)
    found = {(c.address, c.type) for c in s.candidates}
    assert (32, "<u2") in found
    # <u2 =u2 <i2 =i2 at 32; the 4-byte BL reads at 30, whose high half (bytes 30, 31) is 0; and
    # >n4 at 35, the last four of the five score digits at 34 (>n5 is not among the 44 types)
    assert {address for address, _ in found} == {30, 32, 35} and len(found) <= 9, found
    assert all(c.value == 1127 for c in s.candidates)


@pytest.mark.core  # the emulator is a fixture named by the parameter
@pytest.mark.parametrize("game, lives", [("genesis", GENESIS_LIVES), ("nes", NES_LIVES)])
def test_lives_by_waiting(game, lives, request):
    """Four refinements: unchanged (frame 200), decreased-by 1 (310), unchanged (500), decreased-by 1 (610)."""
    emulator = request.getfixturevalue(game)
    s = MemorySearch(emulator)
    played = 10
    for until, op in ((200, "unchanged"), (310, "decreased-by"), (500, "unchanged"), (610, "decreased-by")):
        play(emulator, 0, until - played)
        played = until
        s.refine(op, 1 if op == "decreased-by" else None)
    found = {(c.address, c.type) for c in s.candidates}
    lives_reads = {(c.address, c.type) for c in s.candidates if c.value == 1}
    assert lives in lives_reads
    assert len(lives_reads) <= 6, lives_reads  # |u1 |i1 |d1 of lives, and 2-byte reads whose other byte is 0
    # The NES's `rest` trap ($33, extra lives 2, 1, 0; homebrew/nes/README.md) loses one at the
    # same frames, so it survives too (value 0), alone or read with the zero bytes around it.
    others = found - lives_reads
    assert all(c.value == 0 for c in s.candidates if (c.address, c.type) in others)
    if game == "nes":
        assert (0x33, "|u1") in others and {address for address, _ in others} <= set(range(0x2C, 0x34)), others
    else:
        assert not others, others


def test_genesis_x_position(genesis):
    """Four refinements: right x 10, unchanged, left x 25, unchanged."""
    s = MemorySearch(genesis)
    play(genesis, RIGHT, 10)
    s.refine("increased-by", 10)
    play(genesis, 0, 5)
    s.refine("unchanged")
    play(genesis, LEFT, 25)
    s.refine("decreased-by", 25)
    play(genesis, 0, 5)
    s.refine("unchanged")
    found = {(c.address, c.type) for c in s.candidates}
    assert (0xFF000A, ">u2") in found
    assert len(found) <= 4, found  # >u2 >i2 at x, |u1 |i1 of its low byte
    assert genesis.memory.read(0xFF000A, ">u2") == 152 - 15


def test_nes_x_position(nes):
    """Four refinements over the 1-byte types. x is mirrored in the OAM shadow: the smiley's
    four sprites have X = x, x + 8, x, x + 8 at 0x203, 0x207, 0x20B, 0x20F, and move with it."""
    s = MemorySearch(nes, ("|u1", "|i1", "|d1"))
    play(nes, RIGHT, 10)
    s.refine("increased")
    play(nes, 0, 5)
    s.refine("unchanged")
    play(nes, LEFT, 25)
    s.refine("decreased-by", 25)
    play(nes, 0, 5)
    s.refine("equal")  # no value: compared with the previous snapshot, like unchanged
    found = {(c.address, c.type) for c in s.candidates}
    assert (22, "|u1") in found
    assert {address for address, _ in found} <= {22, 0x203, 0x207, 0x20B, 0x20F}, found
    assert nes.memory.read(22, "|u1") == 120 - 15


def test_undo_redo_restore_exactly(genesis):
    s = MemorySearch(genesis)
    play(genesis, G_B, 10)
    s.refine("increased")
    before = s.candidates.records()
    previous = s.previous
    play(genesis, 0, 10)
    s.refine("unchanged")
    after = s.candidates_set
    assert s.undo()
    assert s.previous is previous
    restored = s.candidates.records()
    assert np.array_equal(restored[["address", "type", "previous"]], before[["address", "type", "previous"]])
    assert s.redo() and s.candidates_set is after
    assert not s.redo()
    assert s.undo() and s.undo() and not s.undo()
    assert s.count == len(s.candidates) == sum(s.counts_by_type().values())
    play(genesis, 0, 3)
    s.refine("changed")  # a new step drops what could be redone
    assert not s.can_redo and [h.label for h in s.history] == ["start", "changed"]


def lives_states(emulator: Emulator) -> dict[int, bytes]:
    """Save states at lives 3, 2 and 1, made by running the game (power-on frames 100, 400, 700)."""
    states, frame = {}, emulator.frame_count
    for lives, at in ((3, 100), (2, 400), (1, 700)):
        play(emulator, 0, at - frame)
        frame = at
        assert emulator.memory.read(*GENESIS_LIVES) == lives
        states[lives] = emulator.get_state()
    return states


def test_compare_states_finds_lives(genesis):
    states = lives_states(genesis)
    play(genesis, G_B, 5)
    ram, state = genesis.get_ram().copy(), genesis.get_state()
    s = compare_states(genesis, states)
    assert np.array_equal(genesis.get_ram(), ram) and genesis.get_state() == state  # left as it was
    found = {(c.address, c.type) for c in s.candidates}
    assert GENESIS_LIVES in found and len(found) <= 4, found
    ordered = compare_states(genesis, states, mode="order")
    assert GENESIS_LIVES in {(c.address, c.type) for c in ordered.candidates}
    assert ordered.count >= s.count
    either = compare_states(genesis, {0: states[3], 1: states[2], 2: states[1]}, mode="order-either")
    assert GENESIS_LIVES in {(c.address, c.type) for c in either.candidates}
    assert s.undo() and s.count > 1000  # back to every candidate
    snap = snapshot_from_state(genesis, states[2])
    assert snap.read(*GENESIS_LIVES) == 2 and genesis.get_state() == state
    s.redo()
    play(genesis, 0, 3)
    s.refine("unchanged", against=states[1])  # a state's memory as the reference
    assert GENESIS_LIVES in {(c.address, c.type) for c in s.candidates}


def test_movie_aligned_search_finds_lives(genesis, tmp_path):
    start = genesis.get_state()
    masks = np.random.default_rng(7).choice([0, RIGHT, LEFT, G_B], size=700).astype(np.uint16)
    masks[0] = 0  # line 0 of a movie is replayed with the buttons released
    lives = []  # the rows where a life is lost (what a player would see in the video)
    for mask in masks:
        genesis.set_button_mask(int(mask))
        genesis.step()
        lives.append(genesis.memory.read(*GENESIS_LIVES))
    drops = [row for row in range(1, len(lives)) if lives[row] == lives[row - 1] - 1]
    assert len(drops) == 2 and lives[-1] == 1
    genesis.set_state(start)
    changes = {row: -1 for row in drops}
    s = search_movie(genesis, masks, start, changes)
    assert genesis.get_state() == start
    found = {(c.address, c.type) for c in s.candidates}
    assert GENESIS_LIVES in found and len(found) <= 4, found  # |u1 |i1 |d1 of lives; <d4 (its other bytes stay 0)
    # the same through a recorded .bk2
    with MovieRecorder(tmp_path / "lives.bk2", genesis, "StudioDemo-Genesis") as recorder:
        for mask in masks:
            recorder.record_frame([int(mask)])
            genesis.set_button_mask(int(mask))
            genesis.step()
    genesis.set_state(start)
    from emucore.movie import Movie

    movie = Movie(tmp_path / "lives.bk2")
    again = search_movie(genesis, movie, None, changes)
    assert {(c.address, c.type) for c in again.candidates} == found
    late = search_movie(genesis, movie, None, {row + 1: -1 for row in drops})
    assert GENESIS_LIVES not in {(c.address, c.type) for c in late.candidates}
    loose = search_movie(genesis, movie, None, {drops[0]: "decreased"}, others=None)
    assert loose.count > s.count and GENESIS_LIVES in {(c.address, c.type) for c in loose.candidates}
