"""The poke test in the Variables dock: its button and context menu open the dialog, which runs it and says why."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from studio.model.variables.poke import DEFAULT_FRAMES
from tests.studio.model.test_poke import (
    NES_LIVES,
    nes,  # noqa: F401  (the fixture)
)


@pytest.fixture
def panel(qtbot, nes):  # noqa: F811
    from studio.model.workspace import Workspace
    from studio.qt.variables.watch_panel import VariablesPanel

    panel = VariablesPanel(Workspace(nes))
    qtbot.addWidget(panel)
    panel.resize(560, 600)
    panel.show()
    return panel


def button(panel, text: str):
    from PySide6.QtWidgets import QPushButton

    return next(b for b in panel.findChildren(QPushButton) if b.text() == text)


def test_the_poke_test_button_asks_runs_and_shows_the_verdict(qtbot, panel):
    from studio.qt.variables.poke_dialog import PokeTestDialog

    session = panel.watch.session
    state = session.emulator.get_state()
    panel.table.selectRow(panel.model.names.index("lives"))
    qtbot.mouseClick(button(panel, "Poke test..."), Qt.MouseButton.LeftButton)
    dialog = panel.findChild(PokeTestDialog)
    assert dialog.isVisible() and dialog.windowTitle() == "Poke test: lives"
    assert dialog.value.text() == str(session.emulator.read(*NES_LIVES) + 1) and dialog.frames.value() == DEFAULT_FRAMES
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.verdict.text().startswith("A real value") and dialog.last_result.stayed
    assert panel.message.text() == f"lives: {dialog.last_result.verdict()}"
    assert "Read back after each frame" in panel.message.toolTip() and "Read back" in dialog.verdict.toolTip()
    assert session.emulator.get_state() == state

    dialog.value.setText("300")  # out of |u1's range: said, nothing run
    assert dialog.run() is None and "does not fit" in dialog.verdict.text() and "does not fit" in panel.message.text()
    dialog.close()


def test_the_context_menu_offers_the_poke_test_of_the_row(qtbot, panel):
    from studio.qt.variables.poke_dialog import PokeTestDialog

    row = panel.model.names.index("score_digits")
    menu = panel.variable_actions.context_menu(panel.table.visualRect(panel.model.index(row, 0)).center())
    assert panel.selected_names() == ["score_digits"]  # recomputed every frame, read first by the top score
    actions = {a.text(): a for a in menu.actions()}
    assert set(actions) == {"Poke test...", "About this variable...", "Remove"}
    actions["Poke test..."].trigger()
    dialog = panel.findChild(PokeTestDialog)
    dialog.value.setText("777")
    verdict = dialog.run().verdict()
    assert verdict.startswith("Recomputed by the game") and panel.message.text().startswith("score_digits: Recomputed")
    dialog.close()
    menu.close()


def test_without_a_selection_the_dock_says_so(panel):
    panel.table.clearSelection()
    assert panel.variable_actions.open_poke_test() is None and panel.variable_actions.show_about() is None
    assert "Select a variable" in panel.message.text()
