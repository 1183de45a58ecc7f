"""The Done tab lists the episodes Suggest uses, with their end frames, and trims, restores and
removes them through its buttons; Suggest says where it moved a late mark's episode.

Ground truth: homebrew/nes/README.md (the game is over at the 900th play frame, when ``game_over``
at $12 becomes 1; nothing but START answers after it).
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from studio.model.scenario.done_rule import group_neighbours
from tests.studio.model.test_done_late_marks import play_game
from tests.studio.model.test_done_marks import nes  # noqa: F401  (the fixture)
from tests.studio.qt.test_done_tab import open_window


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.mark.slow  # long replays
def test_late_marks_are_moved_listed_trimmed_restored_and_removed_through_the_done_tab(qtbot, nes):  # noqa: F811
    window = open_window(qtbot, nes)
    window.resize(1280, 860)
    window.show()
    window.scenario_dock.raise_()
    window.scenario_editor.show_suggest()
    box, session = window.scenario_editor.done_suggest, window.session
    session.movies.start_episode_recording(session.states.workspace / "episodes")
    rng = np.random.default_rng(5)
    for late in (264, 90):  # marked on seeing GAME OVER
        play_game(session, late, rng)
        window.menu_actions["mark_over"].trigger()
    session.movies.stop_recording()
    episodes = box.episode_list
    assert episodes.listing.count() == 2 and episodes.title.text().endswith(": 2")
    lengths = [e.frames for e in episodes.rows]
    qtbot.waitExposed(window)
    qtbot.wait(50)  # laid out

    def where(widget) -> tuple[int, int]:
        at = widget.mapTo(window, widget.rect().topLeft())
        return at.x(), at.y()

    suggest_at, accept_at = where(box.buttons["suggest"]), where(box.accept_button)
    click(qtbot, box.buttons["suggest"])
    qtbot.wait(50)
    said = box.message.text()
    assert "the game over began 264 frames before your mark: ended the episode there" in said
    assert "the game over began 90 frames before your mark" in said
    assert box.rules and {t.address for t in box.rules[0].tests} == {0x12}
    assert (where(box.buttons["suggest"]), where(box.accept_button)) == (suggest_at, accept_at)  # nothing moved
    lines = [episodes.listing.item(k).text() for k in range(2)]
    assert lines[0].startswith(f"ends at frame {lengths[0] - 265:,}, 264 frames before your mark (found by Suggest): ")
    # Trim the second one 10 frames earlier by hand, then Restore it, then Remove it
    episodes.listing.setCurrentRow(1)
    end = episodes.end.value()
    assert end == lengths[1] - 91
    episodes.end.setValue(end - 10)
    click(qtbot, episodes.buttons["trim"])
    assert "now ends at frame" in box.message.text() and "10 frames cut" in box.message.text()
    assert "100 frames before your mark (trimmed by you): " in episodes.listing.item(1).text()
    click(qtbot, episodes.buttons["restore"])
    assert episodes.listing.item(1).text().startswith(f"ends at frame {lengths[1] - 1:,}: ")
    click(qtbot, episodes.buttons["remove"])
    assert episodes.listing.count() == 1 and "left out of the examples" in box.message.text()
    window.grab().save(str(nes.parent / "done-episodes.png"))
    # Clear marks: nothing the old marks suggested or warned of stays
    click(qtbot, box.buttons["clear"])
    assert box.rule_list.count() == 0 and box.cautions.isHidden() and not box.accept_button.isEnabled()


def test_suggest_says_what_an_empty_episode_cannot_show(qtbot, nes):  # noqa: F811
    """A game over marked right after a restart (Ctrl+R) while recording: its episode has no play
    before the mark; the box says so in the integrator's words, not the engine's."""
    window = open_window(qtbot, nes)
    box, session = window.scenario_editor.done_suggest, window.session
    session.movies.start_episode_recording(session.states.workspace / "episodes")
    session.advance(50)
    session.reset_to_start()  # Ctrl+R: that episode ended by a restart, not a game over
    window.menu_actions["mark_over"].trigger()
    session.movies.stop_recording()
    said = box.suggest()
    assert "has 1 frame (did it end right after a restart?)" in said and "mark alive moments" in said
    assert "needs at least one" not in said and "margin" not in said


def test_one_test_on_neighbouring_bytes_is_one_line(qtbot, nes):  # noqa: F811
    """Rules that are the same test on bytes next to each other are one finding: the line names
    them as neighbours, and the other findings get the lines."""
    window = open_window(qtbot, nes)
    box, session = window.scenario_editor.done_suggest, window.session
    play_game(session, 0, np.random.default_rng(6))
    box.mark_over()
    session.rewind.clear()
    from studio.model.scenario.done_marks import DoneMarks

    found = DoneMarks(session).suggest(limit=30)
    groups = group_neighbours(list(found))
    assert sum(1 + len(g.neighbours) for g in groups) == len(found)
    for group in groups:
        for rule in group.neighbours:
            first = group.rule.tests[0]
            assert (rule.tests[0].op, rule.tests[0].reference) == (first.op, first.reference)
