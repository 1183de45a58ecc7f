"""The Search dock's searches saved in the workspace and loaded back (studio.model.search.search_book_store; the
dock showing them: ``tests/studio/qt/test_search_store_panel.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emucore import Emulator
from emucore.search import MemorySearch
from studio.model.search.search_book import SearchBook
from studio.model.search.search_book_store import (
    KEEP_STEPS,
    SearchStore,
    content_hash,
    encode_candidates,
    kept_steps,
    npz_bytes,
)
from tests.conftest import GENESIS_ROM, NES_ROM, play

# Genesis pad (libretro ids): B adds 1 to the score, C adds 10 (homebrew/genesis/README.md).
G_B, G_C = 1 << 0, 1 << 8


@pytest.fixture
def genesis():
    emulator = Emulator(GENESIS_ROM)
    play(emulator, 0, 9)
    yield emulator
    emulator.close()


def two_searches(emulator: Emulator, book: SearchBook) -> None:
    """"Score" over the system's types (four refinements, the last undone) and "Lives" over bytes."""
    book.create("Score")
    play(emulator, G_B, 20)
    book.refine("increased-by", 20)
    play(emulator, 0, 10)
    book.refine("unchanged")
    play(emulator, G_C, 30)
    book.refine("increased")
    play(emulator, 0, 5)
    book.refine("unchanged")
    book.undo()
    book.create("Lives", types=("|u1", "|i1"))
    play(emulator, 0, 300)
    book.refine("decreased")
    book.refine("less-than", against="first")
    book.remove([(int(book.current.candidates.addresses()[0]), "|i1")])
    book.value_texts.update({"Score": "1127", "Lives": "$2"})
    book.select("Score")


def picture(search: MemorySearch) -> tuple:
    """Everything a search shows: history, position, undo/redo, candidates with previous values."""
    cands = search.candidates
    return (search.history, search.position, search.can_undo, search.can_redo, search.types,
            cands.addresses().tolist(), cands.type_indices().tolist(), cands.previous().tolist(),
            search.first.buf.tobytes(), search.previous.buf.tobytes(), search.previous.frame, search.previous.label)


def reopen(folder: Path, state: bytes, rom: Path = GENESIS_ROM) -> tuple[Emulator, SearchBook, list]:
    emulator = Emulator(rom)
    if state:
        emulator.set_state(state)
    book, reports = SearchBook(emulator), []
    SearchStore.attach(book, folder, reports.append)
    return emulator, book, reports


def test_round_trip(genesis, tmp_path):
    folder = tmp_path / "searches"
    book = SearchBook(genesis)
    store = SearchStore.attach(book, folder)
    two_searches(genesis, book)
    assert store.save()
    state = genesis.get_state()
    before = {name: picture(book.get(name)) for name in book.names()}
    assert book.get("Score").can_redo and [h.count for h in book.get("Lives").history][1:] == [2, 2, 1]

    emulator, again, reports = reopen(folder, state)
    try:
        assert reports == []
        assert again.names() == ["Score", "Lives"] and again.current_name == "Score"
        assert again.value_texts == {"Score": "1127", "Lives": "$2"}
        for name in again.names():
            old, new = book.get(name), again.get(name)
            assert picture(new) == before[name]
            assert new.candidates.values().tolist() == old.candidates.values().tolist()
            while old.redo():  # forward to the end, then back to the start, step by step
                assert new.redo() and picture(new) == picture(old)
            assert not new.redo()
            while old.undo():
                assert new.undo() and picture(new) == picture(old)
            assert not new.undo() and new.position == 0
        # the restored search goes on refining like the original
        for em, b in ((genesis, book), (emulator, again)):
            b.select("Score")
            b.redo()
            play(em, G_B, 3)
            b.refine("increased-by", 3)
        assert picture(again.current)[:7] == picture(book.current)[:7]
    finally:
        emulator.close()


def test_a_book_saved_with_the_former_op_names_loads_with_the_names_now(genesis, tmp_path):
    """Searches saved before "less"/"greater" were renamed "less-than"/"greater-than"."""
    folder = tmp_path / "searches"
    book = SearchBook(genesis)
    SearchStore.attach(book, folder)
    two_searches(genesis, book)
    index = folder / "book.json"
    text = index.read_text()
    assert '"less-than (first)"' in text
    index.write_text(text.replace('"less-than (first)"', '"less (first)"'))
    state = genesis.get_state()

    emulator, again, reports = reopen(folder, state)
    try:
        assert reports == []
        assert [h.label for h in again.get("Lives").history][-2:] == ["less-than (first)", "remove 1"]
        store = SearchStore(again, folder)
        store.save()
        assert index.read_text() == text  # written with the names now
    finally:
        emulator.close()


def test_saves_only_what_is_new(genesis, tmp_path):
    folder = tmp_path / "searches"
    book = SearchBook(genesis)
    SearchStore.attach(book, folder)
    book.create("Score")
    play(genesis, G_B, 5)
    book.refine("increased")
    files = {p: p.stat().st_mtime_ns for p in folder.rglob("*.npz")}
    play(genesis, G_B, 5)
    book.refine("increased")
    after = {p: p.stat().st_mtime_ns for p in folder.rglob("*.npz")}
    assert all(after[p] == files[p] for p in files)  # nothing rewritten
    assert len(set(after) - set(files)) == 2  # one snapshot and one candidate set
    book.undo()
    book.start()  # the steps after the start are no longer referenced: their files go
    assert len(list(folder.rglob("*.npz"))) == 1 + 1  # the start's snapshot and its candidates
    book.delete("Score")
    assert list(folder.rglob("*.npz")) == []
    assert json.loads((folder / "book.json").read_text())["searches"] == []


def test_disk_use_is_bounded(genesis, tmp_path):
    folder = tmp_path / "searches"
    book = SearchBook(genesis)
    SearchStore.attach(book, folder)
    book.create("Everything")
    sizes = []
    for number in range(50):  # 100 steps, each with a new dense candidate set
        play(genesis, G_B if number % 2 else 0, 2)
        book.refine("not-equal", -(10**6))  # a new snapshot
        book.remove(addresses=[0xFF8000 + number])
        sizes.append(sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()))
    assert len(list((folder / "candidates").glob("*.npz"))) <= KEEP_STEPS
    assert len(list((folder / "snapshots").glob("*.npz"))) <= 2 * KEEP_STEPS + 1
    assert sizes[-1] <= 1.2 * sizes[KEEP_STEPS]  # it stopped growing once KEEP_STEPS steps were kept
    emulator, again, reports = reopen(folder, genesis.get_state())
    try:
        history = again.current.history
        assert reports == [] and len(history) == KEEP_STEPS
        assert history[0].label == "start" and history[-1] == book.current.history[-1]
        assert again.current.candidates.addresses().tolist() == book.current.candidates.addresses().tolist()
    finally:
        emulator.close()


def test_kept_steps():
    assert kept_steps(5, 4, keep=8) == [0, 1, 2, 3, 4]
    assert kept_steps(20, 19, keep=5) == [0, 16, 17, 18, 19]
    assert kept_steps(20, 3, keep=5) == [0, 3, 4, 5, 6]  # undone far back: the steps around it
    assert kept_steps(20, 0, keep=5) == [0, 16, 17, 18, 19]


def saved(genesis, folder: Path) -> bytes:
    book = SearchBook(genesis)
    SearchStore.attach(book, folder)
    two_searches(genesis, book)
    return genesis.get_state()


def truncate_candidates(folder: Path) -> None:
    path = max((folder / "candidates").glob("*.npz"), key=lambda p: p.stat().st_size)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def bad_json(folder: Path) -> None:
    path = folder / "book.json"
    path.write_text(path.read_text()[:-20])


def other_layout_snapshot(folder: Path) -> None:
    """A snapshot file of the NES's layout, correctly named and referenced."""
    arrays = {"buf": np.zeros(10310, dtype=np.uint8)}
    name = content_hash(arrays)
    (folder / "snapshots" / f"{name}.npz").write_bytes(npz_bytes(arrays))
    document = json.loads((folder / "book.json").read_text())
    document["snapshots"][-1]["file"] = name
    (folder / "book.json").write_text(json.dumps(document))


def altered_positions(folder: Path) -> None:
    """A candidate file whose content no longer matches its name."""
    path = next(p for p in (folder / "candidates").glob("*.npz") if "p0" in np.load(p).files)
    arrays = dict(np.load(path))
    arrays["kinds"] = arrays["kinds"].copy()
    arrays["kinds"][0] = 7
    path.write_bytes(npz_bytes(arrays))


@pytest.mark.parametrize("damage, problem", [
    (truncate_candidates, "candidates/"),
    (bad_json, "not JSON"),
    (other_layout_snapshot, "not a snapshot of this memory layout"),
    (altered_positions, "does not match its name"),
])
def test_damaged_folder_is_set_aside(genesis, tmp_path, damage, problem):
    folder = tmp_path / "searches"
    state = saved(genesis, folder)
    damage(folder)
    emulator, book, reports = reopen(folder, state)
    try:
        assert len(book) == 0 and book.current is None and len(reports) == 1
        assert problem in reports[0].problem and reports[0].kept_as == tmp_path / "searches.bad"
        assert (tmp_path / "searches.bad" / "book.json").exists() and not folder.exists()
        book.create("New")  # saving starts a new folder
        assert (folder / "book.json").exists() and len(list(folder.rglob("*.npz"))) == 2
    finally:
        emulator.close()


def test_another_game_is_set_aside(genesis, tmp_path):
    folder = tmp_path / "searches"
    saved(genesis, folder)
    emulator, book, reports = reopen(folder, b"", NES_ROM)
    try:
        assert len(book) == 0 and len(reports) == 1 and "another memory layout" in reports[0].problem
    finally:
        emulator.close()


def test_restore_checks_the_layout(genesis):
    search = MemorySearch(genesis)
    play(genesis, G_B, 3)
    search.refine("increased")
    nes = Emulator(NES_ROM)
    try:
        with pytest.raises(ValueError, match="another memory layout"):
            MemorySearch.restore(nes, search.types, search.steps, search.position, search.first)
        with pytest.raises(ValueError, match="position 2"):
            MemorySearch.restore(genesis, search.types, search.steps, 2, search.first)
        with pytest.raises(ValueError, match="parts for"):
            MemorySearch.restore(genesis, search.types[:3], search.steps, 1, search.first)
        copy = MemorySearch.restore(genesis, search.types, search.steps, 1, search.first)
        assert copy.history == search.history and copy.count == search.count
        assert encode_candidates(copy.candidates_set).keys() == encode_candidates(search.candidates_set).keys()
    finally:
        nes.close()
