"""Qt key codes to the key names used by the core descriptors' keybinds and the studio's bindings."""

from __future__ import annotations

from PySide6.QtCore import Qt

_SPECIAL = {
    Qt.Key.Key_Up: "UP",
    Qt.Key.Key_Down: "DOWN",
    Qt.Key.Key_Left: "LEFT",
    Qt.Key.Key_Right: "RIGHT",
    Qt.Key.Key_Return: "ENTER",
    Qt.Key.Key_Enter: "ENTER",
    Qt.Key.Key_Tab: "TAB",
    Qt.Key.Key_Space: "SPACE",
    Qt.Key.Key_Backspace: "BACKSPACE",
    Qt.Key.Key_Shift: "SHIFT",
    Qt.Key.Key_Control: "CTRL",
    Qt.Key.Key_Alt: "ALT",
    Qt.Key.Key_Semicolon: ";",
    Qt.Key.Key_Comma: ",",
    Qt.Key.Key_Period: ".",
    Qt.Key.Key_Slash: "/",
    Qt.Key.Key_BracketLeft: "[",
    Qt.Key.Key_BracketRight: "]",
}


def key_name(key: int) -> str | None:
    """The name of a Qt key (``"X"``, ``"ENTER"``, ``"F3"``), or None for keys without one."""
    try:
        qt_key = Qt.Key(key)
    except ValueError:
        return None
    if qt_key in _SPECIAL:
        return _SPECIAL[qt_key]
    if Qt.Key.Key_A <= qt_key <= Qt.Key.Key_Z or Qt.Key.Key_0 <= qt_key <= Qt.Key.Key_9:
        return chr(int(qt_key))
    if Qt.Key.Key_F1 <= qt_key <= Qt.Key.Key_F35:
        return f"F{int(qt_key) - int(Qt.Key.Key_F1) + 1}"
    return None
