"""From a bare homebrew ROM to a checked export and an agent run, with the evidence a person gives:
game overs marked when the GAME OVER text shows (3.75 s after the game decided it), a score typed
from the screen. Only the studio's own actions, no hand-made JSON; the inputs are counted and printed.

Ground truth: homebrew/nes/README.md: the score at $20 (``<u2``) rises while A is held; its copy at
$08 is the top score (one frame behind while it rises, kept across a restart); ``game_over`` at $12
becomes 1 at the 900th play frame and the GAME OVER text follows 225 frames later (``over_delay`` at
$35); the game then ignores every button but START.
"""

from __future__ import annotations

import pytest

import emucore
from studio.model.export import export_integration
from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import open_window
from tests.studio.qt.test_states_panel import accept_the_folder_dialog

FRAME, GAME_OVER, OVER_DELAY, SCORE, TOP = 0x10, 0x12, 0x35, 0x20, 0x08


@pytest.mark.slow  # a walkthrough
def test_a_bare_rom_with_late_marks_to_a_checked_export_and_a_working_agent_run(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    from studio.qt.agents.agent_run_dialog import AgentDialog
    from studio.qt.scenario.integration_check_dialog import run_check

    window = open_window(qtbot, make_bare_nes(tmp_path))
    session, finder = window.session, window.search_tabs.from_screen
    memory = session.emulator.memory
    inputs: list[str] = []

    def did(what: str, count: int = 1) -> None:
        inputs.extend([what] * count)

    def play(button: str | None, frames: int) -> None:
        session.set_buttons(0, 1 << session.system.buttons.index(button) if button else 0)
        session.advance(frames)
        session.set_buttons(0, 0)

    # 1. the score: play (A scores), pause, type what the HUD shows; the reward on it
    finder.as_reward.setChecked(True)
    did("tick 'and reward its increase'")
    for frames in (30, 45, 70):
        play("A", frames)
        play(None, 1)
        window.menu_actions["find_from_screen"].trigger()
        finder.shown.setText(f"{memory.read(SCORE, '<u2'):05d}")
        finder.shown.returnPressed.emit()
        did("Ctrl+J, type the score, Enter", 3)
    best = finder.results[0]
    assert best.address != TOP, finder.message.text()  # the top score follows the score: never first
    assert finder.make_variable(0, "score") == "score"
    did("double-click the first row, Enter (the proposed name)", 2)
    # 2. the done rule: record episodes, mark each game over when the GAME OVER text shows
    accept_the_folder_dialog()
    window.menu_actions["record_episodes"].trigger()
    did("Movie > Record episodes, OK (the folder proposed)", 2)
    for _ in range(2):
        while not (memory.read(GAME_OVER, "|u1") and memory.read(OVER_DELAY, "|u1") == 0):
            play("A" if memory.read(FRAME, "<u2") % 50 < 20 else "RIGHT", 1)
        play(None, 12)  # a person's reaction to the text: 224 + 12 frames after the game over
        window.menu_actions["mark_over"].trigger()
        did("Ctrl+Shift+G on seeing GAME OVER")
    window.menu_actions["stop_movie"].trigger()
    did("Ctrl+. (stop)")
    box = window.scenario_editor.done_suggest
    window.scenario_dock.raise_()
    window.scenario_editor.show_suggest()
    did("Scenario dock, Suggest done tab", 2)
    qtbot.mouseClick(box.buttons["suggest"], Qt.MouseButton.LeftButton)
    did("click Suggest")
    said = box.message.text()
    assert said.count("the game over began 236 frames before your mark: ended the episode there") == 2, said
    assert {t.address for t in box.rules[0].tests} <= {GAME_OVER, 0x13}, said
    accepted = box.accept()
    did("click Accept")
    if not accepted.startswith("accepted"):
        accepted = box.accept()
        did("click Accept anyway")
    assert accepted.startswith("accepted"), accepted
    # 3. check, export
    check = run_check(window)
    did("Tools > Check integration")
    assert not [r for r in check.rows if r.severity == "problem"], [r.message for r in check.rows]
    assert sum("done fires at the game over" in r.message for r in check.rows) == 2
    exported = export_integration(session.folder, tmp_path / "export", include_rom=True)  # our ROM
    did("Ctrl+E, No (already checked), choose a folder, OK, Yes (with the ROM)", 5)
    assert not exported.errors, exported.errors
    # 4. an agent run with the dialog's defaults: the reward changes and the episode ends
    dialog = AgentDialog(exported.folder, None, None, settings=window.settings)
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    did("Tools > Run agent, click Run", 2)
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=60000)
    (episode,) = dialog.report.episodes
    assert episode.terminated and episode.total > 0
    dialog.close()
    window.close()
    env = emucore.make(str(exported.folder), inttype=emucore.data.Integrations.ALL)
    env.reset(seed=0)
    steps, terminated = 0, False
    while not terminated and steps < 3000:
        _, _, terminated, _, info = env.step(env.action_space.sample())
        steps += 1
    env.close()
    assert terminated and steps < 905  # at the game over (900 play frames), not at the text 225 frames later
    print(f"\n{len(inputs)} inputs:", *inputs, sep="\n  ")
    assert len(inputs) <= 30, inputs
