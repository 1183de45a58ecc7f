"""The Search dock shows the searches saved in the workspace, where it left them, and saves its changes."""

from __future__ import annotations

import json

from tests.conftest import GENESIS_ROM
from tests.studio.model.test_search_store import genesis, saved  # noqa: F401  (genesis: the fixture)


def test_the_dock_shows_the_saved_searches(qtbot, genesis, tmp_path):  # noqa: F811
    from studio.model.play.session import Session
    from studio.model.workspace import Workspace
    from studio.qt.search.search_book_panel import MemorySearchPanel

    session = Session(GENESIS_ROM)
    folder = session.states.workspace / "searches"  # where the workspace keeps the game's searches
    session.emulator.set_state(saved(genesis, folder))
    workspace = Workspace(session)
    try:
        panel = MemorySearchPanel(workspace)
        qtbot.addWidget(panel)
        assert session.problems == []
        assert [panel.names.itemText(i) for i in range(panel.names.count())] == ["Score", "Lives"]
        assert panel.names.currentText() == "Score" and panel.value.text() == "1127"
        assert panel.history.count() == 5 and panel.history.currentRow() == 3 and panel.redo_button.isEnabled()
        panel.value.setText("1200")
        panel.book.undo()  # any change saves, the value box's text with it
        assert json.loads((folder / "book.json").read_text())["searches"][0]["value_text"] == "1200"
    finally:
        workspace.close()
