"""The memory search engine against brute force: every op, every type, odd block layouts."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from emucore import Emulator
from emucore.datatypes import parse_type
from emucore.host.memory import AddressSpace, Block
from emucore.search import DEFAULT_TYPES, OPS, MemorySearch, Snapshot, search_type, system_types
from emucore.search.decode import BulkDecoder
from tests.conftest import GENESIS_ROM, NES_ROM

ODD_TYPES = ("|u1", "|i1", "|d1", "|n1", ">u3", "<i3", "><u4", "<>d4", ">=n4", "<i8", ">u8", "<=i4",
             "<d5", ">n7", "<>u6", "><i6", "<>i5", ">d8", "<n2", ">i2")


class FakeEmulator:
    """Just what a search needs: ``memory`` (an AddressSpace) and ``system``."""

    def __init__(self, blocks: list[tuple[int, int]], overlay=None, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.arrays = [self.rng.integers(0, 256, size, dtype=np.uint8) for _, size in blocks]
        self.memory = AddressSpace([Block(start, a) for (start, _), a in zip(blocks, self.arrays)], overlay)
        self.system = None

    def scramble(self, fraction: float) -> None:
        for a in self.arrays:
            hits = self.rng.random(len(a)) < fraction
            a[hits] = self.rng.integers(0, 256, int(hits.sum()), dtype=np.uint8)
        # small steps too, so that increased-by/decreased-by have matches
        for a in self.arrays:
            where = self.rng.integers(0, len(a), max(1, len(a) // 20))
            a[where] += self.rng.integers(1, 3, len(where)).astype(np.uint8)

    def all_values(self, types) -> dict[tuple[int, str], int]:
        out = {}
        for block in self.memory.blocks:
            for address in range(block.start, block.end):
                if self.memory.locate(address)[0] != self.memory.blocks.index(block):
                    continue  # an earlier overlapping block answers for it
                for t in types:
                    out[(address, t)] = self.memory.read(address, t)
        return out


LAYOUTS = {
    "one block": ([(0x100, 96)], None),
    "overlay, odd size": ([(0xFF0000, 63)], ("=", ">", 2)),
    "contiguous + gap": ([(0, 20), (20, 5), (40, 30)], None),
    "overlap": ([(0, 40), (30, 40), (100, 3)], ("=", ">", 2)),
}


def brute(op: str, value, before: dict, after: dict, keys) -> set:
    kept = set()
    for key in keys:
        a, b = after[key], before[key]
        ok = {
            "equal": a == value if value is not None else a == b,
            "not-equal": a != value if value is not None else a != b,
            "less-than": a < value if value is not None else a < b,
            "greater-than": a > value if value is not None else a > b,
            "increased": a > b, "decreased": a < b, "changed": a != b, "unchanged": a == b,
            "increased-by": value is not None and a - b == value,
            "decreased-by": value is not None and b - a == value,
        }[op]
        if ok:
            kept.add(key)
    return kept


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_op_matches_brute_force(layout):
    blocks, overlay = LAYOUTS[layout]
    emu = FakeEmulator(blocks, overlay, seed=len(layout))
    types = ODD_TYPES
    cases = [(op, None) for op in OPS if op not in ("increased-by", "decreased-by")]
    cases += [("equal", 7), ("not-equal", 0), ("less-than", 100), ("greater-than", 1 << 20), ("less-than", -5),
              ("greater-than", -(1 << 40)), ("equal", 1 << 70), ("increased-by", 1), ("decreased-by", 2),
              ("increased-by", 256), ("increased-by", 0)]
    for op, value in cases:
        s = MemorySearch(emu, types)
        before = emu.all_values(types)
        assert {(c.address, c.type) for c in s.candidates} == set(before)
        emu.scramble(0.05)
        after = emu.all_values(types)
        s.refine(op, value)
        got = {(c.address, c.type): c for c in s.candidates}
        assert set(got) == brute(op, value, before, after, before), (op, value)
        for key, c in got.items():
            assert c.value == after[key] and c.previous == before[key]  # "previous": the snapshot compared with


def test_chained_refinements_from_dense_and_sparse_sets():
    emu = FakeEmulator([(0, 384)], ("=", ">", 2), seed=3)
    types = DEFAULT_TYPES
    s = MemorySearch(emu, types)
    expected = set(emu.all_values(types))
    values = emu.all_values(types)
    for op, value, fraction in [("greater-than", 50, 0.0), ("changed", None, 0.2), ("unchanged", None, 0.01),
                                ("increased", None, 0.3), ("decreased-by", 1, 0.001), ("not-equal", None, 0.5)]:
        emu.scramble(fraction)
        new = emu.all_values(types)
        s.refine(op, value)
        expected = brute(op, value, values, new, expected)
        values = new
        assert {(c.address, c.type) for c in s.candidates} == expected, op


def test_against_first_and_snapshots():
    emu = FakeEmulator([(0x100, 200)], seed=5)
    s = MemorySearch(emu, ("|u1", ">u2"))
    first = emu.all_values(s.types)
    emu.scramble(0.3)
    middle_snapshot = s.snapshot("middle")
    middle = emu.all_values(s.types)
    s.refine("changed")
    emu.scramble(0.3)
    now = emu.all_values(s.types)
    kept = {(c.address, c.type) for c in s.candidates}
    s.refine("increased", against="first")
    assert {(c.address, c.type) for c in s.candidates} == brute("increased", None, first, now, kept)
    assert s.history[-1].label == "increased (first)"
    s.undo()
    s.refine("less-than", against=middle_snapshot)
    assert {(c.address, c.type) for c in s.candidates} == brute("less-than", None, middle, now, kept)
    snap = s.snapshot()
    s.undo()
    s.refine("unchanged", snapshot=snap, against=snap)
    assert s.count == len(kept)


def test_values_equal_memory_read_on_the_games():
    """A few hundred random candidates of every type list, and every address near a block end."""
    rng = np.random.default_rng(11)
    for rom in (NES_ROM, GENESIS_ROM):
        with Emulator(rom) as emulator:
            emulator.set_button_mask(1 << 7)
            emulator.run_frames(60)
            memory = emulator.memory
            for types in (None, DEFAULT_TYPES, ODD_TYPES):
                s = MemorySearch(emulator, types)
                if types is None:
                    assert s.types == system_types(emulator.system)
                c = s.candidates
                rows = [int(r) for r in rng.integers(0, len(c), 200)]
                for block in memory.blocks:
                    for address in range(block.end - 8, block.end):
                        rows += [r for r in (c.find(address, t) for t in s.types) if r >= 0]
                values = c.values()[rows] if len(c) < 10 else None
                for row in rows:
                    candidate = c[row]
                    assert candidate.value == memory.read(candidate.address, candidate.type), candidate
                    assert candidate.previous == s.compared.read(candidate.address, candidate.type)
                assert values is None or len(values) == len(rows)


@pytest.mark.parametrize("blocks", [[(0, 30), (30, 3), (50, 17)], [(0, 40), (30, 40), (60, 5), (100, 3)]])
def test_snapshot_decodes_every_position_like_memory_read(blocks):
    emu = FakeEmulator(blocks, ("=", ">", 2), seed=9)
    snap = Snapshot.capture(emu.memory)
    positions = snap.layout.valid_positions
    addresses = snap.layout.addresses(positions)
    assert sorted(addresses) == [a for a in range(200) if emu.memory.is_mapped(a)]
    assert list(snap.layout.positions_of(addresses)) == list(positions)
    assert list(snap.layout.positions_of(np.array([-1, 33 if blocks[0][1] == 30 else 70, 99, 103, 10**9]))) == [-1] * 5
    for text in ODD_TYPES + DEFAULT_TYPES:
        st = search_type(text)
        full = snap.values(st)[positions]
        some = snap.values_at(st, positions)
        want = [emu.memory.read(int(a), text) for a in addresses]
        assert list(full) == want == list(some), text
        assert full.dtype == st.value_dtype == some.dtype


def test_rows_of_big_sets_without_listing_them():
    """Every row by the running-count index of a dense set equals the full listing, both ways."""
    emu = FakeEmulator([(0x100, 1000), (0x100 + 1000, 2000), (0x9000, 5000)], ("=", ">", 2), seed=8)
    s = MemorySearch(emu, DEFAULT_TYPES)
    emu.scramble(0.02)
    s.refine("greater-than", 10)
    s.refine("unchanged")
    after_unchanged = s.candidates_set
    s.undo()
    for cset in (after_unchanged, s.candidates_set):
        fresh = type(cset)(cset.layout, cset.parts)  # nothing cached
        assert fresh.count * 64 >= cset.layout.positions * len(cset.parts)  # dense: rows() uses the index
        positions, tids = fresh.rows(0, fresh.count)
        listed = type(cset)(cset.layout, cset.parts).order()
        assert np.array_equal(positions, listed[0]) and np.array_equal(tids, listed[1])
        for row in emu.rng.integers(0, fresh.count, 40):
            assert fresh.row_of(int(positions[row]), int(tids[row])) == row
    s.redo()
    c = s.candidates
    for row in emu.rng.integers(0, len(c), 40):
        candidate = c[int(row)]
        assert c.find(candidate.address, candidate.type) == row
        assert candidate.value == emu.memory.read(candidate.address, candidate.type)


def test_candidates_are_list_like():
    emu = FakeEmulator([(0x10, 50)], seed=1)
    s = MemorySearch(emu, ("|u1", ">u2"))
    c = s.candidates
    assert len(c) == 100 and c[0].address == 0x10 and c[0].type == "|u1" and c[1].type == ">u2"
    assert c[-1].address == 0x10 + 49 and c[-1].type == ">u2"
    assert [x.address for x in c[2:6]] == [0x11, 0x11, 0x12, 0x12] and len(c[::10]) == 10
    assert len(list(c)) == 100 and (0x12, ">u2") in c and (0x99, "|u1") not in c
    with pytest.raises(IndexError):
        c[100]
    records = c.records(0, 4)
    assert list(records["address"]) == [0x10, 0x10, 0x11, 0x11] and list(records["type"]) == ["|u1", ">u2"] * 2
    assert c.find(0x12, ">u2") == 5 and c.find(0x12, "<u4") == -1
    assert list(c.addresses(0, 3)) == [0x10, 0x10, 0x11] and list(c.type_indices(0, 3)) == [0, 1, 0]


def test_remove_rows_pairs_and_addresses():
    emu = FakeEmulator([(0, 64)], seed=2)
    s = MemorySearch(emu, ("|u1", "<u2"))
    s.remove([0, 3])  # rows: (0, |u1) and (1, <u2)
    assert (0, "|u1") not in s.candidates and (1, "<u2") not in s.candidates and s.count == 126
    s.remove([(5, "<u2")], addresses=[10, 11, 9999])
    assert s.count == 121 and (10, "<u2") not in s.candidates and (5, "|u1") in s.candidates
    assert [h.label for h in s.history] == ["start", "remove 2", "remove 5"]
    s.undo()
    assert s.count == 126
    s.undo()
    assert s.count == 128
    s.remove([])  # nothing: no step
    assert len(s.history) == 3


def test_bad_arguments():
    emu = FakeEmulator([(0, 16)])
    s = MemorySearch(emu, ("|u1",))
    with pytest.raises(ValueError, match="unknown refinement"):
        s.refine("bigger")
    with pytest.raises(ValueError, match="needs a value"):
        s.refine("increased-by")
    with pytest.raises(ValueError, match="takes no value"):
        s.refine("changed", 3)
    with pytest.raises(ValueError, match="against"):
        s.refine("changed", against="last")
    with pytest.raises(ValueError, match="width 0"):
        MemorySearch(emu, ("|u0",))
    with pytest.raises(ValueError):
        MemorySearch(emu, ())
    other = FakeEmulator([(0, 17)])
    with pytest.raises(ValueError, match="layout"):
        s.refine("changed", snapshot=Snapshot.capture(other.memory))
    assert len(s.history) == 1


def test_start_with_a_value_and_default_types():
    emu = FakeEmulator([(0, 256)])
    emu.arrays[0][:] = np.arange(256, dtype=np.uint8)
    s = MemorySearch(emu, ("|u1", "|i1"), value=200)
    assert {(c.address, c.type) for c in s.candidates} == {(200, "|u1")}
    s.start(-56)
    assert {(c.address, c.type) for c in s.candidates} == {(200, "|i1")}
    assert len(DEFAULT_TYPES) == 44 and len(set(DEFAULT_TYPES)) == 44
    assert all(parse_type(t).width in (1, 2, 4, 6, 8) for t in DEFAULT_TYPES)
    assert MemorySearch(emu).types == DEFAULT_TYPES  # no descriptor types: the built-in 44


def test_refinements_decode_only_what_they_compare(monkeypatch):
    """The work of refinements over 128 KiB with every type, counted (their speed is bench/bench_search.py's).
    A search decodes its start snapshot once, each byte layout once (the types of one layout, signed or not,
    share it), and no refinement decodes it again. Unchanged compares bytes and decodes nothing; a few changed
    bytes decode the values over them only; most bytes changed, or a comparison with a value, decode each
    layout of the new snapshot once."""
    full: collections.Counter = collections.Counter()  # (snapshot, byte layout) -> full decodes
    gathered: list[int] = []  # values decoded one at a time
    compose, gather = BulkDecoder._compose, BulkDecoder.gather

    def counted_compose(self, kind, width, order):
        full[(id(self.buf), kind, width, order)] += 1
        return compose(self, kind, width, order)

    def counted_gather(self, kind, width, order, positions, digits=None):
        gathered.append(len(positions))
        return gather(self, kind, width, order, positions, digits)

    monkeypatch.setattr(BulkDecoder, "_compose", counted_compose)
    monkeypatch.setattr(BulkDecoder, "gather", counted_gather)
    emu = FakeEmulator([(0xFF0000, 128 * 1024)], ("=", ">", 2), seed=4)
    layouts = {search_type(t).key for t in DEFAULT_TYPES}

    def refine(op: str, value: int | None, change) -> set:
        """The snapshots the refinement decoded in full (the start's decodes are counted, not returned)."""
        full.clear()
        search = MemorySearch(emu, DEFAULT_TYPES)
        started = set(full)
        assert len(layouts) < len(started) < 2 * len(layouts)  # with the halves the wider layouts are made of
        change()
        gathered.clear()
        search.refine(op, value)
        assert max(full.values()) == 1
        return {snapshot for snapshot, *_ in set(full) - started}

    assert refine("unchanged", None, lambda: emu.scramble(0.01)) == set() and not gathered
    few = np.array([10, 5000, 90000])
    assert refine("increased", None, lambda: np.add.at(emu.arrays[0], few, 1)) == set()
    assert 0 < sum(gathered) <= 2 * len(DEFAULT_TYPES) * len(few) * 8  # the values over those 3 bytes
    assert len(refine("increased", None, lambda: emu.scramble(0.1))) == 1
    assert len(refine("less-than", 1000, lambda: emu.scramble(0.0))) == 1 and not gathered


def test_big_memory_few_or_many_changes_against_an_oracle():
    """64 KiB from every candidate: a handful of changed bytes (position lists), 1% (masks), 30%
    (whole arrays), against values decoded independently at every position (checked above)."""
    emu = FakeEmulator([(0xFF0000, 64 * 1024)], ("=", ">", 2), seed=12)
    types = DEFAULT_TYPES + ("<i8", ">u8", "<>i5", ">n7", ">u3")
    cases = [("changed", None, 5), ("unchanged", None, 3), ("increased", None, 600), ("decreased-by", 1, 600),
             ("not-equal", None, 20000), ("increased-by", 2, 20000), ("decreased", None, 20000), ("less-than", 200, 0)]
    for op, value, count in cases:
        s = MemorySearch(emu, types)
        where = emu.rng.integers(0, len(emu.arrays[0]), count)
        emu.arrays[0][where] += emu.rng.integers(1, 3, count).astype(np.uint8)
        s.refine(op, value)
        valid = s.first.layout.valid_positions
        for t in types:
            st = search_type(t)
            b, a = s.first.values(st)[valid], s.previous.values(st)[valid]
            if op.endswith("-by"):
                wide = object if st.width == 8 else np.int64
                diff = a.astype(wide) - b.astype(wide)
                want = diff == (value if op == "increased-by" else -value)
            else:
                want = {"changed": a != b, "unchanged": a == b, "increased": a > b, "decreased": a < b,
                        "not-equal": a != b, "less-than": a < (value or 0)}[op]
            got = s.candidates_set.mask(s.types.index(t))[valid]
            assert np.array_equal(got, np.asarray(want, dtype=bool)), (op, t)
