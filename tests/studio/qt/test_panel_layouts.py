"""Boxes that keep their shape while their messages change (pytest-qt, offscreen)."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPushButton

from studio.model.commands import advance


def test_the_lives_tabs_compare_button_stays_in_place(qtbot, window):
    window.search_dock.show()
    window.search_dock.raise_()
    panel = window.search_tabs.labels
    window.search_tabs.setCurrentIndex(window.search_tabs.indexOf(panel.parentWidget().parentWidget()))
    compare = next(b for b in panel.findChildren(QPushButton) if b.text() == "Compare")
    qtbot.waitUntil(compare.isVisible, timeout=2000)

    def where() -> QPoint:
        return compare.mapTo(panel, QPoint(0, 0))

    first = where()
    for value, frames in ((3, 10), (2, 20), (1, 30)):
        panel.value.setValue(value)
        advance(window.workspace, frames)
        panel.label_now()
        assert where() == first, panel.message.text()
    panel.message.setText("a long message " * 30)  # wraps over several lines
    qtbot.wait(10)
    assert where() == first


def test_the_done_box_lists_marks_with_thumbnails_and_six_rules_without_scrolling(qtbot, window):
    from PySide6.QtCore import QRect

    window.resize(1280, 860)
    window.scenario_dock.show()
    window.scenario_dock.raise_()
    editor = window.scenario_editor
    editor.show_suggest()
    box = editor.done_suggest
    session = window.session
    for frames in (30, 60, 90):
        advance(window.workspace, frames)
        box.mark_alive()
    advance(window.workspace, 20)
    box.mark_over()
    assert box.mark_list.count() == 4
    assert box.mark_list.item(3).text().startswith("game over mark at frame ")
    assert not box.mark_list.item(0).icon().isNull()  # the screen of the moment
    box.mark_list.setCurrentRow(1)
    assert box.remove_mark().startswith("removed the alive mark at frame")
    assert box.mark_list.count() == 3 and len(box.marks.marks) == 3
    assert "rules" in box.suggest() or box.rules
    qtbot.waitUntil(lambda: box.rule_list.isVisible(), timeout=2000)
    qtbot.wait(20)
    row = box.rule_list.sizeHintForRow(0)
    assert box.rule_list.viewport().height() >= 6 * row
    window.apply_default_layout()
    qtbot.wait(50)
    area = box.parentWidget().parentWidget()  # the tab's scroll area: the sixth rule is in view, unscrolled
    sixth = box.rule_list.mapTo(area, box.rule_list.visualItemRect(box.rule_list.item(0)).topLeft())
    assert sixth.y() + 6 * row <= area.height(), (sixth.y(), row, area.height())
    widgets = [box.mark_list, box.rule_list, box.accept_button, box.preview]

    def rect(widget) -> QRect:
        return QRect(widget.mapTo(box, widget.rect().topLeft()), widget.size())

    shown = [w for w in widgets if w.isVisible()]
    for upper, lower in zip(shown, shown[1:]):
        assert rect(upper).bottom() < rect(lower).top(), (upper, lower)
    assert session is window.session


def test_export_offers_the_check_first_and_asks_before_exporting_past_a_problem(qtbot, window, tmp_path):
    import json

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from studio.qt.scenario.integration_check_dialog import offer_check_before_export

    asked: list[str] = []

    def answer(button: QMessageBox.StandardButton, then=None) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(30, lambda: answer(button, then))
            return
        asked.append(box.text())
        if then is not None:
            QTimer.singleShot(30, then)
        box.button(button).click()

    QTimer.singleShot(30, lambda: answer(QMessageBox.StandardButton.No))
    assert offer_check_before_export(window) is True  # no check wanted: export goes on
    folder = window.session.folder
    scenario = json.loads((folder / "scenario.json").read_text())
    scenario.setdefault("reward", {}).setdefault("variables", {})["score"] = {"reward": 10.0}
    (folder / "scenario.json").write_text(json.dumps(scenario))
    finder = window.search_tabs.from_screen
    score = window.session.emulator.memory
    for frames in (20, 30):
        window.session.set_buttons(0, 1)  # B adds one a frame
        advance(window.workspace, frames)
        window.session.set_buttons(0, 0)
        finder.shown.setText(str(score.read(0xFF0000, ">u4")))
        finder.shown.returnPressed.emit()
    index = next(i for i, c in enumerate(finder.results) if (c.address, c.type) == (0xFF0000, ">u4"))
    finder.as_reward.setChecked(False)
    if "score" in window.watch.variables:  # the demo's own: made again from the screen
        window.watch.remove("score")
    finder.make_variable(index, "score")
    QTimer.singleShot(30, lambda: answer(QMessageBox.StandardButton.Yes,
                                         lambda: answer(QMessageBox.StandardButton.No)))
    assert offer_check_before_export(window) is False  # a problem, and "Export anyway?" said no
    assert asked[-1].startswith("Problems found") and asked[-1].endswith("Export anyway?")
    assert window.check_dialog.isVisible() and not window.check_dialog.check.ok


def test_find_from_screen_shows_its_column_titles_whole_at_the_default_size(qtbot, window):
    """At the window's default size the candidate table's titles are not cut ("alue now", "own no"):
    each column is as wide as its title, and a narrow dock scrolls."""
    window.resize(1280, 860)
    window.search_dock.show()
    window.search_dock.raise_()
    finder = window.search_tabs.from_screen
    window.search_tabs.setCurrentIndex(window.search_tabs.indexOf(finder.parentWidget().parentWidget()))
    advance(window.workspace, 30)
    finder.shown.setText("0")
    finder.shown.returnPressed.emit()
    qtbot.waitUntil(finder.table.isVisible, timeout=2000)
    header = finder.table.horizontalHeader()
    metrics = header.fontMetrics()
    for column in range(finder.table.columnCount()):
        title = finder.table.horizontalHeaderItem(column).text()
        assert header.sectionSize(column) >= metrics.horizontalAdvance(title), title
