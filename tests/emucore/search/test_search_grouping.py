"""Candidates grouped by address: one row per address, the plausible type first, zero-extended
wider types hidden (the noise an integrator met with every type searched on a real NES game)."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import Emulator
from emucore.search import DEFAULT_TYPES, MemorySearch
from emucore.search.grouping import MAX_GROUPED, group_candidates
from tests.conftest import GENESIS_ROM, NES_ROM

N_A = 1 << 8


def types_of(search: MemorySearch, rows: np.ndarray) -> list[str]:
    positions, tids = search.candidates_set.order()
    return [search.types[int(t)] for t in tids[rows]]


def test_lives_on_the_nes_is_one_row_with_its_byte_types_first():
    emulator = Emulator(NES_ROM)
    emulator.run_frames(250)
    search = MemorySearch(emulator, DEFAULT_TYPES)  # every type: the noisy case
    search.refine("equal", 3)
    emulator.run_frames(100)  # a life is lost at frame 300
    search.refine("equal", 2)
    flat = search.count
    grouped = group_candidates(search)
    assert len(grouped) < flat / 4  # one row per address instead of one per type string
    lives = int(np.flatnonzero(grouped.addresses == 19)[0])
    assert types_of(search, grouped.members(lives))[0] == "|u1"
    assert grouped.rank[lives] <= 3  # among the first rows by plausibility
    # the wider reads of the same byte (">u2" at 18 over a zero, "<u4" at 19) are hidden...
    everything = group_candidates(search, hide_zero_extended=False)
    assert everything.hidden == 0 and grouped.hidden > 0
    assert len(everything.rows) == flat and sorted(everything.rows) == list(range(flat))
    hidden_types = set(types_of(search, everything.rows)) - set(types_of(search, grouped.rows))
    assert hidden_types and all(t[-1] != "1" for t in hidden_types)
    # ...and a family filter keeps only that family
    bcd = group_candidates(search, families={"bcd"})
    assert set(t[1] for t in types_of(search, bcd.rows)) == {"d"}


def test_the_genesis_score_keeps_its_bcd_and_binary_homes_apart():
    emulator = Emulator(GENESIS_ROM)
    emulator.run_frames(9)
    search = MemorySearch(emulator)  # the system's types
    for _ in range(3):
        emulator.set_button_mask(1)  # B: +1 a frame
        emulator.run_frames(40)
        emulator.set_button_mask(0)
        search.refine("increased")
        emulator.run_frames(10)
        search.refine("unchanged")
    assert emulator.memory.read(0xFF0000, ">u4") == 120  # the documented score (homebrew/genesis/README.md)
    grouped = group_candidates(search)
    by_address = {int(a): types_of(search, grouped.members(g)) for g, a in enumerate(grouped.addresses)}
    # below 256 the score's upper bytes are zero: its one byte at 0xFF0003 stands for it, and the
    # wider reads over those zeros are hidden until asked for
    assert by_address[0xFF0003][0] == "|u1"
    assert ">u4" not in by_address.get(0xFF0000, [])
    everything = group_candidates(search, hide_zero_extended=False)
    by_address = {int(a): types_of(search, everything.members(g)) for g, a in enumerate(everything.addresses)}
    assert ">u4" in by_address[0xFF0000]
    # every row of a group is at that group's address
    positions, _ = search.candidates_set.order()
    addresses = search.candidates_set.layout.addresses(positions)
    for g in range(len(grouped)):
        assert set(addresses[grouped.members(g)]) == {grouped.addresses[g]}


def test_grouping_refuses_unknown_families_and_huge_sets():
    emulator = Emulator(GENESIS_ROM)
    search = MemorySearch(emulator)
    with pytest.raises(ValueError, match="unknown type families"):
        group_candidates(search, families={"float"})
    assert search.count > MAX_GROUPED
    with pytest.raises(ValueError, match="refine first"):
        group_candidates(search)
