"""Tools > Check integration: the open integration replayed on the workspace's recorded play, as a
list to act on (go to the frame, open the variable, suggest the done rule again).

Behaviour lives in :mod:`studio.model.scenario.integration_check`; this window lists its rows and runs
the row's action through the main window.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.scenario.integration_check import (
    GO_TO_FRAME,
    OPEN_VARIABLE,
    SUGGEST_DONE,
    CheckRow,
    WorkspaceCheck,
    check_workspace,
)

COLORS = {"problem": "#c62828", "warning": "#e65100", "info": "#455a64"}


def run_check(window: Any) -> WorkspaceCheck:
    """The check of ``window``'s game on its episodes, regression movies and typed checkpoints (and the
    number read off the screen, when Find from screen has a reader)."""
    marks = window.scenario_editor.done_suggest.marks
    finder = window.search_tabs.from_screen.finder
    watch = window.watch
    found = {name: entry for name, entry in watch.provenance.entries.items() if entry.how == "find from screen"}
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        return check_workspace(window.session, marks.movies(), list(finder.checkpoints), found,
                               screen=window.workspace.screen_reader.reader)
    finally:
        QApplication.restoreOverrideCursor()


class CheckDialog(QDialog):
    """The report of one check, with a button per action on the selected row.

    Args:
        window: The main window (its session, docks and panels run the actions).
        check: The check to show.
    """

    def __init__(self, window: Any, check: WorkspaceCheck, parent: QWidget | None = None):
        super().__init__(parent or window)
        self.setWindowTitle(f"Check integration - {window.session.name}")
        self.window_ = window
        self.check = check
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", "Finding", "What to do"])
        self.tree.setRootIsDecorated(False)
        self.detail = QLabel()  # the selected finding in full (the list elides long ones)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.itemDoubleClicked.connect(lambda item, _column: self.act(self.tree.indexOfTopLevelItem(item)))
        self.tree.currentItemChanged.connect(lambda *_: self._enable())
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for action, title in ((GO_TO_FRAME, "Go to the frame"), (OPEN_VARIABLE, "Open the variable"),
                              (SUGGEST_DONE, "Suggest again")):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, a=action: self.act(self.tree.currentIndex().row(), a))
            row.addWidget(button)
            self.buttons[action] = button
        row.addStretch(1)
        again, close = QPushButton("Check again"), QPushButton("Close")
        again.clicked.connect(self.check_again)
        close.clicked.connect(self.close)
        row.addWidget(again)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.message)
        layout.addLayout(row)
        self.resize(860, 420)
        self.show_check(check)

    def show_check(self, check: WorkspaceCheck) -> None:
        self.check = check
        self.summary.setText(check.summary())
        color = COLORS["problem" if not check.ok else "info" if check.movies else "warning"]
        self.summary.setStyleSheet(f"color: {color}; font-weight: bold;")
        self.tree.clear()
        for row in check.rows:
            item = QTreeWidgetItem([row.severity, row.message, row.action])
            item.setForeground(0, QColor(COLORS[row.severity]))
            item.setToolTip(1, row.message)
            self.tree.addTopLevelItem(item)
        first = self.tree.topLevelItem(0)
        if first is not None:  # the check has rows
            self.tree.setCurrentItem(first)
        self._enable()

    def _row(self, index: int) -> CheckRow | None:
        return self.check.rows[index] if 0 <= index < len(self.check.rows) else None

    def _enable(self) -> None:
        row = self._row(self.tree.currentIndex().row())
        self.detail.setText("" if row is None else row.message)
        for action, button in self.buttons.items():
            button.setEnabled(row is not None and action in row.action)

    def act(self, index: int, action: str | None = None) -> str:
        """Runs ``action`` (default: the row's first) on row ``index``; returns what was done."""
        row = self._row(index)
        if row is None or not row.action:
            return ""
        action = action or row.action.split(" / ")[0]
        window = self.window_
        if action == GO_TO_FRAME and row.movie is not None and row.frame is not None:
            text = go_to_movie_frame(window.session, row.movie, row.frame)
        elif action == OPEN_VARIABLE and row.variable:
            window.variables_dock.show()
            window.variables_dock.raise_()
            found = window.variables_panel.select(row.variable)
            text = f"{row.variable} selected in the Variables dock" if found else f"no variable {row.variable!r}"
        elif action == SUGGEST_DONE:
            window.scenario_dock.show()
            window.scenario_dock.raise_()
            window.scenario_editor.show_suggest()
            text = window.scenario_editor.done_suggest.suggest()
        else:
            text = ""
        self.message.setText(text)
        return text

    def check_again(self) -> None:
        try:
            self.show_check(run_check(self.window_))
        except ValueError as exc:
            self.message.setText(str(exc))


def go_to_movie_frame(session: Any, movie: Any, frame: int) -> str:
    """Plays ``movie`` in the session up to ``frame`` (the frame the finding names), paused there."""
    session.set_paused(True)
    session.movies.play(movie)
    session.advance(frame)
    session.movies.stop_playing()
    return f"paused at frame {frame} of {getattr(movie, 'name', movie)}"


def offer_check_before_export(window: Any) -> bool:
    """Asks to check first; True when the export should go on (no check, or nothing wrong, or the
    user exports anyway)."""
    answer = QMessageBox.question(window, "Export", "Check the integration on the recorded play before exporting?",
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    if answer != QMessageBox.StandardButton.Yes:
        return True
    try:
        check = run_check(window)
    except ValueError as exc:
        QMessageBox.warning(window, "Check integration", str(exc))
        return False
    if check.ok:
        return True
    window.check_dialog = CheckDialog(window, check)
    window.check_dialog.show()
    return QMessageBox.question(window, "Export", f"{check.summary()}.\nExport anyway?",
                                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                                ) == QMessageBox.StandardButton.Yes


__all__ = ["CheckDialog", "go_to_movie_frame", "offer_check_before_export", "run_check"]
