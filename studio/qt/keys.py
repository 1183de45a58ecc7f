"""Qt key codes to the key names used by the core descriptors' keybinds."""

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
}


def key_name(key: int) -> str | None:
    """The descriptor name of a Qt key (``"X"``, ``"ENTER"``), or None."""
    try:
        qt_key = Qt.Key(key)
    except ValueError:
        return None
    if qt_key in _SPECIAL:
        return _SPECIAL[qt_key]
    if Qt.Key.Key_A <= qt_key <= Qt.Key.Key_Z or Qt.Key.Key_0 <= qt_key <= Qt.Key.Key_9:
        return chr(int(qt_key))
    return None
