"""The lives wizard (the Search dock's Lives tab) through its real widgets (pytest-qt, offscreen).

Ground truth: the homebrew NES game's README: 3 lives, one lost every 300 play frames, ``lives``
at $13 (``|u1``, shown as ``LIVES d``) and the trap ``rest`` at $33 (``|u1``), which holds
lives - 1: 2, 1, 0. So the lives the screen shows (3, 2, 1) are ``rest`` + 1: what a game that
keeps lives - 1 and shows lives gives the wizard.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QComboBox, QDockWidget, QInputDialog, QPushButton, QSpinBox

from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import open_window

LIVES, REST = 0x13, 0x33
MOMENTS = ((100, "Life3"), (350, "Life2"), (650, "Life1"))  # frames: 3, 2 and 1 lives left


def push(qtbot, widget, title: str) -> None:
    """Clicks the wizard's button titled ``title`` with the mouse."""
    (found,) = [b for b in widget.findChildren(QPushButton) if b.text() == title]
    qtbot.mouseClick(found, Qt.MouseButton.LeftButton)


def type_value(qtbot, spin: QSpinBox, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))


def pick(qtbot, combo: QComboBox, text: str) -> None:
    """Opens the combo box's list and clicks ``text`` in it."""
    combo.showPopup()
    view = combo.view()
    index = view.model().index(combo.findText(text), 0)
    qtbot.waitUntil(view.isVisible, timeout=2000)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())


def rows(panel) -> list[tuple[str, str]]:
    """The Search tab's candidate rows: (address, type)."""
    model = panel.model
    return [(model.data(model.index(r, 0)), model.data(model.index(r, 1))) for r in range(model.rowCount())]


def test_label_a_saved_state_asks_for_the_state_then_its_value(qtbot, tmp_path):
    folder = make_bare_nes(tmp_path)
    window = open_window(qtbot, folder)
    session, dock = window.session, window.search_tabs
    wizard = dock.labels
    for frame, name in MOMENTS:
        session.advance(frame - session.frame)
        session.save_state(name)
    session.advance(900 - session.frame)  # the game over: the state now is not what is labelled
    dock.show_page(wizard)
    asked: list[str] = []

    def answer(state: str, value: int) -> None:
        """The two dialogs in turn: pick the state (keys in the list), then type its value."""
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        asked.append(dialog.labelText())
        combo = dialog.findChildren(QComboBox)
        if combo and combo[0].isVisible():  # the state list
            combo[0].setFocus()
            qtbot.keyClicks(combo[0], state)  # a closed list jumps to the item typed
            qtbot.keyClick(dialog, Qt.Key.Key_Return)
            QTimer.singleShot(50, lambda: answer(state, value))
            return
        spin = dialog.findChildren(QSpinBox)[0]
        type_value(qtbot, spin, value)
        qtbot.keyClick(spin, Qt.Key.Key_Return)

    for (_, name), lives in zip(MOMENTS, (3, 2, 1), strict=True):
        QTimer.singleShot(50, lambda name=name, lives=lives: answer(name, lives))
        push(qtbot, wizard, "Label a saved state...")
    assert asked == ["State:", "lives in Life3:", "State:", "lives in Life2:", "State:", "lives in Life1:"]
    assert [wizard.list.item(r).text() for r in range(wizard.list.count())] == [
        "lives = 3 at state Life3", "lives = 2 at state Life2", "lives = 1 at state Life1"]
    push(qtbot, wizard, "Compare")
    assert dock.current_page is dock.panel and dock.panel.book.current_name == "lives (equal)"
    assert ("0x13", "|u1") in rows(dock.panel)
    saved = json.loads((Path(session.states.workspace) / "state_labels" / "labels.json").read_text())
    assert [label["source"] for label in saved["labels"]] == ["Life3", "Life2", "Life1"]


def label_now(qtbot, window, moments: tuple[tuple[int, int], ...]) -> None:
    """Plays to each frame and labels it with the value typed in the wizard's box."""
    session, wizard = window.session, window.search_tabs.labels
    window.search_tabs.show_page(wizard)
    for frame, value in moments:
        session.advance(frame - session.frame)
        type_value(qtbot, wizard.value, value)
        push(qtbot, wizard, "Label now")


def test_labels_one_above_the_stored_value_are_said_and_their_address_offered(qtbot, tmp_path):
    window = open_window(qtbot, make_bare_nes(tmp_path))
    session, dock = window.session, window.search_tabs
    wizard = dock.labels
    label_now(qtbot, window, ((100, 3), (350, 2), (650, 1)))  # the lives the screen shows
    assert [session.emulator.memory.read(REST, "|u1")] == [0]  # rest at the last label: lives - 1
    push(qtbot, wizard, "Compare")
    said = wizard.message.text()
    # lives itself equals the labels; rest holds label - 1 in every state: both are offered
    assert said.startswith("3 candidates in 'lives (equal)'"), said
    assert "1 address holds label - 1 in every state (0x33 |u1)" in said
    assert "your labels look one above the stored value" in said and "'lives (label - 1)'" in said
    assert dock.current_page is dock.panel and dock.panel.message.text() == said  # said where the user looks
    assert dock.panel.book.current_name == "lives (equal)" and rows(dock.panel)[0] == ("0x13", "|u1")
    assert "lives (label + 1)" not in dock.panel.book  # nothing holds label + 1: no empty search
    shot(window, "lives-one-above")
    pick(qtbot, dock.panel.names, "lives (label - 1)")  # the search offered, from the list of searches
    assert dock.panel.book.current_name == "lives (label - 1)"
    assert rows(dock.panel)[0] == ("0x33", "|u1")


def test_labels_that_only_match_one_off_say_so_and_show_that_search(qtbot, tmp_path):
    """Labels of one more than lives in every state (a screen that shows lives + 1): no address
    equals them, and the one that holds label - 1 is lives."""
    window = open_window(qtbot, make_bare_nes(tmp_path))
    dock = window.search_tabs
    label_now(qtbot, window, ((100, 4), (350, 3), (650, 2)))
    push(qtbot, dock.labels, "Compare")
    said = dock.labels.message.text()
    assert said.startswith("No address equals the labels, but 1 address holds label - 1 in every state: your "
                           "labels look one above the stored value (the screen shows stored + 1). 0x13 |u1"), said
    assert dock.panel.book.current_name == "lives (label - 1)" and rows(dock.panel)[0] == ("0x13", "|u1")
    dock.panel.make_variable_from(dock.panel.model.index(0, 0), "lives")
    assert json.loads((window.session.folder / "data.json").read_text())["info"]["lives"] == {
        "address": LIVES, "type": "|u1"}


def shot(window, name: str) -> None:
    """Screenshots of the window with each of the two tabs at two sizes, when SHOTS names a folder."""
    folder = os.environ.get("SHOTS")
    if not folder:
        return
    dock = window.search_tabs
    holder = dock.parentWidget()
    while not isinstance(holder, QDockWidget):
        holder = holder.parentWidget()
    holder.raise_()
    for width, height in ((1024, 700), (1440, 900)):
        window.resize(width, height)
        for page, tab in ((dock.panel, "search"), (dock.labels, "wizard")):
            dock.show_page(page)
            QApplication.processEvents()
            window.grab().save(str(Path(folder) / f"{name}-{tab}-{width}.png"))
    dock.show_page(dock.panel)
