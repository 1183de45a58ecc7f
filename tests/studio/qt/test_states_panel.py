"""The States dock's buttons say why they did nothing when no named state is selected, and what
they did otherwise (clicked through the window)."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_set_default_without_a_selection_says_what_to_select(qtbot, window):
    panel = window.states_panel
    panel.list.setCurrentRow(-1)
    qtbot.mouseClick(panel.buttons["Set default"], Qt.MouseButton.LeftButton)
    assert panel.hint.text().startswith("Select a named state in the list to make it the default")
    window.session.save_state("Level1")
    row = next(k for k in range(panel.list.count()) if panel.list.item(k).text().startswith("Level1"))
    panel.list.setCurrentRow(row)
    qtbot.mouseClick(panel.buttons["Set default"], Qt.MouseButton.LeftButton)
    assert panel.hint.text() == "Level1 is the default state now"
    assert window.session.states.default_state == "Level1"
    window.session.save_slot(3)
    slot = panel.list.count() - 1
    panel.list.setCurrentRow(slot)
    qtbot.mouseClick(panel.buttons["Set default"], Qt.MouseButton.LeftButton)
    assert "a quick slot has no name" in panel.hint.text()


def accept_the_folder_dialog() -> list[str]:
    """Accepts the next modal folder dialog as proposed (a person pressing OK); the list gets the
    folder it showed."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QFileDialog

    seen: list[str] = []

    def choose() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, choose)
            return
        seen.append(dialog.directory().absolutePath())
        dialog.accept()

    QTimer.singleShot(20, choose)
    return seen


def test_record_episodes_proposes_a_folder_that_exists(qtbot, window):
    """Movie > Record episodes proposes the workspace's episodes folder: it exists (so choosing it
    works) and recording starts there."""
    seen = accept_the_folder_dialog()
    window.menu_actions["record_episodes"].trigger()
    episodes = window.session.states.workspace / "episodes"
    assert seen and episodes.is_dir() and seen[0] == str(episodes)
    assert window.session.movies.episodes is not None and window.session.movies.episodes.folder == episodes
    window.session.movies.stop_recording()
