"""The search model (SearchBook, no Qt) and the search dock (pytest-qt, offscreen)."""

from __future__ import annotations

import numpy as np
import pytest

from emucore import Emulator
from emucore.search import DEFAULT_TYPES
from studio.model.searches import SearchBook
from studio.qt.search_panel import ADDRESS, PREVIOUS, TYPE, VALUE, MemorySearchPanel, parse_value
from tests.conftest import GENESIS_ROM

B = 1 << 0


class FakeSession:
    """What the panel needs of a Session: ``emulator``, ``on``/``off("frame", ...)`` and ``listeners``."""

    def __init__(self) -> None:
        self.emulator = Emulator(GENESIS_ROM)
        self.listeners: dict[str, list] = {"frame": []}
        self.advance(9)

    def on(self, event: str, callback) -> None:
        self.listeners[event].append(callback)

    def off(self, event: str, callback) -> None:
        if callback in self.listeners[event]:
            self.listeners[event].remove(callback)

    def advance(self, frames: int, mask: int = 0) -> None:
        self.emulator.set_button_mask(mask)
        for _ in range(frames):
            self.emulator.step()
        for callback in self.listeners["frame"]:
            callback()


@pytest.fixture
def session():
    s = FakeSession()
    yield s
    s.emulator.close()


def test_book_names_and_events(session):
    book = SearchBook(session.emulator)
    events = []
    book.listeners.append(events.append)
    assert book.create() == "Search 1" and book.create("Score", types=("|u1",)) == "Score"
    assert book.names() == ["Search 1", "Score"] and book.current_name == "Score"
    assert book.current.types == ("|u1",)
    with pytest.raises(ValueError, match="already"):
        book.create("Search 1")
    with pytest.raises(ValueError):
        book.rename("Score", " ")
    book.rename("Score", "Lives")
    assert book.names() == ["Search 1", "Lives"] and book.current_name == "Lives"
    book.select("Search 1")
    session.advance(10, B)
    assert book.refine("increased") == book.current.count
    assert [h.label for h in book.history()] == ["start", "increased"]
    assert book.undo() and not book.undo() and book.redo() and not book.redo()
    book.delete("Search 1")
    assert book.current_name == "Lives" and book.get("Lives").count == 0x10000 * 1
    book.delete("Lives")
    assert book.current is None and book.history() == []
    with pytest.raises(KeyError):
        book.select("nope")
    assert book.start(value=3) == book.current.count  # a new search when there is none
    assert "searches" in events and "candidates" in events


def test_parse_value():
    assert parse_value("") is None and parse_value(" 12 ") == 12 and parse_value("-0x10") == -16
    assert parse_value("$ff") == 255 and parse_value("1_000") == 1000
    with pytest.raises(ValueError):
        parse_value("twelve")


def make_panel(qtbot, session, **kw) -> MemorySearchPanel:
    panel = MemorySearchPanel(session, **kw)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    return panel


def test_panel_finds_the_score(qtbot, session):
    made = []
    panel = make_panel(qtbot, session, on_make_variable=lambda *args: made.append(args))
    assert panel.model.rowCount() == 0 and "Start" in panel.count.text()
    panel.start()  # system types (Genesis: 15), unknown value
    assert panel.model.rowCount() == 0x10000 * 15
    session.advance(20, B)
    panel.value.setText("20")
    panel.refine("increased-by")
    session.advance(10)
    panel.refine("unchanged")
    session.advance(30, B)
    panel.value.setText("30")
    panel.refine("increased-by")
    panel.value.setText("")
    panel.against.setCurrentText("first")
    panel.refine("greater")  # no value: compared with the first snapshot
    rows = panel.model.rowCount()
    assert 1 <= rows <= 12  # score, score_bcd and the reads of their low bytes (the score is below 256)
    shown = {(panel.model.data(panel.model.index(r, ADDRESS)), panel.model.data(panel.model.index(r, TYPE)))
             for r in range(rows)}
    assert ("0xFF0000", ">u4") in shown
    assert [panel.history.item(i).text().split(":")[0] for i in range(panel.history.count())] == [
        "start", "increased-by 20", "unchanged", "increased-by 30", "greater (first)"]
    row = next(r for r in range(rows) if panel.model.data(panel.model.index(r, TYPE)) == ">u4")
    assert panel.model.data(panel.model.index(row, VALUE)) == "50"
    assert panel.model.data(panel.model.index(row, PREVIOUS)) == "0"  # at the snapshot compared with: the first
    with qtbot.waitSignal(panel.make_variable) as signal:
        assert panel.make_variable_from(row, "score") == "score"
    assert signal.args == ["score", 0xFF0000, ">u4"] and made == [("score", 0xFF0000, ">u4")]
    # live values: frames run, the visible value follows (at most 10 times a second), previous stays
    session.advance(3, B)
    qtbot.waitUntil(lambda: panel.model.data(panel.model.index(row, VALUE)) == "53", timeout=1000)
    assert panel.model.data(panel.model.index(row, PREVIOUS)) == "0"
    # undo / redo / remove
    panel.undo_button.click()
    assert panel.model.rowCount() >= rows and panel.redo_button.isEnabled() and panel.history.currentRow() == 3
    panel.redo_button.click()
    assert panel.model.rowCount() == rows
    panel.table.selectRow(row)
    panel.remove_selected()
    assert panel.model.rowCount() == rows - 1
    panel.value.setText("abc")
    panel.refine("equal")
    assert "invalid literal" in panel.message.text() and panel.model.rowCount() == rows - 1
    panel.value.setText("")
    panel.refine("increased-by")
    assert "needs a value" in panel.message.text()


def test_panel_named_searches(qtbot, session, monkeypatch):
    panel = make_panel(qtbot, session)
    panel.types.setCurrentText("1 byte")
    panel.new_search()
    panel.new_search()
    assert panel.names.count() == 2 and panel.names.currentText() == "Search 2"
    assert panel.model.rowCount() == 0x10000 * 3
    panel.rename_search("Lives")
    assert [panel.names.itemText(i) for i in range(2)] == ["Search 1", "Lives"]
    session.advance(5, B)
    panel.refine("changed")
    changed = panel.model.rowCount()
    panel.names.activated.emit(0)  # the user picks "Search 1": its own candidates
    assert panel.book.current_name == "Search 1" and panel.model.rowCount() == 0x10000 * 3
    panel.delete_search()
    assert panel.names.count() == 1 and panel.model.rowCount() == changed
    monkeypatch.setattr("studio.qt.search_panel.QInputDialog.getText", lambda *a, **k: ("x_pos", True))
    panel.table.selectRow(0)
    with qtbot.waitSignal(panel.make_variable) as signal:
        panel.make_variable_from(0)
    assert signal.args[0] == "x_pos"


def test_virtual_table_with_a_million_rows(qtbot, session):
    """Every address x 15 types (983,040 rows), then a dense refined set: scroll to the end, read cells."""
    panel = make_panel(qtbot, session)
    panel.start()
    model = panel.model
    assert model.rowCount() == 983_040
    panel.table.scrollToBottom()
    qtbot.wait(10)
    last = model.rowCount() - 1
    assert model.data(model.index(last, ADDRESS)) == "0xFFFFFF" and model.data(model.index(last, TYPE)) == ">n8"
    first, end = panel.visible_rows()
    assert end == last and first > last - 100
    memory = session.emulator.memory
    session.advance(1)
    panel.book.start(types=DEFAULT_TYPES)  # 44 types: 2,883,584 rows
    session.advance(2)
    panel.refine("unchanged")  # most of memory: a dense set of more than 100,000 rows
    rows = model.rowCount()
    assert rows > 100_000
    panel.table.scrollToBottom()
    panel.refresh_values()
    rng = np.random.default_rng(0)
    for row in [*rng.integers(0, rows, 50), rows - 1, 0]:
        address = int(model.data(model.index(int(row), ADDRESS)), 16)
        type_text = model.data(model.index(int(row), TYPE))
        assert int(model.data(model.index(int(row), VALUE))) == memory.read(address, type_text)
    assert len(model._values) <= 64 and len(model._rows) <= 64  # only the chunks asked for were decoded


def test_panel_on_a_real_session(qtbot, demo):
    from studio.model.session import Session

    rom, state = demo
    real = Session(rom, state)
    try:
        panel = make_panel(qtbot, real)
        panel.start()
        real.set_buttons(0, B)
        real.advance(10)
        panel.value.setText("10")
        panel.refine("increased-by")
        real.set_buttons(0, 0)
        real.advance(5)
        panel.refine("unchanged")
        model = panel.model
        shown = {(model.data(model.index(r, ADDRESS)), model.data(model.index(r, TYPE)))
                 for r in range(model.rowCount())}
        assert ("0xFF0000", ">u4") in shown
        panel.close_panel()
        assert panel._frame not in real.listeners["frame"] and model.rowCount() == 0
    finally:
        real.close()
