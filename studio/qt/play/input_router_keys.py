"""The keyboard as the game's controller, wherever focus is in the main window.

An application event filter takes the game's keys (bindings, quick slots, rewind) before any dock
widget sees them, so a focused button or list never swallows them, and hands them by name to the
Qt-free :class:`~studio.model.play.input_router.InputRouter`. The exception is typing: while focus is in a
text field (or another widget that sets ``takes_typing``), keys go there, and Esc gives them back to
the game (a click on the picture does too). The game view shows which it is.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from studio.model.play.input_router import InputRouter
from studio.qt.play.keys import key_name

_KEY_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease)


def takes_typing(widget: QWidget | None) -> bool:
    """Whether keys pressed with ``widget`` focused are text for it rather than the game's."""
    if widget is None:
        return False
    if isinstance(widget, (QLineEdit, QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    if isinstance(widget, QAbstractSpinBox):
        return not widget.isReadOnly()
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, QAbstractItemView) and widget.state() == QAbstractItemView.State.EditingState:
        return True
    return bool(getattr(widget, "takes_typing", False))


class GameInput(QObject):
    """Key events of the main window to the workspace's :class:`~studio.model.play.input_router.InputRouter`.

    Args:
        window: The main window; only key events for widgets in it are taken.
        router: What the game's keys go to (it holds the bindings and writes the held buttons).
        on_focus: Called with True when keys go to the game, False while the user types.
    """

    def __init__(self, window: QWidget, router: InputRouter, on_focus: Callable[[bool], None]):
        super().__init__(window)
        self.window = window
        self.router = router
        self._on_focus: Callable[[bool], None] | None = on_focus
        self.to_game = True
        self.typed: set[int] = set()  # keys pressed into a field: their press and release are the field's
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.installEventFilter(self)
        app.focusChanged.connect(self._focus_changed)

    def close(self) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication) and self._on_focus is not None:
            app.removeEventFilter(self)
            app.focusChanged.disconnect(self._focus_changed)
        self._on_focus = None

    # ---- routing ----

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() not in _KEY_EVENTS or not isinstance(watched, QWidget) or not self._in_window(watched):
            return False
        assert isinstance(event, QKeyEvent)
        pressed = event.type() == QEvent.Type.KeyPress
        if takes_typing(QApplication.focusWidget()):
            if pressed:
                self.typed.add(event.key())
            elif not event.isAutoRepeat():
                self.typed.discard(event.key())
            if pressed and event.key() == Qt.Key.Key_Escape:
                self.window.setFocus()  # the widget still gets its Esc (an item editor cancels)
                self.focus_game()
            return False
        if event.key() in self.typed:
            # Enter that confirms a field moves the focus to the game, and the field leaves the
            # press unaccepted: it goes on to the parents, and its release follows. Neither is the game's.
            if not pressed and not event.isAutoRepeat():
                self.typed.discard(event.key())
            return True
        if pressed:
            return self.press(event)
        return self.release(event)

    def _in_window(self, widget: QWidget) -> bool:
        """In the main window, or in one of its docks floated out of it (dialogs keep their keys)."""
        top = widget.window()
        return top is self.window or (isinstance(top, QDockWidget) and top.parentWidget() is self.window)

    def focus_game(self) -> None:
        """Gives the keys back to the game (Esc in a text field, a click on the picture)."""
        focus = QApplication.focusWidget()
        if takes_typing(focus) and focus is not None:
            focus.clearFocus()
        self._focus_changed(None, QApplication.focusWidget())

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and takes_typing(new) and self._back_from_dialog(old, new):
            new.clearFocus()  # after a dialog, the keys are the game's again, not the field's it came from
            self.window.setFocus()
            new = QApplication.focusWidget()
        to_game = not takes_typing(new)
        if to_game != self.to_game:
            self.to_game = to_game
            if not to_game:
                self.router.release_all()  # a key held while clicking into a field is never released to us
            if self._on_focus is not None:
                self._on_focus(to_game)

    def _back_from_dialog(self, old: QWidget | None, new: QWidget) -> bool:
        """Focus coming back into the main window from one of the studio's dialogs."""
        return (old is not None and self._in_window(new) and isinstance(old.window(), QDialog)
                and old.window() is not self.window)

    # ---- the game's keys ----

    def press(self, event: QKeyEvent) -> bool:
        """Acts on a game key; False (and nothing done) for other keys."""
        name = key_name(event.key())
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        return name is not None and self.router.key_down(name, shift=shift, repeat=event.isAutoRepeat())

    def release(self, event: QKeyEvent) -> bool:
        name = key_name(event.key())
        return name is not None and self.router.key_up(name, repeat=event.isAutoRepeat())
