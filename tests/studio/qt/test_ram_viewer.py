"""The RAM viewer dock with pytest-qt, offscreen, on a copy of the Genesis demo."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from emucore.host.memory import AddressSpace
from studio.model.events import connection_count
from studio.model.play.session import Session
from studio.model.variables.ram import hex_row
from studio.model.workspace import Workspace
from studio.qt.variables.ram_viewer import RamViewer


@pytest.fixture
def viewer(qtbot, demo):
    session = Session(*demo)
    viewer = RamViewer(Workspace(session))
    qtbot.addWidget(viewer)
    viewer.resize(640, 600)
    viewer.show()
    yield viewer
    session.close()


def memory(viewer: RamViewer) -> AddressSpace:
    return viewer.session.emulator.memory


def test_the_hex_view_shows_logical_bytes_at_an_address(viewer):
    viewer.session.advance(30)
    assert viewer.go_to("FF0010")
    hexview = viewer.hex
    assert hexview.cursor_offset == 0x10 and hexview.first_row == 1
    expected = memory(viewer).read_bytes(0xFF0010, 16)
    assert hexview.row_text(1).startswith("FF0010  " + hex_row(expected, group=8))
    assert viewer.readout_box.title() == "Value at 0xFF0010"
    assert not viewer.grab().isNull()  # paints without errors


def test_go_to_accepts_hex_and_decimal_and_reports_unmapped(viewer):
    for text, offset in (("0xFF0012", 0x12), ("16711700", 0x14), ("$FF0100", 0x100), ("FFFFF0", 0xFFF0)):
        assert viewer.go_to(text)
        assert viewer.hex.cursor_offset == offset
    assert not viewer.go_to("0x10")
    assert "not in" in viewer.message.text() and viewer.message.isVisible()
    viewer.go.setText("FF0012")
    viewer.go.returnPressed.emit()
    assert viewer.hex.cursor_offset == 0x12 and not viewer.message.isVisible()


def test_poking_a_byte_by_double_click_and_by_typing(qtbot, viewer):
    hexview = viewer.hex
    viewer.go_to("FF0012")
    hexview.go_to(0x12)
    qtbot.mouseDClick(hexview.viewport(), Qt.MouseButton.LeftButton, pos=hexview.byte_rect(0x12).center())
    assert hexview.editor.isVisible() and hexview.cursor_offset == 0x12
    hexview.editor.selectAll()
    qtbot.keyClicks(hexview.editor, "2A")
    qtbot.keyClick(hexview.editor, Qt.Key.Key_Return)
    assert viewer.session.emulator.read(0xFF0012, "|u1") == 0x2A  # lives, through the overlay
    assert memory(viewer).blocks[0].data[0x13] == 0x2A  # the raw byte is its swapped neighbour
    shortcut = QAction("Frame advance", viewer)  # like the window's one-key shortcuts
    shortcut.setShortcut("F")
    shortcut.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    viewer.addAction(shortcut)
    hexview.setFocus()
    with qtbot.assertNotEmitted(shortcut.triggered):
        qtbot.keyClicks(hexview, "7f")
    assert viewer.session.emulator.read(0xFF0013, "|u1") == 0x7F and hexview.cursor_offset == 0x14
    viewer.select_region(next(i for i, r in enumerate(viewer.ram.regions) if r.raw == "system_ram"))
    viewer.poke(0x12, 0x33)  # raw region: raw offsets
    assert viewer.session.emulator.read(0xFF0013, "|u1") == 0x33


def test_the_readout_lists_every_type_of_the_system(viewer):
    viewer.session.advance(10)
    viewer.go_to("FF0008")
    values = viewer.readout_values()
    assert list(values) == list(viewer.session.system.types)
    for type_text, text in values.items():
        assert int(text) == viewer.session.emulator.read(0xFF0008, type_text)


def test_freeze_from_the_menu_and_highlights(viewer):
    viewer.go_to("FF0012")
    menu = viewer.build_menu(0x12)
    titles = [a.text() for a in menu.actions()]
    assert any(t.startswith("Freeze at 03") for t in titles) and "Unfreeze" in titles
    next(a for a in menu.actions() if a.text().startswith("Freeze at")).trigger()
    assert viewer.hex.frozen == {0x12}
    viewer.poke(0x12, 9)
    viewer.session.advance(400)
    assert viewer.session.emulator.read(0xFF0012, "|u1") == 9
    viewer.freeze(0x10, ">u2")
    assert viewer.hex.frozen == {0x10, 0x11, 0x12}
    viewer.unfreeze(0x12)
    assert viewer.hex.frozen == {0x10, 0x11}
    viewer.refresh()
    ages = viewer.ram.view(0, 16)[1]
    assert ages.min() == 0  # the frame counter at FF0008 keeps changing


def test_add_variable_from_the_menu_saves_it(viewer):
    menu = viewer.build_menu(0x20)
    add = next(a.menu() for a in menu.actions() if a.text() == "Add variable")
    next(a for a in add.actions() if a.text() == ">u2").trigger()
    assert "ram_ff0020" in viewer.watch.variables
    assert viewer.watch.provenance.get("ram_ff0020").how == "RAM viewer"
    assert '"ram_ff0020"' in (viewer.session.folder / "data.json").read_text()


def test_refresh_is_throttled_with_a_final_refresh(qtbot, viewer):
    viewer.refresh()
    before = viewer._throttle.last
    viewer.session.advance(1)  # right after a refresh: postponed, not dropped
    assert viewer._throttle.last == before and viewer._throttle.pending
    qtbot.waitUntil(lambda: viewer._throttle.last > before, timeout=1000)


def test_another_game_replaces_the_session(viewer, demo):
    old, other = viewer.session, Workspace(Session(*demo))
    before = connection_count(old.events)
    viewer.unbind()
    viewer.bind(other)
    assert connection_count(old.events) == before - 1 and viewer.hex.ram.emulator is other.session.emulator
    assert viewer.go_to("FF0012") and viewer.regions.count() == len(viewer.ram.regions)
    other.close()
