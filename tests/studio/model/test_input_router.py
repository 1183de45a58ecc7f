"""The input router without Qt: keys and pads to the session's held buttons, rewind and the quick slots."""

from __future__ import annotations

import pytest

from studio.model.play.input_router import InputRouter
from studio.model.play.session import Session

KEYS = {"Z": (0, 1 << 0), "X": (0, 1 << 8), "RIGHT": (0, 1 << 7), "K": (1, 1 << 0)}


@pytest.fixture
def played(demo):
    session = Session(*demo)
    router = InputRouter(KEYS)
    router.attach(session)
    yield router, session
    session.close()


def test_keys_down_and_up_set_the_held_buttons(played):
    router, session = played
    assert router.key_down("Z") and router.key_down("RIGHT") and router.key_down("K")
    assert session.held[:2] == [1 | 1 << 7, 1]
    assert router.key_up("Z") and session.held[:2] == [1 << 7, 1]
    assert not router.key_down("Q") and not router.key_up("Q"), "not a game key"
    assert session.held[:2] == [1 << 7, 1]


def test_auto_repeat_is_the_games_but_changes_nothing(played):
    router, session = played
    router.key_down("Z")
    assert router.key_down("Z", repeat=True) and router.key_up("Z", repeat=True)
    assert session.held[0] == 1
    assert router.key_down("F3", repeat=True) and not router.key_down("Q", repeat=True)


def test_pads_and_keys_are_merged_and_released_apart(played):
    router, session = played
    router.set_pads([1 << 4, 1 << 5])
    router.key_down("X")
    assert session.held[:2] == [1 << 4 | 1 << 8, 1 << 5]
    router.set_pads([0, 0])
    assert session.held[:2] == [1 << 8, 0]
    router.release_all()
    assert session.held[:2] == [0, 0] and router.pressed == set()


def test_the_router_is_the_one_writer_what_the_game_plays(played):
    router, session = played
    router.key_down("Z")  # B on the Genesis demo: the score grows every frame it is held
    session.advance(10)
    router.key_up("Z")
    session.advance(10)
    assert session.emulator.read(0xFF0000, ">u4") == 10


def test_rewind_is_held(played):
    router, session = played
    session.advance(30)
    assert router.key_down("BACKSPACE") and session.rewinding
    assert router.key_up("BACKSPACE") and not session.rewinding
    router.key_down("BACKSPACE")
    router.release_all()
    assert not session.rewinding


def test_quick_slots_save_with_shift_and_load_without(played):
    router, session = played
    router.key_down("Z")
    session.advance(12)
    assert router.key_down("F2", shift=True) and router.key_up("F2")
    score = session.emulator.read(0xFF0000, ">u4")
    session.advance(20)
    assert router.key_down("F2")
    assert session.emulator.read(0xFF0000, ">u4") == score and "loaded slot 2" in session.notice


def test_new_bindings_release_what_was_held(played):
    router, session = played
    router.key_down("Z")
    router.set_keys({"A": (0, 1 << 0)})
    assert session.held[0] == 0 and not router.key_down("Z") and router.key_down("A") and session.held[0] == 1


def test_another_session_starts_with_nothing_held(played, demo):
    router, session = played
    router.key_down("Z")
    router.set_pads([1 << 3])
    other = Session(*demo)
    try:
        router.attach(other)
        assert other.held[0] == 0 and session.held[0] == 1 | 1 << 3
        router.key_down("X")
        assert other.held[0] == 1 << 8 and session.held[0] == 1 | 1 << 3, "the old session is no longer written"
    finally:
        other.close()
