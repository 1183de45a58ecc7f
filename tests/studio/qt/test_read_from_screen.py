"""Find from screen's "Read it from the screen" in the window (pytest-qt, offscreen), on our
homebrew NES game (homebrew/nes/README.md: A adds 1 to the score a frame, B 10; the score at $20
``<u2``, its digits at $22 ``>n5``, drawn at frame box (56, 8, 40, 7), blinking; the top score under
it draws the same digits all through a first game, so the typed values fit two places)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.model.test_screen_reader import SCORE, SCORE_BOX, shown_in, steady
from tests.studio.qt.test_find_from_screen import hold, open_window


def type_value(finder, text: str) -> None:
    finder.shown.setText(text)
    finder.shown.returnPressed.emit()


def drag(view, box: tuple[int, int, int, int]) -> None:
    """A real mouse drag on the game view from the box's top-left to its bottom-right (frame pixels)."""
    rect = view.widget_rect(box)
    start, end = rect.topLeft(), rect.bottomRight()
    QTest.mousePress(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(view, (start + end) / 2)
    QTest.mouseMove(view, end)
    QTest.mouseRelease(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def answer_as_a_person(window, reader_box):
    """The digit dialog's answers: the button of the digit the question's frame draws."""
    def ask(dialog) -> bool:
        question = reader_box.asking
        digit = shown_in(window.session, question.state)[question.cell]
        assert dialog.picture.pixmap().height() >= 7 * 10  # zoomed, each game pixel a square
        dialog.show()
        QTest.mouseClick(dialog.digits[digit], Qt.MouseButton.LeftButton)
        return not dialog.isVisible() and dialog.answer == digit
    reader_box.ask = ask


def test_typed_values_ask_for_a_box_dragged_on_the_game_then_it_reads_learns_and_finds_the_score(qtbot, tmp_path):
    window = open_window(qtbot, make_bare_nes(tmp_path))
    session, finder, view = window.session, window.search_tabs.from_screen, window.view
    reader_box = finder.reader_box
    window.search_tabs.find_from_screen()
    assert reader_box.reads.text() == "Screen reads: no reader yet"
    for button, frames in (("A", 20), ("B", 13), ("A", 7)):
        hold(session, button, frames)
        type_value(finder, steady(session))
    window._frame_changed()
    QTest.mouseClick(reader_box.locate_button, Qt.MouseButton.LeftButton)
    assert "2 places draw those digits alike" in reader_box.message.text() and "drag a box" in reader_box.message.text()
    assert window.workspace.screen_reader.reader is None

    QTest.mouseClick(reader_box.box_button, Qt.MouseButton.LeftButton)
    assert view.dragging_box
    drag(view, (54, 6, 44, 11))  # a few pixels loose, as a hand drags
    reader = window.workspace.screen_reader.reader
    assert reader is not None and reader.box == SCORE_BOX, reader_box.message.text()
    assert not view.dragging_box and view.marked == SCORE_BOX
    assert reader_box.message.text().startswith("Reads 5 digits at x 56, y 8")
    assert reader_box.reads.text() == f"Screen reads: {session.emulator.memory.read(SCORE, '<u2'):05d}"

    hold(session, "B", 300)
    hold(session, "A", 200)
    answer_as_a_person(window, reader_box)
    assert reader_box.teach() >= 1 and reader.glyphs == "0123456789", reader_box.message.text()
    assert reader_box.message.text().startswith("Taught ")
    steady(session)
    qtbot.waitUntil(lambda: reader_box.reads.text() ==
                    f"Screen reads: {session.emulator.memory.read(SCORE, '<u2'):05d}", timeout=2000)

    QTest.mouseClick(reader_box.solve_button, Qt.MouseButton.LeftButton)
    best = finder.results[0]
    assert (best.address, best.type) in {(SCORE, "<u2"), (0x22, ">n5")}, [c.describe() for c in finder.results[:3]]
    assert finder.table.rowCount() == len(finder.results)
    text = finder.message.text()
    assert text.startswith(f"Read on the whole play: read {len(session.rewind):,} frames"), text

    name = finder.make_variable(0, "score")
    panel = window.variables_panel
    panel.select(name)
    assert panel.screen_series.curve is not None  # "on screen" beside the variable found with it
    hold(session, "A", 40)
    panel.refresh()
    frames, values = panel.screen_series.curve.getData()
    assert len(frames) >= 40 and values[-2] == session.emulator.memory.read(SCORE, "<u2") - 2


def test_a_cancelled_drag_and_a_click_make_no_reader(qtbot, tmp_path):
    window = open_window(qtbot, make_bare_nes(tmp_path))
    reader_box, view = window.search_tabs.from_screen.reader_box, window.view
    QTest.mouseClick(reader_box.box_button, Qt.MouseButton.LeftButton)
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.dragging_box and reader_box.message.text() == "No box dragged."
    QTest.mouseClick(reader_box.box_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(5, 5))
    assert window.workspace.screen_reader.reader is None and not view.dragging_box
