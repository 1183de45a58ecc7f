"""Integrations the studio creates in its views: the game list shows them, the Run agent dialog runs one."""

from __future__ import annotations

from studio.model.play.session import Session


def test_the_game_list_shows_studio_created_integrations(qtbot, ale_rom):
    from PySide6.QtCore import Qt

    from studio.qt.game_list import GameListDialog

    Session(ale_rom("pong", "Pong.a26")).emulator.close()
    dialog = GameListDialog()
    qtbot.addWidget(dialog)
    dialog.search.setText("Pong-Atari2600")
    names = [dialog.proxy.index(r, 0).data() for r in range(dialog.proxy.rowCount())]
    assert "Pong-Atari2600" in names
    row = names.index("Pong-Atari2600")
    assert dialog.proxy.index(row, 2).data() == "yes"
    assert dialog.proxy.index(row, 0).data(Qt.ItemDataRole.UserRole).endswith("Pong-Atari2600")


def test_the_agent_dialog_runs_the_open_integration(qtbot, ale_rom):
    from studio.qt.agents.agent_run_dialog import AgentDialog

    session = Session(ale_rom("pong", "Pong.a26"))
    session.close()
    dialog = AgentDialog(session.folder, None)
    qtbot.addWidget(dialog)
    dialog.agent_box.setCurrentText("Brute")
    assert dialog.agent_box.currentText() == "Brute"
    dialog.episodes_box.setValue(1)
    dialog.steps_box.setValue(30)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=20000)
    assert dialog.report.game == "Pong-Atari2600" and dialog.report.lengths == [30]
    dialog.close()
