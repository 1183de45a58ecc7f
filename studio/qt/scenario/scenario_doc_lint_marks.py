"""How the scenario editor marks lint findings: the field at fault tinted, the messages under it.

An error tints red and a warning amber; the messages go in a red line under the table or tree
(hidden while there are none) and in the tooltip of the tinted row.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from emucore.integration import LintFinding

ERROR_TINT = QColor(255, 90, 90, 70)
WARNING_TINT = QColor(255, 190, 0, 60)


def finding_tint(findings: list[LintFinding]) -> QColor | None:
    """The background of a row with these findings: red for an error, amber for warnings, None for none."""
    if any(f.level == "error" for f in findings):
        return ERROR_TINT
    return WARNING_TINT if findings else None


def findings_text(findings: list[LintFinding]) -> str:
    """One line per finding: its level, where it is and what is wrong."""
    return "\n".join(f"{f.level}: {f.key}: {f.message}" if f.key else f"{f.level}: {f.message}" for f in findings)


def lint_label() -> QLabel:
    """The red line under a field that lists its findings; hidden until there are some."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet("color: #c62828;")
    label.hide()
    return label


def show_lint(label: QLabel, findings: list[LintFinding]) -> None:
    """``findings`` in ``label``, which is shown only when there are any."""
    label.setText(findings_text(findings))
    label.setVisible(bool(findings))
