"""How a variable was found, in the Variables dock: the name's tooltip, the About dialog and its note."""

from __future__ import annotations

import pytest

from tests.studio.model.test_provenance import (
    LIVES,
    found_by_search,
    session,  # noqa: F401  (the fixture)
)


@pytest.fixture
def panel(qtbot, session):  # noqa: F811
    from studio.model.workspace import Workspace
    from studio.qt.variables.watch_panel import VariablesPanel

    panel = VariablesPanel(Workspace(session))
    qtbot.addWidget(panel)
    panel.resize(560, 600)
    panel.show()
    return panel


def name_tooltip(panel, name: str) -> str:
    from PySide6.QtCore import Qt

    from studio.qt.variables.watch_panel import NAME

    return panel.model.index(panel.model.names.index(name), NAME).data(Qt.ItemDataRole.ToolTipRole)


def test_the_name_tooltip_tells_how_it_was_found(qtbot, panel):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit, QPushButton

    assert panel.add_variable("hearts", LIVES, "|u1", found_by_search()) == "hearts"
    assert name_tooltip(panel, "hearts") == panel.watch.provenance.tooltip("hearts")
    assert name_tooltip(panel, "hearts").startswith("Found by memory search")
    assert panel.add_variable("from_search", LIVES, "|u1") == "from_search"  # the Search dock's call today
    assert "not recorded" in name_tooltip(panel, "from_search")
    add = next(b for b in panel.findChildren(QPushButton) if b.text() == "Add")
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)  # by hand: typed in
    editor = panel.table.findChild(QLineEdit)
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert name_tooltip(panel, "var").startswith("Typed in on ")


def test_about_shows_the_record_and_saves_the_note(qtbot, panel):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPushButton

    from studio.qt.variables.provenance_dialog import VariableAboutDialog

    panel.add_variable("hearts", LIVES, "|u1", found_by_search())
    about = next(b for b in panel.findChildren(QPushButton) if b.text() == "About...")
    qtbot.mouseClick(about, Qt.MouseButton.LeftButton)
    dialog = panel.findChild(VariableAboutDialog)
    assert dialog.isVisible() and dialog.how.text() == "memory search" and dialog.steps.count() == 5
    picture = dialog.picture.pixmap()
    assert not picture.isNull() and picture.width() >= 320
    assert "search: lives" in dialog.details.text() and '"|u1"' not in dialog.details.text()
    dialog.note.setPlainText("3 at the start, lost every 300 frames")
    dialog.accept()
    assert panel.watch.provenance.get("hearts").note == "3 at the start, lost every 300 frames"
    assert name_tooltip(panel, "hearts").endswith("Note: 3 at the start, lost every 300 frames")

    menu = panel.variable_actions.context_menu(panel.table.visualRect(panel.model.index(0, 0)).center())
    next(a for a in menu.actions() if a.text() == "About this variable...").trigger()
    unknown = [d for d in panel.findChildren(VariableAboutDialog) if d.isVisible()][-1]
    assert unknown.name == panel.model.names[0] and "not recorded" in unknown.how.text()
    assert not unknown.note.isEnabled()
    unknown.reject()
    menu.close()
