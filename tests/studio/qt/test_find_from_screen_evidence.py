"""Find from screen on a person's approximate evidence (pytest-qt, offscreen), on the NES
homebrew game's traps (homebrew/nes/README.md): a top score at $08 that copies the score's
digits at $22 a frame later, a score whose digits blink (a value typed from the screen can be a
few frames stale), and a bonus kept as a little-endian binary count at $30 that a big-endian
BCD read over $2F-$30 matches below 1,000.
"""

from __future__ import annotations

import pytest

from tests.homebrew.test_homebrew_traps import cell
from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import hold, open_window
from tests.studio.qt.test_find_from_screen_play import type_bonus_below_1000, type_value

SCORE, BONUS, TOP = 0x20, 0x30, 0x08
SCORE_FAMILY = range(0x20, 0x27)


@pytest.fixture
def bare_nes(tmp_path):
    return make_bare_nes(tmp_path)


def score_now(session) -> str:
    return f"{session.emulator.memory.read(SCORE, '<u2'):05d}"


def test_two_copies_of_the_score_are_named_and_the_one_that_changes_first_is_first(qtbot, bare_nes):
    window = open_window(qtbot, bare_nes)
    session, finder = window.session, window.search_tabs.from_screen
    hold(session, None, 20)
    for button, frames in (("B", 3), ("A", 7), ("B", 5), ("A", 3)):
        hold(session, button, frames)
        hold(session, None, 20)  # standing still: the top score has caught up
        assert session.emulator.memory.read(TOP, ">n5") == session.emulator.memory.read(SCORE, "<u2")
        type_value(finder, score_now(session))
    results = finder.results
    assert results[0].address in SCORE_FAMILY
    text = finder.message.text()
    assert "Two copies of the value, at 0x22 and 0x8" in text, text
    assert "follows it 1 frame later" in text and "a new game after a game over" in text
    row = next(i for i, c in enumerate(results) if (c.address, c.type) == (TOP, ">n5"))
    assert row > 0 and "follows it 1 frame later" in finder.table.item(row, 0).toolTip()


def blank_score(session) -> bool:
    screen = session.emulator.get_screen()
    return not any(any(cell(screen, 8 + i, 2)) for i in range(5))


def test_a_stale_value_typed_from_a_blinking_score_is_read_where_the_play_held_it(qtbot, bare_nes):
    window = open_window(qtbot, bare_nes)
    session, finder = window.session, window.search_tabs.from_screen
    hold(session, None, 20)
    for button, frames in (("B", 3), ("A", 7)):
        hold(session, button, frames)
        hold(session, None, 20)
        type_value(finder, score_now(session))
    # the score rises a point every 3 frames; paused while the digits are blank, the person
    # types the last value drawn (the rewind keeps a state every 2 frames: each value is in it)
    last_drawn, stale, frame = None, 0, 0
    press = 1 << session.system.buttons.index("A")
    while stale < 4 or last_drawn is None:
        session.set_buttons(0, press if frame % 3 == 0 else 0)
        session.advance(1)
        frame += 1
        if blank_score(session):
            stale += 1
        else:
            stale = 0
            previous = session.emulator.memory.read(SCORE, "<u2") - (frame % 3 == 1)  # the picture lags a frame
            last_drawn = previous
    session.set_buttons(0, 0)
    now = session.emulator.memory.read(SCORE, "<u2")
    assert now > last_drawn  # the screen was behind memory when the value was typed
    type_value(finder, f"{last_drawn:05d}")
    hold(session, "B", 4)
    hold(session, None, 20)
    type_value(finder, score_now(session))
    best = finder.results[0]
    assert best.address in SCORE_FAMILY and best.offsets[:2] == (0, 0) and best.offsets[3] == 0
    assert -10 <= best.offsets[2] < 0
    assert "1 checkpoint read a few frames off" in finder.message.text()
    frames = -best.offsets[2]
    assert f"reads {frames} frame{'s' * (frames != 1)} before it was taken" in finder.table.item(0, 0).toolTip()


def test_the_byte_order_pair_is_named_with_the_value_that_separates_it(qtbot, bare_nes):
    window = open_window(qtbot, bare_nes)
    finder = window.search_tabs.from_screen
    type_bonus_below_1000(window)
    text = finder.message.text()
    assert "Can't yet tell the byte order:" in text, text
    assert "big-endian (>d2 at 0x2f)" in text and "little-endian (<u2 at 0x30)" in text
    assert "least significant byte, 0x30" in text and "once it reaches 1,000" in text
