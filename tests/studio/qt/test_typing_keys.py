"""Typing and playing with real key events through the window (pytest-qt, offscreen): Enter that
confirms a field never reaches the game (on the Genesis demo START is bound to Enter), and the
game's keys reach the game at start-up and after a dialog, without a click."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from studio.model.commands import advance
from studio.qt.play.input_router_keys import takes_typing
from tests.studio.qt.test_game_keys import plays_b, score


def start_bit(window) -> int:
    return 1 << window.session.system.buttons.index("START")


def test_the_game_has_the_keys_at_start_up(qtbot, window):
    assert not takes_typing(QApplication.focusWidget()) and window.view.keys_to_game
    assert plays_b(qtbot, window, QApplication.focusWidget() or window) == 5


def test_enter_that_confirms_a_checkpoint_never_reaches_the_game(qtbot, window):
    finder = window.search_tabs.from_screen
    window.menu_actions["find_from_screen"].trigger()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is finder.shown, timeout=2000)
    assert not window.view.keys_to_game  # the bar: keys go to the field
    qtbot.keyClicks(finder.shown, str(score(window)))
    held = []
    window.session.events.after_frame.connect(lambda: held.append(window.session.held[0]))
    qtbot.keyPress(finder.shown, Qt.Key.Key_Return)
    assert len(finder.finder.checkpoints) == 1  # the value was taken
    assert QApplication.focusWidget() is not finder.shown and window.view.keys_to_game
    assert window.session.held[0] & start_bit(window) == 0
    advance(window.workspace, 3)
    qtbot.keyRelease(QApplication.focusWidget() or window, Qt.Key.Key_Return)
    advance(window.workspace, 2)
    assert held and not any(mask & start_bit(window) for mask in held)
    assert plays_b(qtbot, window, QApplication.focusWidget() or window) == 5  # and the game has the keys


def test_after_a_dialog_the_keys_are_the_games_without_a_click(qtbot, window):
    finder = window.search_tabs.from_screen
    window.menu_actions["find_from_screen"].trigger()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is finder.shown, timeout=2000)

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert dialog is not None
        qtbot.keyClick(dialog, Qt.Key.Key_Return)

    QTimer.singleShot(100, answer)
    frame = window.session.frame
    window.command("advance_n")()  # Emulation > Advance N frames: a dialog, confirmed with Enter
    assert window.session.frame > frame
    qtbot.waitUntil(lambda: not takes_typing(QApplication.focusWidget()), timeout=2000)
    assert window.view.keys_to_game
    assert window.session.held[0] & start_bit(window) == 0
    assert plays_b(qtbot, window, QApplication.focusWidget() or window) == 5
