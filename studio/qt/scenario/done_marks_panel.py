"""The Done tab's "suggest a rule" box: mark alive and game-over moments, list the rules they
suggest with their terms, preview one on the regression movies, and accept it.

Behaviour lives in :class:`studio.model.scenario.done_marks.DoneMarks`; errors are shown here, never raised
into Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from emucore.assist import DoneRule
from emucore.assist.done_suggestion import DoneRules
from emucore.errors import EmucoreError
from studio.model.play.session import Session
from studio.model.scenario.done_marks import DoneMarks, Mark
from studio.model.scenario.done_rule import Preview, group_neighbours, rule_terms
from studio.model.workspace import Workspace
from studio.qt.forms import scrolling
from studio.qt.images import qimage_from_rgb
from studio.qt.scenario.done_episodes_panel import DoneEpisodesPanel

if TYPE_CHECKING:
    from studio.model.scenario.scenario_doc import ScenarioDocument
    from studio.model.variables.watch import Watch

ERROR_STYLE = "color: #c62828;"
OK_STYLE = "color: #2e7d32;"
WARN_STYLE = "color: #e65100;"
RULES_SHOWN = 6  # rules the list shows without scrolling
RULES_LISTED = 10  # lines of rules (a rule with its neighbours is one)
MARKS_SHOWN = 2  # marks the list shows without scrolling (the newest: it scrolls to the end)
THUMB = QSize(32, 24)
KIND_WORDS = {"alive": "alive", "over": "game over"}
RANKING = ("most robust first: flags and counts that take few values while alive, then fewer terms, "
           "then your own variables")


def preview_line(row: Preview) -> str:
    """``take.bk2: fires at frame 612, expected done frame 612``."""
    if row.error:
        return f"{row.movie}: cannot be replayed: {row.error}"
    fires = f"fires at frame {row.fires_at}" if row.fires_at is not None else "never fires"
    expected = f"expected done frame {row.expected}" if row.expected is not None else "expected: no done"
    return f"{row.movie}: {fires}, {expected}" + ("" if row.same else "  (differs)")


class DoneSuggestPanel(QGroupBox):
    """Marks, suggested rules, their preview and "Accept", for the open game.

    Args:
        workspace: The open game: its ``done_marks``, the ``scenario`` an accepted rule is written to,
            and the ``watch`` its new variables go through (the variables dock shows them at once).
        parent: The Qt parent.
    """

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)  # untitled: its tab says what it is
        self.setFlat(True)
        self._take(workspace)
        self.rules: DoneRules = DoneRules()
        self.previews: list[Preview] = []
        self.confirming = False  # Accept was pressed once on a rule with warnings: the next press accepts
        self.counts = QLabel()
        self.counts.setWordWrap(True)
        self.counts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # wraps, never widens
        self.mark_list = QListWidget()
        self.mark_list.setIconSize(THUMB)
        self.mark_list.setToolTip("The moments marked, with the screen of the time; Remove forgets the selected one")
        self.mark_list.setMinimumHeight((THUMB.height() + 6) * MARKS_SHOWN + 8)
        self.rule_list = QListWidget()
        self.rule_list.setFixedHeight(self._list_height(RULES_SHOWN))  # the buttons never move after a run
        self.rule_list.currentRowChanged.connect(self._rule_chosen)
        self.preview = QLabel()
        self.preview.setTextFormat(Qt.TextFormat.PlainText)
        self.preview.setWordWrap(True)
        self.cautions = QLabel()
        self.cautions.setTextFormat(Qt.TextFormat.PlainText)
        self.cautions.setWordWrap(True)
        self.cautions.setStyleSheet(WARN_STYLE)
        self.cautions.hide()
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.hide()
        marking, editing = QHBoxLayout(), QVBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, title, slot, where in (("alive", "Mark alive", self.mark_alive, marking),
                                        ("over", "Mark game over", self.mark_over, marking),
                                        ("suggest", "Suggest", self.suggest, marking),
                                        ("remove", "Remove", self.remove_mark, editing),
                                        ("clear", "Clear marks", self.clear_marks, editing)):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, s=slot: s())
            where.addWidget(button)
            self.buttons[key] = button
        marking.addStretch(1)
        editing.addStretch(1)
        marks = QHBoxLayout()  # the marks, with Remove and Clear beside them
        marks.addWidget(self.mark_list, 1)
        marks.addLayout(editing)
        self.accept_button = QPushButton("Accept")
        self.accept_button.setEnabled(False)
        self.accept_button.clicked.connect(lambda _=False: self.accept())
        accepting = QHBoxLayout()
        self.mark_list.setMaximumHeight(self.mark_list.minimumHeight())  # the rules get the room that is left
        for listing in (self.mark_list, self.rule_list):  # long lines end in "..." (their tooltips say all)
            listing.setTextElideMode(Qt.TextElideMode.ElideRight)
            listing.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        regression = QLabel("Regression movies under the chosen rule:")
        regression.setWordWrap(True)
        regression.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.episode_list = DoneEpisodesPanel(self.marks.episodes, self._run)
        layout = QVBoxLayout(self)
        layout.addWidget(self.counts)
        layout.addLayout(marks)
        layout.addWidget(self.episode_list)
        layout.addLayout(marking)
        layout.addWidget(self.rule_list)
        accepting.addWidget(regression, 1)
        accepting.addWidget(self.accept_button)
        layout.addLayout(accepting)
        said = QWidget()  # what a command said, below every button: it grows and scrolls, nothing moves
        saying = QVBoxLayout(said)
        saying.setContentsMargins(0, 0, 0, 0)
        for label in (self.message, self.cautions, self.preview):
            saying.addWidget(label)
        saying.addStretch(1)
        said_area = scrolling(said)
        said_area.setMinimumHeight(self.fontMetrics().lineSpacing() * 5)
        layout.addWidget(said_area, 1)
        self._show_counts()

    def _take(self, workspace: Workspace) -> None:
        self.session: Session = workspace.session
        self.doc: ScenarioDocument = workspace.scenario
        self.watch: Watch = workspace.watch
        self.marks: DoneMarks = workspace.done_marks

    def bind(self, workspace: Workspace) -> None:
        """The marks of the workspace's game (after the window opened another one)."""
        self._take(workspace)
        self.episode_list.bind(self.marks.episodes)
        self._forget_rules()
        self.message.hide()
        self._show_counts()

    def _forget_rules(self) -> None:
        """No rule listed: after another game opened, or the marks were cleared."""
        self.rules, self.previews = DoneRules(), []
        self._unconfirm()
        self.rule_list.clear()
        self.preview.clear()
        self.cautions.hide()
        self.accept_button.setEnabled(False)

    def unbind(self) -> None:
        """Nothing to end: the panel listens to no model (the marks change only by its own buttons)."""

    # ---- commands ----

    def mark_alive(self) -> str:
        """Marks the moment on screen as alive; returns the notice (or the error) shown."""
        return self._run(lambda: self._marked(self.marks.mark_alive().frame, "alive"))

    def mark_over(self) -> str:
        """Marks the moment on screen as the game over; returns the notice (or the error) shown."""
        return self._run(lambda: self._marked(self.marks.mark_over().frame, "game over"))

    def remove_mark(self, row: int | None = None) -> str:
        """Forgets the selected mark (or the one at ``row``)."""
        row = self.mark_list.currentRow() if row is None else row
        marks = list(self.marks.marks)
        if not 0 <= row < len(marks):
            return self._run(lambda: "select a mark to remove")
        mark = marks[row]

        def remove() -> str:
            self.marks.remove(mark)
            return f"removed the {mark_line(mark)}"

        return self._run(remove)

    def clear_marks(self) -> str:
        def clear() -> str:
            self.marks.clear()
            self._forget_rules()  # nothing they suggested (or warned of) stands
            return "the marks are cleared"

        return self._run(clear)

    def _marked(self, frame: int, what: str) -> str:
        return f"marked frame {frame} as {what}"

    def _list_height(self, rows: int) -> int:
        return self.fontMetrics().lineSpacing() * rows + 6 * rows + 8

    def suggest(self) -> str:
        """Lists the ranked rules (the best one chosen and previewed)."""
        def run() -> str:
            self._forget_rules()
            found = self.marks.suggest(limit=3 * RULES_LISTED)
            groups = group_neighbours(list(found))[:RULES_LISTED]
            self.rules = DoneRules([g.rule for g in groups], found.warnings, found.notes)
            data = self.marks.data_variables()
            for rank, group in enumerate(groups, 1):
                rule = group.rule
                mark = "\u26a0 " if rule.warnings else ""
                item = QListWidgetItem(f"{rank}. {mark}" + "  and  ".join(rule_terms(rule, data)) + group.suffix())
                item.setToolTip("\n".join([rule.describe() + group.suffix(), *rule.warnings]))
                self.rule_list.addItem(item)
            self.rule_list.setCurrentRow(0)
            said = "1 rule separates the examples" if len(self.rules) == 1 else f"{len(self.rules)} rules, {RANKING}"
            return "\n".join([*found.notes, said]) + "".join(f"\n\u26a0 {w}" for w in self.rules.warnings)

        return self._run(run, busy="Replaying the examples and the play before each game over to find a rule...")

    def cautions_for(self, rule: DoneRule) -> list[str]:
        """What to weigh before accepting ``rule``: the evidence's warnings and the rule's own."""
        return [*self.rules.warnings, *rule.warnings]

    def _rule_chosen(self, row: int) -> None:
        self.accept_button.setEnabled(0 <= row < len(self.rules))
        self._unconfirm()
        self.previews = []
        cautions = self.cautions_for(self.rules[row]) if 0 <= row < len(self.rules) else []
        self.cautions.setText("\n".join(f"\u26a0 {c}" for c in cautions))
        self.cautions.setVisible(bool(cautions))
        if not 0 <= row < len(self.rules):
            self.preview.setText("")
            return
        try:
            self.previews = self.marks.preview(self.rules[row])
        except (EmucoreError, OSError, ValueError, RuntimeError) as exc:
            self.preview.setText(f"no preview: {exc}")
            return
        self.preview.setText("\n".join(map(preview_line, self.previews)) or
                             "(no movie is attached to the regression: Tools > Attach a movie)")

    @property
    def chosen(self) -> DoneRule | None:
        row = self.rule_list.currentRow()
        return self.rules[row] if 0 <= row < len(self.rules) else None

    def accept(self) -> str:
        """Writes the chosen rule (new variables into data.json, the done into scenario.json).
        A rule with warnings is written on the second press: the first one asks to weigh them."""
        def run() -> str:
            rule = self.chosen
            if rule is None:
                raise ValueError("suggest a rule and choose one first")
            cautions = self.cautions_for(rule)
            if cautions and not self.confirming:
                self.confirming = True
                self.accept_button.setText("Accept anyway")
                return ("Before accepting, weigh: " + "; ".join(cautions) +
                        ". Press Accept anyway to write the rule, or add the evidence and Suggest again.")
            self._unconfirm()
            accepted = self.marks.accept(rule, doc=self.doc, watch=self.watch)
            return f"accepted {rule.describe()}: {accepted.describe()}"

        return self._run(run)

    def _unconfirm(self) -> None:
        self.confirming = False
        self.accept_button.setText("Accept")

    # ---- display ----

    def _run(self, action: Callable[[], Any], busy: str = "") -> str:
        """Runs a command; its notice or error is shown in the box and returned. ``busy`` is shown
        (with a busy cursor) while a long one runs."""
        if busy:
            self.message.setText(busy)
            self.message.setStyleSheet(OK_STYLE)
            self.message.setVisible(True)
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            QApplication.processEvents()
        try:
            text, error = str(action()), False
        except (EmucoreError, OSError, ValueError, RuntimeError) as exc:
            text, error = str(exc), True
        finally:
            if busy:
                QApplication.restoreOverrideCursor()
        self._show_counts()
        self.message.setText(text)
        warned = self.confirming or "\u26a0" in text
        self.message.setStyleSheet(ERROR_STYLE if error else WARN_STYLE if warned else OK_STYLE)
        self.message.setVisible(bool(text))
        return text

    def _show_marks(self) -> None:
        self.mark_list.clear()
        for mark in self.marks.marks:
            item = QListWidgetItem(mark_line(mark))
            item.setToolTip(mark_line(mark))
            picture = self.marks.picture(mark)
            if picture is not None:
                item.setIcon(QIcon(QPixmap.fromImage(qimage_from_rgb(picture)).scaled(
                    THUMB, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)))
            self.mark_list.addItem(item)
        self.mark_list.scrollToBottom()

    def _show_counts(self) -> None:
        self._show_marks()
        self.episode_list.refresh()
        marks = self.marks
        plays = sum(m.kind == "over" and bool(m.play) for m in marks.marks)
        self.counts.setText(f"alive marks: {marks.count('alive')}   game-over marks: {marks.count('over')} "
                            f"({plays} with the play before it)   episode movies: {len(marks.movies())}")


def mark_line(mark: Mark) -> str:
    """``game over mark at frame 900 (with the play before it)``."""
    return (f"{KIND_WORDS[mark.kind]} mark at frame {mark.frame}"
            + (" (with the play before it)" if mark.play else ""))


__all__ = ["DoneSuggestPanel", "mark_line", "preview_line"]
