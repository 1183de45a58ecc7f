"""The game's keys reach the game whatever dock widget has focus, except while the user types."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLineEdit, QWidget

from studio.model.commands import advance
from studio.qt.main_window import MainWindow
from studio.qt.play.input_router_keys import takes_typing

SCORE = 0xFF0000  # the demo's score: B held adds one a frame


def score(window: MainWindow) -> int:
    return window.session.emulator.read(SCORE, ">u4")


def focus(qtbot, widget: QWidget) -> None:
    widget.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=2000)


def plays_b(qtbot, window: MainWindow, target: QWidget) -> int:
    """Presses B (X on the keyboard) at ``target``, runs 5 frames, releases; the score gained."""
    before = score(window)
    qtbot.keyPress(target, Qt.Key.Key_X)
    advance(window.workspace, 5)
    qtbot.keyRelease(target, Qt.Key.Key_X)
    advance(window.workspace, 1)
    return score(window) - before


def first_control(dock) -> QWidget:
    """A button if the dock has one, else another focusable widget that is not for typing."""
    widgets = [w for w in dock.widget().findChildren(QWidget)
               if w.isEnabled() and w.isVisible() and w.focusPolicy() & Qt.FocusPolicy.TabFocus and not takes_typing(w)]
    widgets.sort(key=lambda w: not isinstance(w, QAbstractButton))
    assert widgets, dock.windowTitle()
    return widgets[0]


@pytest.mark.parametrize("dock_name", ["states_dock", "search_dock", "variables_dock", "scenario_dock", "ram_dock"])
def test_a_focused_control_in_any_dock_does_not_take_the_game_keys(qtbot, window, dock_name):
    dock = getattr(window, dock_name)
    dock.show()
    dock.raise_()
    control = first_control(dock)
    focus(qtbot, control)
    assert plays_b(qtbot, window, control) == 5
    assert window.view.keys_to_game


def test_lists_and_arrow_keys_go_to_the_game(qtbot, window):
    focus(qtbot, window.states_panel.list)
    qtbot.keyPress(window.states_panel.list, Qt.Key.Key_Right)
    assert window.session.held[0] != 0  # RIGHT is held for the game, not a list move
    qtbot.keyRelease(window.states_panel.list, Qt.Key.Key_Right)
    assert window.session.held[0] == 0


def test_typing_in_a_field_keeps_the_keys_until_esc(qtbot, window):
    window.search_dock.show()
    window.search_dock.raise_()
    field = next(f for f in window.search_panel.findChildren(QLineEdit) if f.isVisible() and not f.isReadOnly())
    focus(qtbot, field)
    assert takes_typing(field) and not window.view.keys_to_game
    assert plays_b(qtbot, window, field) == 0
    assert "x" in field.text().lower()
    qtbot.keyPress(field, Qt.Key.Key_Escape)
    assert window.view.keys_to_game and QApplication.focusWidget() is not field
    assert plays_b(qtbot, window, window) == 5


def test_a_click_on_the_picture_gives_the_keys_back(qtbot, window):
    field = next(f for f in window.search_panel.findChildren(QLineEdit) if not f.isReadOnly())
    window.search_dock.raise_()
    focus(qtbot, field)
    assert not window.view.keys_to_game
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton)
    assert window.view.keys_to_game
    assert plays_b(qtbot, window, window.view) == 5


def test_a_key_held_when_focus_moves_into_a_field_is_released(qtbot, window):
    qtbot.keyPress(window.view, Qt.Key.Key_X)
    assert window.session.held[0]
    field = next(f for f in window.search_panel.findChildren(QLineEdit) if not f.isReadOnly())
    window.search_dock.raise_()
    focus(qtbot, field)
    assert window.session.held[0] == 0


def test_the_hex_view_takes_typed_bytes(qtbot, window):
    hex_view = window.ram_viewer.hex
    focus(qtbot, hex_view)
    assert takes_typing(hex_view) and not window.view.keys_to_game
    qtbot.keyPress(hex_view, Qt.Key.Key_Escape)
    assert window.view.keys_to_game


def test_a_floating_dock_does_not_take_the_game_keys(qtbot, window):
    window.states_dock.setFloating(True)
    window.states_dock.show()
    button = first_control(window.states_dock)
    assert plays_b(qtbot, window, button) == 5
