"""The Search dock's "From screen" tab: type what the screen shows, pick the variable.

Each number typed (Enter) keeps the state of that moment as a checkpoint and gives the focus
back to the game. From two checkpoints on, the ranked candidates of
:func:`emucore.assist.solve_value` are listed with their type, scale, bias and live value; "Make
variable" adds the selected one (name proposed: ``score``), as a reward too when asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QListWidget,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from emucore.assist import ValueCandidates
from emucore.errors import EmucoreError
from studio.model.events import Connections
from studio.model.scenario.scenario_doc import ScenarioDocument
from studio.model.search import provisional
from studio.model.search.screen_values import relation
from studio.model.workspace import Workspace
from studio.qt.forms import box, button, line, message_label, row
from studio.qt.search.screen_reader_box import ReaderBox
from studio.qt.throttle import Throttle

COLUMNS = ("Address", "Type", "Scale", "Bias", "In play", "Value now", "Shown now")
IN_PLAY, VALUE_NOW, SHOWN_NOW = 4, 5, 6
VOLATILE_COLOR = "#9e9e9e"
LIVE_HZ = 10.0


def sentence(text: str) -> str:
    """``text`` as a sentence: capitalised, with a full stop."""
    return text[:1].upper() + text[1:] + "."


class ScreenFinderPanel(QWidget):
    """Find from screen for the open game.

    Args:
        workspace: The open game: its ``screen_values`` (the checkpoints), the ``watch`` a candidate is
            added to as a variable, and the ``scenario`` a reward term is added to.
        parent: The Qt parent.

    Signals:
        done_typing(): a number was entered; the window gives the focus back to the game.
    """

    done_typing = Signal()

    def __init__(self, workspace: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self._throttle = Throttle(self, LIVE_HZ, self.refresh_values)
        self._connections = Connections()
        self._take(workspace)
        self.results: ValueCandidates = ValueCandidates()
        self.settled: list[str] = []  # what the last checkpoint did to provisional variables
        self.shown = line("the number on screen, e.g. 000120",
                          "Type the number the screen shows now and press Enter: the moment is kept as a "
                          "checkpoint.\nType the digits as drawn (leading zeros too): they tell the width.")
        self.shown.returnPressed.connect(self.enter)
        self.checkpoints = QListWidget()
        self.checkpoints.setToolTip("The moments kept, with what the screen showed")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()  # each column as wide as its title and cells: no title is cut
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # (a narrow dock scrolls instead)
        header.setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda index: self.make_variable(index.row()))
        self.as_reward = QCheckBox("and reward its increase")
        self.as_reward.setChecked(True)
        self.as_reward.setToolTip("Also add a reward term (delta) on the new variable, with the screen's scale "
                                  "as the multiplier")
        self.message = message_label()
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        #: "Read it from the screen": the reader, its live read, its digits and the whole-play solve.
        self.reader_box = ReaderBox(workspace, self.shown.text, self.message)
        self.reader_box.solved.connect(self.show_solved)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(box(self.checkpoints, row(
            button("Remove", "Forget the selected checkpoint", self.remove_selected),
            button("Clear", "Forget every checkpoint", self.clear),
        )))
        splitter.addWidget(box(self.table, row(
            (self.as_reward, 1),
            button("Make variable...", "Add the selected candidate to data.json", lambda: self.make_variable()),
        )))
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([100, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row(QLabel("Screen shows"), (self.shown, 1),
                             button("Add", "Keep this moment with the number typed", self.enter)))
        layout.addWidget(self.message)
        layout.addWidget(self.reader_box)
        layout.addWidget(splitter, 1)
        self.refresh()

    def _take(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.session, self.watch, self.finder = workspace.session, workspace.watch, workspace.screen_values
        self._connections.connect(self.session.events.frame, self._frame)

    def bind(self, workspace: Workspace) -> None:
        """Finds in the workspace's game (after the window opened another one)."""
        self._take(workspace)
        self.reader_box.bind(workspace)
        self.settled = []
        self.shown.clear()
        self.refresh()

    def unbind(self) -> None:
        """Stops following the game (before it closes or another opens)."""
        self._connections.disconnect_all()
        self._throttle.stop()
        self.reader_box.unbind()

    # ---- commands ----

    def _say(self, text: str) -> None:
        self.message.setText(text)

    def _guard(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except (ValueError, IndexError, EmucoreError) as exc:
            self._say(str(exc))
            return None

    def focus_field(self) -> None:
        """Puts the cursor in the number field (the window's shortcut)."""
        self.shown.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.shown.selectAll()

    def enter(self) -> None:
        """Keeps the moment now with the number typed, then lists the candidates."""
        checkpoint = self._guard(lambda: self.finder.add(self.shown.text()))
        if checkpoint is None:
            return
        self.shown.clear()
        self.refresh()
        self.settled = self._guard(lambda: provisional.settle(self.results, self.watch, self._scenario(),
                                                                         self.finder.steps())) or []
        if self.settled:
            self._say(self.message.text() + "\n" + "\n".join(map(sentence, self.settled)))
        self.done_typing.emit()

    def _scenario(self) -> ScenarioDocument:
        return self.workspace.scenario

    def remove_selected(self) -> None:
        row_index = self.checkpoints.currentRow()
        if row_index >= 0:
            self._guard(lambda: self.finder.remove(row_index))
            self.refresh()

    def clear(self) -> None:
        self.finder.clear()
        self.refresh()

    def refresh(self) -> None:
        """Lists the checkpoints and the candidates they give."""
        self.checkpoints.clear()
        self.checkpoints.addItems(self.finder.steps())
        count = len(self.finder.checkpoints)
        self.results = (self._guard(self.finder.candidates) or ValueCandidates()) if count >= 2 else ValueCandidates()
        self._fill()
        if count < 2:
            self._say(f"{count} checkpoint{'s' if count != 1 else ''}: play until the number changes, "
                      "then type it again (two or more are needed).")
        elif not self.results:
            self._say("Nothing in memory reads those numbers at every checkpoint: check the numbers typed "
                      "(remove a wrong one), or type the digits exactly as drawn.")
        else:
            best = self.results[0]
            text = f"{len(self.results)} candidates; the best: {best.describe()}."
            alike = self.finder.same_reading(self.results, best)
            if alike:
                widths = ", ".join(f"{c.type} at 0x{c.address:X}" for c in alike[:3])
                text += (f"\n{widths} read{'s' if len(alike) == 1 else ''} the same so far: the values have not needed "
                         "the extra bytes yet. Type the number again once it is larger, or choose the width the game "
                         "is likely to use (a score is seldom one byte).")
            text += self._play_words()  # one line per finding: they read faster than a paragraph
            for ambiguity in self.results.ambiguities[:2]:
                text += "\n" + sentence(provisional.explain(ambiguity))
            if self.results.ambiguities:
                text += "\nA variable made now is provisional: the next checkpoint re-solves it."
            self._say(text)

    def show_solved(self, results: ValueCandidates, line: str) -> None:
        """Lists the candidates found on the number read over the whole play."""
        self.results = results
        self._fill()
        if not results:
            self._say(f"{line}.\nNothing in memory holds the number read at every change: teach the digits it "
                      "has not seen, or play more.")
            return
        self._say(f"{line}.\n{len(results)} candidates; the best: {results[0].describe()}.")

    def _play_words(self) -> str:
        played = self.results.played_frames
        if not played:
            return "\nNo play to check them on yet (the rewind history is empty)."
        volatile = sum(c.steady is False for c in self.results)
        return (f"\nChecked on {played} frames of play" + (f": {volatile} volatile (greyed, ranked last)."
                                                          if volatile else ": all steady."))

    def _fill(self) -> None:
        self.table.setRowCount(len(self.results))
        for index, candidate in enumerate(self.results):
            in_play = {None: "", True: "steady", False: "volatile"}[candidate.steady]
            cells = (f"0x{candidate.address:X}", candidate.type, str(candidate.scale), f"{candidate.bias:+d}",
                     in_play, "", "")
            tip = "\n".join([candidate.describe(), *([relation(candidate).capitalize()] if relation(candidate) else []),
                             *candidate.notes])
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if candidate.steady is False:
                    item.setForeground(QColor(VOLATILE_COLOR))
                self.table.setItem(index, column, item)
        self.refresh_values()
        if self.results:
            self.table.selectRow(0)

    def _frame(self) -> None:
        if self.results:
            self._throttle.request()

    def refresh_values(self) -> None:
        """The candidates' values now, and what the screen should show from each (10 times a second at most)."""
        self._throttle.mark()
        memory = self.session.emulator.memory
        for index, candidate in enumerate(self.results):
            try:
                now: int | None = memory.read(candidate.address, candidate.type)
            except (EmucoreError, IndexError, ValueError):
                now = None
            for column, value in ((VALUE_NOW, now), (SHOWN_NOW, None if now is None else
                                                     now * candidate.scale + candidate.bias)):
                item = self.table.item(index, column)
                if item is not None:
                    item.setText("" if value is None else str(value))

    def make_variable(self, index: int | None = None, name: str | None = None) -> str | None:
        """Adds a candidate (default: the selected one) as a variable; says what was done."""
        index = self.table.currentRow() if index is None else index
        if not 0 <= index < len(self.results):
            self._say("select a candidate first")
            return None
        candidate = self.results[index]
        if name is None:
            proposed = self.watch.unique_name("score")
            name, ok = QInputDialog.getText(self, "Make variable",
                                            f"Name for {candidate.type} at 0x{candidate.address:X}:", text=proposed)
            if not ok or not name.strip():
                return None
        scenario = self._scenario()
        as_reward = self.as_reward.isChecked() and scenario is not None
        said = self._guard(lambda: self.finder.make_variable(candidate, name, self.watch, scenario, as_reward,
                                                             self.results.ambiguities))
        if said is None:
            return None
        self._say(sentence(said))
        return name.strip()
