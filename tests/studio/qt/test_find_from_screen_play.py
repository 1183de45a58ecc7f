"""Find from screen checked on the play the studio holds (pytest-qt, offscreen), on the traps of
our homebrew NES game (homebrew/nes/README.md, "Traps for the assisted tools"): a HUD buffer at
$40 that holds the score in BCD 3 frames of 4, and a bonus kept at $30 as a binary count of
hundreds (``<u2``) drawn as ``BONUS dddd00``.
"""

from __future__ import annotations

import json

import pytest

from emucore.datatypes import parse_type
from studio.qt.search.screen_values_panel import IN_PLAY
from tests.studio.model.test_find_from_screen import make_bare_nes
from tests.studio.qt.test_find_from_screen import hold, open_window

FRAME, SCORE, BONUS, HUD_BUF = 0x10, 0x20, 0x30, 0x40


@pytest.fixture
def bare_nes(tmp_path):
    return make_bare_nes(tmp_path)


def type_value(finder, text: str) -> None:
    finder.shown.setText(text)
    finder.shown.returnPressed.emit()


def to_score_moment(session) -> None:
    """A frame whose HUD buffer holds the score, as a user's pause may land on."""
    while session.emulator.memory.read(FRAME, "<u2") & 3 == 0:
        hold(session, None, 1)


def test_the_volatile_hud_buffer_is_greyed_and_ranked_after_the_steady_score(qtbot, bare_nes):
    window = open_window(qtbot, bare_nes)
    session, finder = window.session, window.search_tabs.from_screen
    hold(session, None, 20)
    for button, frames in (("A", 12), ("B", 30), ("A", 20), ("A", 41)):
        hold(session, button, frames)
        to_score_moment(session)
        type_value(finder, f"{session.emulator.memory.read(SCORE, '<u2'):05d}")
    results = finder.results
    assert results and results[0].steady is True and results[0].address != HUD_BUF
    row = next(i for i, c in enumerate(results) if c.address == HUD_BUF and c.type == ">d3")
    assert finder.table.item(row, IN_PLAY).text() == "volatile" and finder.table.item(0, IN_PLAY).text() == "steady"
    assert "Checked on" in finder.message.text() and "volatile (greyed, ranked last)" in finder.message.text()
    lines = finder.message.text().splitlines()  # one line per finding, not one dense paragraph
    assert lines[0].startswith(f"{len(finder.results)} candidates; the best: ") and lines[0].endswith(".")
    assert any(line.startswith("Checked on ") for line in lines[1:])
    tip = finder.table.item(row, 0).toolTip()
    assert "steadiest" in tip or "straight back" in tip


def type_bonus_below_1000(window) -> None:
    """Holds SELECT a few times and types the bonus as drawn: counts 3, 5, 7, 8, shown 000300 .. 000800."""
    session, finder = window.session, window.search_tabs.from_screen
    hold(session, None, 20)
    for frames in (3, 2, 2, 1):
        hold(session, "SELECT", frames)
        hold(session, None, 2)
        type_value(finder, f"{100 * session.emulator.memory.read(BONUS, '<u2'):06d}")


def test_bcd_or_hundreds_is_said_the_variable_is_provisional_and_the_next_checkpoint_settles_it(qtbot, bare_nes):
    window = open_window(qtbot, bare_nes)
    session, finder = window.session, window.search_tabs.from_screen
    type_bonus_below_1000(window)
    text = finder.message.text()
    assert "Can't yet tell" in text and "once it reaches 1,000" in text and "provisional" in text
    assert finder.results.ambiguities
    best = finder.results[0]
    assert best.address <= BONUS < best.address + parse_type(best.type).width  # BCD over $2F-$30 or the count at $30
    name = finder.make_variable(0, "bonus")
    assert name == "bonus" and "provisional" in finder.message.text()
    warning = window.watch.type_warning("bonus")
    assert warning is not None and warning.startswith("provisional: can't yet tell")
    assert "Provisional:" in window.watch.provenance.tooltip("bonus")

    hold(session, "SELECT", 8)  # the bonus counts 16: 001600 separates the readings
    hold(session, None, 2)
    type_value(finder, f"{100 * session.emulator.memory.read(BONUS, '<u2'):06d}")
    assert any(line.startswith("bonus is ") for line in finder.settled), (finder.settled, finder.message.text())
    data = json.loads((bare_nes / "data.json").read_text())["info"]
    assert data["bonus"] == {"address": BONUS, "type": "<u2"}  # the 6502 keeps it little-endian, in binary
    said = " ".join(finder.settled)
    assert "BCD" not in said  # BCD is ruled out; one byte or two stays open until 25,600
    warning = window.watch.type_warning("bonus") or ""
    assert "BCD" not in warning and ("25,600" in warning or not warning)
    reward = json.loads((bare_nes / "scenario.json").read_text())["reward"]["variables"]["bonus"]
    assert reward["reward"] == 100.0
