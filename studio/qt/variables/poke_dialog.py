"""The poke test of one variable: asks the value and the frames, runs it, shows the verdict.

The test itself is :func:`studio.model.variables.poke.poke_test`; it plays on a scratch copy of the game and
puts everything back, so it can be run again and again with other values.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.model.variables.poke import DEFAULT_FRAMES, MAX_FRAMES, PokeResult, default_value, value_range
from studio.model.variables.ram import parse_number

SHOWN_VALUES = 8


def describe_result(result: PokeResult) -> str:
    """The details behind a verdict, a few lines (for a tooltip)."""
    values = ", ".join(str(v) for v in result.values[:SHOWN_VALUES])
    more = ", ..." if len(result.values) > SHOWN_VALUES else ""
    lines = [
        f"Poked {result.poked} over {result.before} at 0x{result.address:X} ({result.type}), "
        f"then {result.frames} frames with no button held.",
        f"Read back after each frame: {values}{more}",
        f"Without the poke it ended at {result.baseline[-1]}; with it at {result.values[-1]}.",
    ]
    if result.rewritten_at is not None:
        lines.append(f"The game first wrote {result.rewritten_to} at frame {result.rewritten_at}.")
    differing = len(result.frames_looking_different)
    lines.append(f"The picture differed on {differing} of {result.frames} frames; "
                 f"{result.pixels_changed:,} pixels differ at the end.")
    return "\n".join(lines)


class PokeTestDialog(QDialog):
    """Value and frames for a poke test, a Run button, and the verdict of the last run.

    Args:
        name: The variable's name (for the title).
        type_text: Its type (for the value's range).
        current: Its value now (None when unmapped).
        run: Runs the test (``run(value, frames)``); raises ValueError with a message for the user.
        parent: The Qt parent.
    """

    #: A test ran: its result.
    tested = Signal(object)

    def __init__(self, name: str, type_text: str, current: int | None,
                 run: Callable[[int, int], PokeResult], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Poke test: {name}")
        self._run = run
        self.last_result: PokeResult | None = None
        low, high = value_range(type_text)
        self.value = QLineEdit("" if current is None or low == high else str(default_value(current, type_text)))
        self.value.setToolTip(f"What to write ({low} to {high}; 0x for hex); it must differ from {current}")
        self.frames = QSpinBox()
        self.frames.setRange(1, MAX_FRAMES)
        self.frames.setValue(DEFAULT_FRAMES)
        self.frames.setSuffix(" frames")
        self.frames.setToolTip("How long the game plays, with no button held, before the pictures are compared")
        explain = QLabel(f"Now {current if current is not None else 'unmapped'}. The game plays twice from here, "
                         "with and without the poke; the variable and the pictures are compared, then "
                         "everything is put back.")
        explain.setWordWrap(True)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.run_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("Value:", self.value)
        form.addRow("Play:", self.frames)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addLayout(form)
        layout.addWidget(self.verdict)
        layout.addWidget(buttons)
        self.setMinimumWidth(380)

    def run(self) -> PokeResult | None:
        """Runs the test with the values shown; the verdict (or the error) is shown below them."""
        try:
            result = self._run(parse_number(self.value.text()), self.frames.value())
        except ValueError as exc:
            self.verdict.setStyleSheet("color: #c0392b")
            self.verdict.setText(str(exc))
            self.verdict.setToolTip("")
            return None
        self.last_result = result
        self.verdict.setStyleSheet("")
        self.verdict.setText(result.verdict())
        self.verdict.setToolTip(describe_result(result))
        self.tested.emit(result)
        return result
