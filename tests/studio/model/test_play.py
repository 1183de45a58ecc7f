"""The studio's play session: the frame clock, the demo game it opens by default, buttons held (its window:
``tests/studio/qt/test_play.py``)."""

from __future__ import annotations

from studio.model.opening import resolve_game
from studio.model.play.clock import FrameClock
from studio.model.play.session import Session


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_clock_paces_from_elapsed_time():
    t = FakeTime()
    clock = FrameClock(60.0, now=t)
    t.now = 0.5
    assert clock.due() == 4  # capped burst
    t.now += 1 / 60
    assert clock.due() == 1
    t.now += 0.5 / 60
    assert clock.due() == 0
    t.now += 0.5 / 60
    assert clock.due() == 1
    clock.speed = 2.0
    t.now += 1 / 60
    assert clock.due() == 2


def test_demo_resolves_to_its_start_state():
    rom, state = resolve_game(None, None)
    assert rom.name == "rom.md" and state is not None and state.name == "Start.state"


def test_keys_drive_the_demo():
    rom, state = resolve_game(None, None)
    session = Session(rom, state)
    try:
        session.set_buttons(0, 1)  # Genesis B
        session.advance(10)
        assert session.emulator.read(0xFF0000, ">u4") == 10
        session.set_buttons(0, 0)
        session.advance(5)
        assert session.emulator.read(0xFF0000, ">u4") == 10
        session.reset_to_start()
        assert session.emulator.read(0xFF0000, ">u4") == 0
    finally:
        session.close()
