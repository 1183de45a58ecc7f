"""Small builders for the docks' forms: buttons, fields and rows, with their tooltips."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)


def button(title: str, tip: str, slot: Callable[..., Any]) -> QPushButton:
    """A push button with a tooltip, calling ``slot`` when clicked."""
    made = QPushButton(title)
    made.setToolTip(tip)
    made.clicked.connect(slot)
    return made


def line(placeholder: str, tip: str) -> QLineEdit:
    """A one-line text field with a placeholder and a tooltip."""
    field = QLineEdit()
    field.setPlaceholderText(placeholder)
    field.setToolTip(tip)
    return field


def row(*items: QWidget | tuple[QWidget, int]) -> QHBoxLayout:
    """A row of widgets; ``(widget, stretch)`` for the ones that take the room left."""
    layout = QHBoxLayout()
    for item in items:
        widget, stretch = item if isinstance(item, tuple) else (item, 0)
        layout.addWidget(widget, stretch)
    return layout


def box(widget: QWidget, below: QHBoxLayout) -> QWidget:
    """``widget`` with a row of controls below it."""
    made = QWidget()
    layout = QVBoxLayout(made)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(widget)
    layout.addLayout(below)
    return made


def message_label() -> QLabel:
    """A word-wrapped line for a dock's messages that never widens the dock (it wraps instead)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(50)
    return label


def scrolling(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it: where there is less room than it asks for (a dock,
    a tab), it scrolls rather than setting the window's minimum size or squeezing its boxes over each other."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area
