"""The search dock (pytest-qt, offscreen): it finds the score, names its searches, lists a million rows (the
model: ``tests/studio/model/test_search_book.py``)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from emucore.search import DEFAULT_TYPES
from studio.model.events import connection_count
from studio.model.play.session import Session
from studio.model.workspace import Workspace
from studio.qt.search.search_book_panel import MemorySearchPanel
from studio.qt.search.search_book_tree import ADDRESS, PREVIOUS, TYPE, TYPES, VALUE
from tests.conftest import NES_ROM
from tests.studio.model.test_search_book import (
    B,
    Game,
    session,  # noqa: F401  (the fixture)
)


def listed(model) -> dict[tuple[str, str], object]:
    """Every candidate the tree lists (address rows and the types inside) -> its index."""
    found = {}
    for top in range(model.rowCount()):
        parent = model.index(top, 0)
        address = model.data(parent)
        found[(address, model.data(model.index(top, TYPE)))] = model.index(top, 0)
        for child in range(model.rowCount(parent)):
            found[(address, model.data(model.index(child, TYPE, parent)))] = model.index(child, 0, parent)
    return found


def make_panel(qtbot, workspace, **kw) -> MemorySearchPanel:
    panel = MemorySearchPanel(workspace, **kw)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    return panel


def test_panel_finds_the_score(qtbot, session):  # noqa: F811
    made = []
    panel = make_panel(qtbot, session.workspace, on_make_variable=lambda *args: made.append(args))
    assert panel.model.rowCount() == 0 and "Start" in panel.count.text()
    assert panel.types.currentText() == "System types"  # the Genesis is not an 8-bit system
    panel.start()  # system types (Genesis: 15), unknown value: too many to group, listed flat
    assert panel.model.rowCount() == 0x10000 * 15 and "listed flat" in panel.count.text()
    session.advance(20, B)
    panel.value.setText("20")
    assert panel.op_buttons["increased-by"].text() == "increased by 20"  # the buttons say they use the box
    panel.refine("increased-by")
    session.advance(10)
    panel.refine("unchanged")
    session.advance(30, B)
    panel.value.setText("30")
    panel.refine("increased-by")
    panel.value.setText("")
    panel.against.setCurrentText("first")
    panel.refine("greater-than")  # no value: compared with the first snapshot
    assert "at" in panel.count.text() and "addresses" in panel.count.text()
    panel.hide_zero.setChecked(False)  # the score is below 256: its upper bytes are zero so far
    found = listed(panel.model)
    assert 1 <= len(found) <= 12  # score, score_bcd and the reads of their low bytes
    assert ("0xFF0000", ">u4") in found
    assert [panel.history.item(i).text().split(":")[0] for i in range(panel.history.count())] == [
        "start", "increased-by 20", "unchanged", "increased-by 30", "greater-than (first)"]
    index = found[("0xFF0000", ">u4")]
    model = panel.model
    assert model.data(index.siblingAtColumn(VALUE)) == "50"
    assert model.data(index.siblingAtColumn(PREVIOUS)) == "0"  # at the snapshot compared with: the first
    with qtbot.waitSignal(panel.make_variable) as signal:
        assert panel.make_variable_from(index, "score") == "score"
    assert signal.args == ["score", 0xFF0000, ">u4"] and made == [("score", 0xFF0000, ">u4")]
    # live values: frames run, the visible value follows (at most 10 times a second), previous stays
    session.advance(3, B)
    qtbot.waitUntil(lambda: model.data(listed(model)[("0xFF0000", ">u4")].siblingAtColumn(VALUE)) == "53",
                    timeout=1000)
    assert model.data(listed(model)[("0xFF0000", ">u4")].siblingAtColumn(PREVIOUS)) == "0"
    rows = len(listed(model))
    # undo / redo / remove
    panel.undo_button.click()
    assert len(listed(model)) >= rows and panel.redo_button.isEnabled() and panel.history.currentRow() == 3
    panel.redo_button.click()
    assert len(listed(model)) == rows
    panel.table.setCurrentIndex(listed(model)[("0xFF0000", ">u4")])
    panel.table.selectionModel().select(listed(model)[("0xFF0000", ">u4")],
                                        panel.table.selectionModel().SelectionFlag.ClearAndSelect
                                        | panel.table.selectionModel().SelectionFlag.Rows)
    panel.remove_selected()
    assert len(listed(model)) < rows and ("0xFF0000", ">u4") not in listed(model)
    left = len(listed(model))
    panel.value.setText("abc")
    panel.refine("equal")
    assert "invalid literal" in panel.message.text() and len(listed(model)) == left
    panel.value.setText("")
    panel.refine("increased-by")
    assert "needs a value" in panel.message.text()


def test_panel_named_searches(qtbot, session, monkeypatch):  # noqa: F811
    panel = make_panel(qtbot, session.workspace)
    panel.types.setCurrentText("1 byte")
    panel.new_search()
    panel.new_search()
    assert panel.names.count() == 2 and panel.names.currentText() == "Search 2"
    assert panel.model.rowCount() == 0x10000 * 3 and "65,536 addresses" in panel.count.text()  # too many for a tree
    panel.value.setText("7")
    panel.rename_search("Lives")
    assert [panel.names.itemText(i) for i in range(2)] == ["Search 1", "Lives"]
    session.advance(5, B)
    panel.refine("changed")
    changed = panel.model.rowCount()
    assert changed < 100 and panel.table is panel.views.tree  # grouped: one row per address
    assert panel.model.rowCount(panel.model.index(0, 0)) >= 1 and panel.model.data(panel.model.index(0, TYPES)) >= "2"
    panel.names.activated.emit(0)  # the user picks "Search 1": its own candidates and value box
    assert panel.book.current_name == "Search 1" and panel.model.rowCount() == 0x10000 * 3 and panel.value.text() == ""
    panel.names.activated.emit(1)
    assert panel.value.text() == "7" and panel.op_buttons["equal"].text() == "= 7"
    panel.names.activated.emit(0)
    panel.delete_search()
    assert panel.names.count() == 1 and panel.model.rowCount() == changed
    monkeypatch.setattr("studio.qt.search.search_book_panel.QInputDialog.getText", lambda *a, **k: ("x_pos", True))
    with qtbot.waitSignal(panel.make_variable) as signal:
        panel.make_variable_from(0)
    assert signal.args[0] == "x_pos"


def test_virtual_table_with_a_million_rows(qtbot, session):  # noqa: F811
    """Every address x 15 types (983,040 rows), then a dense refined set: scroll to the end, read cells."""
    panel = make_panel(qtbot, session.workspace)
    panel.start()
    model = panel.model
    assert model.rowCount() == 983_040
    panel.table.scrollToBottom()
    qtbot.wait(10)
    last = model.rowCount() - 1
    assert model.data(model.index(last, ADDRESS)) == "0xFFFFFF" and model.data(model.index(last, TYPE)) == ">n8"
    memory = session.emulator.memory
    session.advance(1)
    panel.book.start(types=DEFAULT_TYPES)  # 44 types: 2,883,584 rows
    session.advance(2)
    panel.refine("unchanged")  # most of memory: a dense set of more than 100,000 rows
    rows = model.rowCount()
    assert rows > 100_000
    panel.table.scrollToBottom()
    panel.refresh_values()
    assert "listed flat" in panel.count.text()
    rng = np.random.default_rng(0)
    for row in [*rng.integers(0, rows, 50), rows - 1, 0]:
        address = int(model.data(model.index(int(row), ADDRESS)), 16)
        type_text = model.data(model.index(int(row), TYPE))
        assert int(model.data(model.index(int(row), VALUE))) == memory.read(address, type_text)
    assert len(model._values) <= 64  # only the chunks asked for were decoded


def test_panel_on_a_real_session(qtbot, demo):
    rom, state = demo
    workspace = Workspace(Session(rom, state))
    real = workspace.session
    try:
        panel = make_panel(qtbot, workspace)
        panel.start()
        real.set_buttons(0, B)
        real.advance(10)
        panel.value.setText("10")
        panel.refine("increased-by")
        real.set_buttons(0, 0)
        real.advance(5)
        panel.refine("unchanged")
        model = panel.model
        panel.hide_zero.setChecked(False)
        assert ("0xFF0000", ">u4") in listed(model)
        before = connection_count(real.events)
        panel.unbind()
        assert connection_count(real.events) == before - 1 and model.rowCount() == 0
    finally:
        workspace.close()


def test_lives_on_the_nes_grouped_sorted_and_filtered(qtbot):
    """The noise met on a real NES game: every type searched, lives found. One row per address,
    the 1-byte type first; headers sort; a family filter; the per-system type list remembered."""
    nes = Game(NES_ROM)
    try:
        remembered = nes.workspace.settings.search_types
        panel = make_panel(qtbot, nes.workspace)
        assert panel.types.currentText() == "1 byte"  # an 8-bit system starts with 1-byte types
        panel.types.setCurrentText("All 44 types")
        panel.types.activated.emit(panel.types.currentIndex())
        assert remembered == {"Nes": "All 44 types"}
        nes.advance(240)
        panel.start_value.setText("3")
        panel.start()
        nes.advance(100)  # a life is lost at frame 300
        panel.value.setText("2")
        panel.refine("equal")
        model = panel.model
        flat = panel.book.current.count
        assert panel.table is panel.views.tree and model.rowCount() < flat / 4
        found = listed(model)
        assert found[("0x13", "|u1")].internalId() == 0  # lives: its own row, the byte type first
        assert "hidden: wider types" in panel.count.text()
        # sort by the plausibility of each address's first type: lives is near the top
        panel.table.sortByColumn(TYPE, Qt.SortOrder.AscendingOrder)
        tops = [model.data(model.index(r, ADDRESS)) for r in range(model.rowCount())]
        assert tops.index("0x13") <= 3
        panel.table.sortByColumn(ADDRESS, Qt.SortOrder.DescendingOrder)
        addresses = [int(model.data(model.index(r, ADDRESS)), 16) for r in range(model.rowCount())]
        assert addresses == sorted(addresses, reverse=True)
        panel.families.setCurrentText("BCD (d)")
        assert {t[1] for (_, t) in listed(model)} == {"d"}
        panel.families.setCurrentText("All type families")
        panel.hide_zero.setChecked(False)
        assert len(listed(model)) == flat
        # a search that runs out says what to try
        panel.types.setCurrentText("1 byte")
        panel.start()
        panel.value.setText("70000")
        panel.refine("equal")
        assert "Try \"2 bytes\"" in panel.message.text()
        panel.unbind()
        panel.bind(nes.workspace)
        assert panel.types.currentText() == "All 44 types"  # the choice for this system, remembered
    finally:
        nes.close()
