"""Find from screen's "Read it from the screen" part: make the reader, see what it reads, teach it
the digits it has not seen, and find the variable on the whole play it reads.

Behaviour lives in :class:`studio.model.search.screen_reader.ScreenReader`; this box asks the window
for a dragged box on the game (``box_wanted``; the answer comes back to :meth:`ReaderBox.box_dragged`)
and gives the whole-play candidates to the panel's table (``solved``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QApplication, QGroupBox, QLabel, QVBoxLayout, QWidget

from emucore.assist import ValueCandidates
from emucore.errors import EmucoreError
from studio.model.events import Connections
from studio.model.search.screen_reader import ScreenReader, ScreenReaderError
from studio.model.workspace import Workspace
from studio.qt.forms import button, message_label, row
from studio.qt.search.screen_reader_digits import NOT_A_DIGIT, DigitDialog
from studio.qt.throttle import Throttle

LIVE_HZ = 10.0


class ReaderBox(QGroupBox):
    """The reader of the open game's number on screen.

    Args:
        workspace: The open game: its ``screen_reader`` and ``screen_values`` (the typed checkpoints).
        typed: The text of the panel's number field now (a value typed but not yet added).
        message: Where to say what was done (the panel's message line); a line of its own when None.
        parent: The Qt parent.

    Signals:
        box_wanted(): the person asked to drag a box on the game (the window starts the drag).
        solved(object, str): the whole-play candidates (ValueCandidates) and a line on what was read.
        marked(object): the box the reader reads (frame pixels), to show on the game for a moment.
    """

    box_wanted = Signal()
    solved = Signal(object, str)
    marked = Signal(object)

    def __init__(self, workspace: Workspace, typed: Callable[[], str] = lambda: "", message: QLabel | None = None,
                 parent: QWidget | None = None):
        super().__init__("Read it from the screen", parent)
        self.typed = typed
        self.ask: Callable[[DigitDialog], bool] = lambda dialog: dialog.exec() == DigitDialog.DialogCode.Accepted
        self.asking: Any = None  # the question the digit dialog shows now
        self._connections = Connections()
        self._throttle = Throttle(self, LIVE_HZ, self.refresh_read)
        self.reads = QLabel()
        self.reads.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reads.setToolTip("What the reader reads on the frame shown now (10 times a second at most)")
        self.message = message if message is not None else message_label()
        self.locate_button = button("Read it", "Find where the number typed is drawn: from the checkpoints "
                                    "(and the number in the field, on the picture now)", self.locate)
        self.box_button = button("Drag a box...", "Drag a box around the number on the game picture (type the "
                                 "number it shows now first)", self.want_box)
        self.teach_button = button("Teach digits...", "Ask \"which digit is this?\" once for each shape the play "
                                   "in the rewind history draws that the reader has not learned", self.teach)
        self.solve_button = button("Find on the whole play", "Rank the variables on every change of the number "
                                   "read over the rewind history (the typed checkpoints too)", self.solve)
        self.forget_button = button("Forget", "Drop the reader", self.forget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(row((self.reads, 1), self.locate_button, self.box_button))
        layout.addLayout(row(self.teach_button, (self.solve_button, 1), self.forget_button))
        if message is None:
            layout.addWidget(self.message)
        self.bind(workspace)

    # ---- the game ----

    def bind(self, workspace: Workspace) -> None:
        """Follows the workspace's game (after the window opened another one)."""
        self._connections.disconnect_all()
        self.reader_model: ScreenReader = workspace.screen_reader
        self.finder = workspace.screen_values
        self.session = workspace.session
        self._connections.connect(self.session.events.frame, self._throttle.request)
        self._connections.connect(self.reader_model.events.changed, self.refresh)
        self.message.clear()
        self.refresh()

    def unbind(self) -> None:
        self._connections.disconnect_all()
        self._throttle.stop()

    def refresh(self) -> None:
        """The buttons the reader allows, and the read now."""
        has = self.reader_model.reader is not None
        for made in (self.teach_button, self.solve_button, self.forget_button):
            made.setEnabled(has)
        self.refresh_read()

    def refresh_read(self) -> None:
        self._throttle.mark()
        reader = self.reader_model.reader
        if reader is None:
            self.reads.setText("Screen reads: no reader yet")
            self.reads.setToolTip("Type the number at a few moments (Add), then Read it; or type it once and "
                                  "drag a box around it")
            return
        try:
            read = self.reader_model.read_now()
        except ValueError as exc:  # a frame of another size (the game changed its resolution)
            read, reader_note = None, str(exc)
        else:
            reader_note = ""
        self.reads.setText(f"Screen reads: {read}" if read is not None else "Screen reads: not readable")
        self.reads.setToolTip(reader_note or f"The {reader.cells} digits at {reader.box} (x, y, width, height); "
                              f"digits learned: {reader.glyphs}")

    def _say(self, text: str) -> None:
        self.message.setText(text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))

    def _run(self, action: Callable[[], Any], busy: str = "") -> Any:
        if busy:
            self.message.setText(busy)
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            QApplication.processEvents()
        try:
            return action()
        except ScreenReaderError as exc:
            self._say(str(exc))
            if exc.boxes:
                self.box_button.setFocus()
            return None
        except (ValueError, IndexError, EmucoreError) as exc:
            self._say(str(exc))
            return None
        finally:
            if busy:
                QApplication.restoreOverrideCursor()

    # ---- commands ----

    def locate(self) -> str | None:
        """Makes the reader from the typed checkpoints (and the number in the field, on the picture now)."""
        said = self._run(lambda: self.reader_model.locate(self.typed(), self.finder.checkpoints))
        if said is not None:
            self._say(said + self._unseen_hint())
            self.marked.emit(self.reader_model.reader.box if self.reader_model.reader else None)
        return said

    def want_box(self) -> None:
        self._say("Drag a box around the number on the game picture (Esc: cancel)")
        self.box_wanted.emit()

    def box_dragged(self, box: Any) -> str | None:
        """Makes the reader in the dragged ``box`` (frame pixels), or says the drag was cancelled."""
        if box is None:
            self._say("no box dragged")
            return None
        said = self._run(lambda: self.reader_model.learn(box, self.typed(), self.finder.checkpoints))
        if said is not None:
            self._say(said + self._unseen_hint())
            self.marked.emit(self.reader_model.reader.box if self.reader_model.reader else None)
        return said

    def _unseen_hint(self) -> str:
        reader = self.reader_model.reader
        missing = "".join(d for d in "0123456789" if reader is not None and d not in reader.glyphs)
        return f". Not seen yet: {', '.join(missing)} (Teach digits asks about them)" if missing else ""

    def teach(self) -> int:
        """Asks "which digit is this?" for each unseen shape of the rewind history; how many were taught."""
        questions = self._run(self.reader_model.questions, "Reading the rewind history...") or []
        if not questions:
            if self.reader_model.reader is not None:
                self._say("every shape the rewind history draws in the number is learned")
            return 0
        taught = skipped = 0
        for index, question in enumerate(questions):
            reader = self.reader_model.reader
            assert reader is not None
            x, y, width, height = reader.box
            top, left = max(0, y - 2), max(0, x - reader.pitch)  # the number with a margin round it
            context = question.picture[top:y + height + 2, left:x + width + reader.pitch]
            dialog = DigitDialog(question.pixels, context,
                                 f"Shape {index + 1} of {len(questions)}, in digit {question.cell + 1} of "
                                 f"{reader.cells}, drawn on {question.count} frame{'s' * (question.count != 1)} "
                                 "of the rewind history. Which digit is it?", self,
                                 (x - left + question.cell * reader.pitch, y - top, reader.pitch, height))
            self.asking = question
            if not self.ask(dialog) or dialog.answer is None:
                break
            if dialog.answer == NOT_A_DIGIT:
                skipped += 1
                continue
            answer: str = dialog.answer
            taught += self._run(lambda: self._taught(question, answer)) or 0  # noqa: B023 (run at once)
        self._say(f"taught {taught} shape{'s' * (taught != 1)}" + (f", {skipped} not a digit" if skipped else "")
                  + f"; digits learned: {self.reader_model.reader.glyphs if self.reader_model.reader else ''}")
        return taught

    def _taught(self, question: Any, digit: str) -> int:
        self.reader_model.teach(question, digit)
        return 1

    def solve(self) -> ValueCandidates | None:
        """Ranks the variables on the number read over the whole rewind history."""
        results = self._run(lambda: self.reader_model.solve(self.finder.checkpoints), "Reading the rewind history...")
        if results is None:
            return None
        read = results.screen_read.describe() if results.screen_read is not None else ""
        line = f"Read on the whole play: {read}" if read else "Read on the whole play"
        self._say(line)
        self.solved.emit(results, line)
        return results

    def forget(self) -> None:
        self.reader_model.forget()
        self._say("reader forgotten")


__all__ = ["ReaderBox"]
