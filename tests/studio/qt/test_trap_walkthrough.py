"""A whole integration of our homebrew NES game's traps, as an integrator does it in the studio,
with every command counted: the score read off the HUD (a HUD buffer holds it in BCD 3 frames of
4, and the checkpoints typed all land on such frames), the bonus (a binary count of hundreds
drawn with "00", BCD-like below 1,000), and the done rule from one marked game over after two
deaths with lives left (a dying byte and an extra-lives count both fire at the first death).
The tools must say what they cannot tell yet and end with a correct integration: checked, and
an env that ends at the game over, not at a death (homebrew/nes/README.md is the ground truth).
"""

from __future__ import annotations

import json

import pytest

import emucore
from studio.model.export import export_integration
from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import open_window

FRAME, GAME_OVER, LIVES, SCORE, BONUS, HUD_BUF = 0x10, 0x12, 0x13, 0x20, 0x30, 0x40


@pytest.mark.slow  # a walkthrough
def test_the_trap_game_from_scratch_to_a_correct_checked_integration(qtbot, tmp_path):
    window = open_window(qtbot, make_bare_nes(tmp_path))
    session, finder = window.session, window.search_tabs.from_screen
    finder.as_reward.setChecked(True)
    inputs: list[str] = []
    memory = session.emulator.memory

    def did(what: str, count: int = 1) -> None:
        inputs.extend([what] * count)

    def play(button: str | None, frames: int) -> None:
        session.set_buttons(0, 1 << session.system.buttons.index(button) if button else 0)
        session.advance(frames)
        session.set_buttons(0, 0)

    def type_shown(text: str) -> None:
        window.menu_actions["find_from_screen"].trigger()
        finder.shown.setText(text)
        finder.shown.returnPressed.emit()
        did("Ctrl+J, type what the HUD shows, Enter", 3)

    def pause_on_the_score() -> None:
        play(None, 1)
        while memory.read(FRAME, "<u2") & 3 == 0:  # where the HUD buffer holds the score, as a pause may land
            play(None, 1)

    # 1. the score: play (A scores), pause now and then, type "SCORE ddddd"
    for frames in (25, 40, 60):
        play("A", frames)
        pause_on_the_score()
        type_shown(f"{memory.read(SCORE, '<u2'):05d}")
    best = finder.results[0]
    assert best.address != HUD_BUF and best.steady is True  # the buffer is volatile in the rewind history
    assert any(c.address == HUD_BUF and c.steady is False for c in finder.results)
    assert finder.make_variable(0, "score") == "score"
    did("double-click the first row, Enter (the proposed name)", 2)
    # 2. the bonus: hold SELECT, type "BONUS dddd00"; the box says BCD and hundreds read alike so far
    finder.as_reward.setChecked(False)
    finder.clear()
    did("untick 'and reward its increase', click Clear (a new value)", 2)
    for frames in (3, 2, 3):
        play("SELECT", frames)
        play(None, 2)
        type_shown(f"{100 * memory.read(BONUS, '<u2'):06d}")
    assert "Can't yet tell" in finder.message.text() and "once it reaches 1,000" in finder.message.text()
    assert finder.make_variable(0, "bonus") == "bonus" and "provisional" in finder.message.text()
    did("double-click the first row, type 'bonus', Enter", 3)
    play("SELECT", 10)
    play(None, 2)
    type_shown(f"{100 * memory.read(BONUS, '<u2'):06d}")  # 001800: the value it waited for
    assert json.loads((session.folder / "data.json").read_text())["info"]["bonus"] == {"address": BONUS,
                                                                                       "type": "<u2"}
    assert "BCD" not in (window.watch.type_warning("bonus") or "")
    # 3. the done rule: play on through two deaths with lives left, mark the game over when it shows
    while not memory.read(GAME_OVER, "|u1"):
        play(None, 1)
    window.menu_actions["mark_over"].trigger()
    did("Ctrl+Shift+G at GAME OVER")
    box = window.scenario_editor.done_suggest
    window.scenario_dock.raise_()
    window.scenario_editor.show_suggest()
    did("Scenario dock, Suggest done tab", 2)
    box.suggest()
    did("click Suggest")
    assert box.rules[0].done == {"variables": {"gameover": {"op": "nonzero"}}}
    assert box.accept().startswith("Before accepting, weigh: one game over seen")
    did("click Accept")
    assert box.accept().startswith("accepted gameover nonzero")
    did("click Accept anyway")
    # 4. check, then export
    from studio.qt.scenario.integration_check_dialog import run_check

    check = run_check(window)
    did("Tools > Check integration")
    assert not [r for r in check.rows if r.severity == "problem"], [r.message for r in check.rows]
    assert any("score \u00d7 1 pays what the screen showed at all 3 checkpoints" in r.message for r in check.rows)
    exported = export_integration(session.folder, tmp_path / "export", include_rom=True)  # our ROM
    did("Ctrl+E, No (already checked), choose a folder, OK, Yes (with the ROM)", 5)
    assert not exported.errors, exported.errors
    window.close()
    env = emucore.make(str(exported.folder), inttype=emucore.data.Integrations.ALL)
    env.reset(seed=0)
    steps, terminated, lives_seen = 0, False, set()
    while not terminated and steps < 3000:
        _, _, terminated, _, info = env.step(env.action_space.sample())
        steps += 1
        lives_seen.add(env.unwrapped.em.memory.read(LIVES, "|u1"))
    env.close()
    assert terminated and info["gameover"] and lives_seen == {0, 1, 2, 3}  # the game over, after every death
    assert set(info) >= {"score", "bonus", "gameover"}
    assert len(inputs) <= 40, inputs
