"""The variables dock with pytest-qt, offscreen: edits saved to data.json, pokes, freezes, the plot."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from studio.model.events import connection_count
from studio.model.play.session import Session
from studio.model.workspace import Workspace
from studio.qt.variables.watch_panel import ADDRESS, FREEZE, MASK, NAME, TYPE, VALUE, VariablesPanel


@pytest.fixture
def panel(qtbot, demo):
    session = Session(*demo)
    panel = VariablesPanel(Workspace(session))
    qtbot.addWidget(panel)
    panel.resize(520, 600)
    panel.show()
    yield panel
    session.close()


def info(panel: VariablesPanel) -> dict:
    return json.loads((panel.watch.session.folder / "data.json").read_text())["info"]


def cell(panel: VariablesPanel, name: str, column: int):
    return panel.model.index(panel.model.names.index(name), column)


def test_the_table_shows_data_json_with_live_values(panel):
    model = panel.model
    assert model.names == list(info(panel))
    assert cell(panel, "lives", ADDRESS).data() == "0xFF0012"
    assert cell(panel, "lives", TYPE).data() == "|u1"
    assert cell(panel, "lives", VALUE).data() == panel.watch.session.emulator.read(0xFF0012, "|u1")


def test_edits_are_saved_to_data_json(qtbot, panel):
    model = panel.model
    assert model.setData(cell(panel, "x", ADDRESS), "FF0020")
    assert model.setData(cell(panel, "x", MASK), "0xF0")
    assert info(panel)["x"] == {"address": 0xFF0020, "type": ">u2", "mask": 0xF0}
    # the type through its combo box editor, as a user does it
    panel.table.setCurrentIndex(cell(panel, "x", TYPE))
    panel.table.edit(cell(panel, "x", TYPE))
    combo = panel.table.findChild(QComboBox)
    combo.setCurrentText(">i2")
    qtbot.keyClick(combo, Qt.Key.Key_Return)  # the delegate commits in a queued call
    qtbot.waitUntil(lambda: info(panel)["x"]["type"] == ">i2", timeout=1000)
    # the name through its line editor
    panel.table.edit(cell(panel, "y", NAME))
    editor = panel.table.findChild(QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "height")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "height" in info(panel) and "y" not in info(panel), timeout=1000)


def test_invalid_edits_are_refused_and_unmapped_addresses_warned(panel):
    before = info(panel)
    assert not panel.model.setData(cell(panel, "x", TYPE), ">u9")
    assert "width" in panel.message.text()
    assert not panel.model.setData(cell(panel, "x", NAME), "lives")
    assert "already" in panel.message.text()
    assert not panel.model.setData(cell(panel, "x", ADDRESS), "nowhere")
    assert info(panel) == before
    assert panel.model.setData(cell(panel, "x", ADDRESS), "0x100")  # saved, with a warning
    assert "not mapped" in panel.message.text() and info(panel)["x"]["address"] == 0x100
    assert cell(panel, "x", VALUE).data() == "unmapped"
    assert panel.model.setData(cell(panel, "y", TYPE), ">x2")  # read as >u2, but not well formed
    assert "verifier" in panel.message.text() and info(panel)["y"]["type"] == ">x2"


def test_add_remove_poke_and_freeze(panel):
    session = panel.watch.session
    assert panel.add_variable("lives", 0xFF0012, "|u1") == "lives_2"  # made unique
    assert panel.selected_names() == ["lives_2"] and info(panel)["lives_2"] == {"address": 0xFF0012, "type": "|u1"}
    assert panel.add_variable("bad", 0xFF0012, "x") is None
    panel.remove_selected()
    assert "lives_2" not in info(panel)
    assert panel.model.setData(cell(panel, "score", VALUE), "1234")
    assert session.emulator.read(0xFF0000, ">u4") == 1234
    assert panel.model.setData(cell(panel, "lives", VALUE), "9")
    check = Qt.ItemDataRole.CheckStateRole
    assert panel.model.setData(cell(panel, "lives", FREEZE), Qt.CheckState.Checked.value, check)
    assert cell(panel, "lives", FREEZE).data(check) == Qt.CheckState.Checked
    session.advance(400)
    assert session.emulator.read(0xFF0012, "|u1") == 9
    panel.model.setData(cell(panel, "lives", FREEZE), Qt.CheckState.Unchecked.value, check)
    assert "lives" not in panel.watch.frozen


def test_the_plot_has_curves_that_follow_rewinds(panel):
    session = panel.watch.session
    panel.table.selectRow(panel.model.names.index("x"))
    selection = panel.table.selectionModel()
    selection.select(cell(panel, "timer", NAME), selection.SelectionFlag.Select | selection.SelectionFlag.Rows)
    assert set(panel.curves) == {"x", "timer"}
    session.set_buttons(0, 1 << 7)
    session.advance(60)
    panel.refresh()
    frames, values = panel.curves["x"].getData()
    assert len(frames) == 60 and frames[-1] == 60 and values[-1] == session.emulator.read(0xFF000A, ">u2")
    session.rewind_frames(20)
    panel.refresh()
    frames, _ = panel.curves["timer"].getData()
    assert frames.max() == session.frame
    panel.table.clearSelection()
    assert panel.curves == {}


def test_another_game_replaces_the_watch(panel, demo):
    old, other = panel.watch, Workspace(Session(*demo))
    before = connection_count(old.events), connection_count(old.session.events)
    panel.unbind()
    panel.bind(other)
    assert (connection_count(old.events), connection_count(old.session.events)) == (before[0] - 1, before[1] - 1)
    other.watch.add("new", 0xFF0040, "|u1")
    assert "new" in panel.model.names
    other.close()
