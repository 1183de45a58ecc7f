"""Files that could not be read: the window's notice (non-modal, so the game opens and runs behind
it), and the banner of a dock whose file cannot be read."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMessageBox, QPushButton, QStatusBar, QVBoxLayout, QWidget

from studio.model.set_aside import OpenProblem

TITLE = "Files that could not be read"


def problem_lines(problems: Iterable[OpenProblem]) -> list[str]:
    return [f"\N{BULLET} {problem}" for problem in problems]


class ProblemNotice(QMessageBox):
    """Lists :class:`OpenProblem` reports; more are added while it is open, none is shown twice.

    Each time it also says which file in ``status`` (the window's status bar), if given.
    """

    def __init__(self, parent: QWidget | None = None, status: QStatusBar | None = None):
        super().__init__(QMessageBox.Icon.Warning, TITLE, "", QMessageBox.StandardButton.Close, parent)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.status = status
        self.problems: list[OpenProblem] = []
        self.finished.connect(self.problems.clear)  # closed: the next problems start a new list

    def add(self, problems: Iterable[OpenProblem]) -> bool:
        """Shows ``problems`` not shown yet; True if there was any."""
        new = [p for p in problems if p not in self.problems]
        if not new:
            return False
        self.problems.extend(new)
        count = len(self.problems)
        self.setText(f"{count} file{'s' if count > 1 else ''} could not be read. The studio goes on without "
                     f"{'them' if count > 1 else 'it'}:")
        self.setInformativeText("\n\n".join(problem_lines(self.problems)))
        self.show()
        self.raise_()
        if self.status is not None:
            self.status.showMessage(f"could not read {new[-1].path.name}: see the notice", 10000)
        return True


class UnreadableBanner(QFrame):
    """A file of the integration that cannot be read: why, and what the user can do about it.

    Args:
        reload: Reads the file again (after it was fixed elsewhere).
        replace: Saves an empty document over it; asked for confirmation first.
        what: What replacing it makes ("an empty scenario").
    """

    def __init__(self, reload: Callable[[], None], replace: Callable[[], None], what: str,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setStyleSheet("color: #c62828;")
        self.reload_button = QPushButton("Reload")
        self.reload_button.clicked.connect(reload)
        self.replace_button = QPushButton(f"Replace with {what}...")
        self.replace_button.clicked.connect(lambda: self._replace(replace, what))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reload_button)
        buttons.addWidget(self.replace_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addLayout(buttons)
        self.setVisible(False)

    def show_problem(self, text: str) -> None:
        """Shows ``text`` (hidden when it is empty)."""
        self.label.setText(text)
        self.setVisible(bool(text))

    def _replace(self, replace: Callable[[], None], what: str) -> None:
        answer = QMessageBox.question(self, "Replace the file", f"Save {what} over the file that cannot be read? "
                                      "What it holds now is lost.")
        if answer == QMessageBox.StandardButton.Yes:
            replace()
