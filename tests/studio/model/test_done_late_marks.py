"""A game over marked late (on seeing it) is moved back to where it began, and said.

Ground truth: homebrew/nes/README.md. Lives are lost every 300 play frames, the game is over at
the 900th (``game_over`` at $12 becomes 1, ``lives`` at $13 0), and the game then ignores every
button but START. The ``rest`` byte at $33 is 0 from the second death on (one life early): an
onset there is an earlier death, not the game over, and the game still answers the controller.
"""

from __future__ import annotations

import numpy as np
import pytest

from emucore.assist.done_onset import MovieStates, answers_controller
from emucore.movie import Movie
from emucore.search.movies import MaskReplay, movie_masks, movie_start
from studio.model.scenario.done_marks import DoneMarks
from tests.studio.model.test_done_marks import open_session
from tests.studio.model.test_done_play import bare  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow  # long replays: whole games played to their game over

GAME_OVER, LIVES, REST = 0x12, 0x13, 0x33


def play_game(session, late: int, rng) -> None:
    """Plays a game (random buttons, never START) to its game over, then ``late`` frames more."""
    start = 1 << session.system.buttons.index("START")
    while not session.emulator.read(GAME_OVER, "|u1"):
        session.set_buttons(0, int(rng.integers(0, 256)) & ~start)
        session.advance(1)
    session.set_buttons(0, 0)
    session.advance(late)


def frames_of(path) -> int:
    return Movie(path).frame_count


def test_late_game_over_marks_move_the_episodes_ends_to_where_the_game_over_began(bare):  # noqa: F811
    session = open_session(bare)
    marks = DoneMarks(session)
    session.movies.start_episode_recording(session.states.workspace / "episodes")
    rng = np.random.default_rng(1)
    for late in (264, 200):  # marked on seeing GAME OVER, seconds after it
        play_game(session, late, rng)
        marks.mark_over()
    session.movies.stop_recording()
    movies = marks.movies()
    assert len(movies) == 2
    before = [frames_of(p) for p in movies]
    rules = marks.suggest()
    assert any("the game over began 264 frames before your mark: ended the episode there" in n for n in rules.notes)
    assert any("the game over began 200 frames before your mark" in n for n in rules.notes)
    assert [frames_of(p) for p in movies] == [before[0] - 264, before[1] - 200]
    # the moved ends are where game_over became 1: the frame before is still playing
    for path in movies:
        movie = Movie(path)
        replay = MaskReplay(session.emulator, movie_masks(movie), movie_start(movie), movie.frame_count)
        frames = list(replay)
        assert frames[-1].read(GAME_OVER, "|u1") == 1 and frames[-2].read(GAME_OVER, "|u1") == 0
    first = rules[0]
    assert {(t.address, t.op) for t in first.tests} <= {(GAME_OVER, "nonzero"), (LIVES, "zero")}
    assert not any(t.address == REST for r in rules for t in r.tests)
    lines = [e.line() for e in marks.episodes.episodes()]
    assert lines[0].startswith(f"ends at frame {before[0] - 265:,}, 264 frames before your mark (found by Suggest)")
    # the whole movies are kept: Restore ends the episode at the mark again
    marks.episodes.restore(movies[0])
    assert frames_of(movies[0]) == before[0]
    session.close()


def test_a_mark_a_few_frames_late_is_not_moved_to_an_earlier_death(bare):  # noqa: F811
    """Marked 15 frames late: the search window reaches back past the second death, where the
    ``rest`` byte became 0 and stayed 0; the game still played after it, so the game over is 15
    frames before the mark, not there."""
    session = open_session(bare)
    marks = DoneMarks(session)
    session.movies.start_episode_recording(session.states.workspace / "episodes")
    play_game(session, 15, np.random.default_rng(2))
    marks.mark_over()
    session.movies.stop_recording()
    (movie,) = marks.movies()
    had = frames_of(movie)
    rules = marks.suggest()
    assert any("the game over began 15 frames before your mark" in n for n in rules.notes)
    assert frames_of(movie) == had - 15
    assert not any(t.address == REST for r in rules for t in r.tests)
    session.close()


def test_the_controller_test_tells_a_game_over_from_a_running_game(bare):  # noqa: F811
    session = open_session(bare)
    session.movies.start_episode_recording(session.states.workspace / "episodes")
    play_game(session, 100, np.random.default_rng(3))
    DoneMarks(session).mark_over()
    session.movies.stop_recording()
    (path,) = DoneMarks(session).movies()
    movie = Movie(path)
    states = MovieStates(session.emulator, MaskReplay(session.emulator, movie_masks(movie), movie_start(movie), 1))
    assert not answers_controller(session.emulator, *states.state_at(100))  # over for the last 100 frames
    assert answers_controller(session.emulator, *states.state_at(400))  # still playing 400 frames before the mark
    session.close()


def test_the_play_kept_before_a_late_mark_ends_where_the_game_over_began(bare):  # noqa: F811
    """Without episode recording, the rewind history before the mark is the episode: its end
    moves to the game over too (the whole states of its last seconds are kept with it for the
    controller test)."""
    session = open_session(bare)
    marks = DoneMarks(session)
    play_game(session, 150, np.random.default_rng(4))
    mark = marks.mark_over()
    rules = marks.suggest()
    (moved,) = [m for m in marks.marks if m.kind == "over"]
    assert moved.onset == mark.frame - 150
    assert any(f"the game over began 150 frames before your mark (frame {moved.onset:,})" in n for n in rules.notes)
    assert rules[0].done == {"variables": {"gameover": {"op": "nonzero"}}}
    assert DoneMarks(session).marks[-1].onset == moved.onset  # remembered
    session.close()
