"""Gamepads: the SDL-to-libretro mapping, and the poller with no pads, fake pads and no pygame."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest

from studio.model.play import gamepad
from studio.model.play.gamepad import GamepadPoller, controller_mask

ROOT = Path(__file__).resolve().parents[3]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

NO_BUTTONS = [False] * 15
CENTRED = [0.0] * 6


def state(*pressed: int, **axes: float) -> tuple[list[bool], list[float]]:
    buttons = list(NO_BUTTONS)
    for b in pressed:
        buttons[b] = True
    values = list(CENTRED)
    names = {"lx": 0, "ly": 1, "rx": 2, "ry": 3, "lt": 4, "rt": 5}
    for name, value in axes.items():
        values[names[name]] = value
    return buttons, values


# ---- the mapping ----


@pytest.mark.parametrize(("sdl", "retro"), [
    (0, 0),  # A (south) -> B
    (1, 8),  # B (east) -> A
    (2, 1),  # X (west) -> Y
    (3, 9),  # Y (north) -> X
    (4, 2),  # back -> SELECT
    (6, 3),  # start -> START
    (11, 4), (12, 5), (13, 6), (14, 7),  # d-pad
    (9, 10), (10, 11),  # shoulders -> L, R
    (7, 14), (8, 15),  # stick clicks -> L3, R3
])
def test_each_button_maps_the_retroarch_way(sdl, retro):
    assert controller_mask(*state(sdl)) == 1 << retro


def test_nothing_held_and_guide_are_zero():
    assert controller_mask(*state()) == 0
    assert controller_mask(*state(5)) == 0  # the guide button belongs to the system


def test_triggers_past_half_are_l2_and_r2():
    assert controller_mask(*state(lt=0.5, rt=0.49)) == 0
    assert controller_mask(*state(lt=0.51)) == 1 << 12
    assert controller_mask(*state(rt=1.0)) == 1 << 13


def test_left_stick_past_half_is_the_dpad():
    assert controller_mask(*state(lx=-0.6)) == 1 << 6
    assert controller_mask(*state(lx=0.6)) == 1 << 7
    assert controller_mask(*state(ly=-0.6)) == 1 << 4  # SDL's y grows downwards
    assert controller_mask(*state(ly=0.9)) == 1 << 5
    assert controller_mask(*state(lx=0.7, ly=-0.7)) == (1 << 7) | (1 << 4)
    assert controller_mask(*state(lx=0.4, ly=-0.3)) == 0
    assert controller_mask(*state(rx=1.0, ry=1.0)) == 0  # the right stick is not the d-pad
    assert controller_mask(*state(13, lx=-1.0)) == 1 << 6  # d-pad and stick agree: one bit


def test_everything_held_is_all_sixteen_bits():
    buttons, axes = state(*range(15), lt=1.0, rt=1.0)
    assert controller_mask(buttons, axes) == 0xFFFF


def test_constants_are_sdls():
    pygame = pytest.importorskip("pygame")
    for name in ("A", "B", "X", "Y", "BACK", "GUIDE", "START", "LEFTSTICK", "RIGHTSTICK", "LEFTSHOULDER",
                 "RIGHTSHOULDER", "DPAD_UP", "DPAD_DOWN", "DPAD_LEFT", "DPAD_RIGHT"):
        assert getattr(gamepad, f"SDL_BUTTON_{name}") == getattr(pygame, f"CONTROLLER_BUTTON_{name}")
    for name in ("LEFTX", "LEFTY", "RIGHTX", "RIGHTY", "TRIGGERLEFT", "TRIGGERRIGHT"):
        assert getattr(gamepad, f"SDL_AXIS_{name}") == getattr(pygame, f"CONTROLLER_AXIS_{name}")


# ---- the poller on this machine (no pads) ----


def test_poller_with_no_pads_reports_zeros_quickly():
    try:
        import pygame  # noqa: F401
        has_pygame = True
    except ImportError:
        has_pygame = False
    before = os.environ.get("SDL_VIDEODRIVER"), os.environ.get("SDL_NO_SIGNAL_HANDLERS")
    display_before = has_pygame and sys.modules["pygame"].display.get_init()
    poller = GamepadPoller()
    try:
        assert poller.available == has_pygame
        assert poller.poll() == [0, 0]
        assert poller.names == []
        assert (os.environ.get("SDL_VIDEODRIVER"), os.environ.get("SDL_NO_SIGNAL_HANDLERS")) == before
        if has_pygame:  # no video started, so no window and no display connection
            assert sys.modules["pygame"].display.get_init() == display_before
        start = time.perf_counter()
        for _ in range(1000):
            poller.poll()
        assert (time.perf_counter() - start) / 1000 < 0.0005  # it runs every 4 ms
    finally:
        poller.close()
    assert poller.poll() == [0, 0]
    poller.close()


def test_poller_without_pygame_is_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame -> ImportError
    poller = GamepadPoller(players=3)
    assert not poller.available
    assert poller.poll() == [0, 0, 0]
    poller.close()


def test_poller_whose_sdl_fails_is_unavailable(monkeypatch):
    fake = FakeSDL()

    def broken() -> None:
        raise RuntimeError("no joystick subsystem")

    fake.pygame.joystick.init = broken
    fake.install(monkeypatch)
    poller = GamepadPoller()
    assert not poller.available and poller.poll() == [0, 0]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sdl_leaves_sigterm_alone():
    pytest.importorskip("pygame")
    script = textwrap.dedent("""
        import os, signal
        from studio.model.play.gamepad import GamepadPoller
        poller = GamepadPoller()
        poller.poll()
        print("available", poller.available, flush=True)
        os.kill(os.getpid(), signal.SIGTERM)
        import time; time.sleep(5)
        print("survived SIGTERM", flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SDL_NO_SIGNAL_HANDLERS", None)
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert "available True" in run.stdout, run.stderr
    assert run.returncode == -signal.SIGTERM, run.stdout + run.stderr


# ---- hot-plug, with a fake SDL ----


class FakePad:
    def __init__(self, name: str, controller: bool = True):
        self.name = name
        self.controller = controller
        self.attached = True
        self.buttons = [False] * 15
        self.axes = [0] * 6


class FakeController:
    def __init__(self, sdl: FakeSDL, index: int):
        self.pad = sdl.devices[index]
        self.closed = False

    def attached(self) -> bool:
        return self.pad.attached

    def get_button(self, button: int) -> bool:
        return self.pad.buttons[button]

    def get_axis(self, axis: int) -> int:
        return self.pad.axes[axis]

    def quit(self) -> None:
        self.closed = True


class FakeSDL:
    """Just the pygame / pygame._sdl2.controller calls the poller makes, over a list of devices."""

    def __init__(self) -> None:
        self.devices: list[FakePad] = []
        self.updates = 0
        sdl = self

        class Joystick:
            def __init__(self, index: int):
                self.index = index

            def get_name(self) -> str:
                return sdl.devices[self.index].name

        self.pygame = types.ModuleType("pygame")
        self.pygame.joystick = types.SimpleNamespace(init=lambda: None, quit=lambda: None,
                                                     get_count=lambda: len(self.devices), Joystick=Joystick)
        self.controller = types.ModuleType("pygame._sdl2.controller")
        self.controller.init = lambda: None
        self.controller.quit = lambda: None
        self.controller.set_eventstate = lambda on: None
        self.controller.update = self._update
        self.controller.is_controller = lambda i: self.devices[i].controller
        self.controller.name_forindex = lambda i: self.devices[i].name.encode()
        self.controller.Controller = lambda i: FakeController(self, i)
        self.sdl2 = types.ModuleType("pygame._sdl2")
        self.sdl2.controller = self.controller
        self.pygame._sdl2 = self.sdl2

    def _update(self) -> None:
        self.updates += 1
        self.devices = [d for d in self.devices if d.attached]  # SDL drops unplugged devices on update

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "pygame", self.pygame)
        monkeypatch.setitem(sys.modules, "pygame._sdl2", self.sdl2)
        monkeypatch.setitem(sys.modules, "pygame._sdl2.controller", self.controller)


def test_pads_come_and_go_in_player_order(monkeypatch, caplog):
    sdl = FakeSDL()
    sdl.install(monkeypatch)
    poller = GamepadPoller()
    assert poller.available
    assert poller.poll() == [0, 0]

    first = FakePad("Pad One")
    first.buttons[0] = True  # south: libretro B
    sdl.devices.append(first)
    assert poller.poll() == [1 << 0, 0]
    assert poller.names == ["Pad One"]

    second = FakePad("Pad Two")
    second.axes[4] = 32767  # left trigger: L2
    second.axes[1] = -32768  # left stick up: UP
    sdl.devices.append(second)
    assert poller.poll() == [1 << 0, (1 << 12) | (1 << 4)]

    stick = FakePad("Flight Stick", controller=False)
    sdl.devices.insert(1, stick)
    with caplog.at_level("WARNING"):
        assert poller.poll() == [1 << 0, (1 << 12) | (1 << 4)]  # a joystick without a mapping is skipped
        poller.poll()
    assert sum("Flight Stick" in r.getMessage() for r in caplog.records) == 1

    first.attached = False  # unplugged: the second pad becomes player 1
    assert poller.poll() == [(1 << 12) | (1 << 4), 0]
    assert poller.names == ["Pad Two"]

    third, fourth = FakePad("Pad Three"), FakePad("Pad Four")
    third.buttons[6] = True  # start
    sdl.devices += [third, fourth]
    assert poller.poll() == [(1 << 12) | (1 << 4), 1 << 3]  # two players: the fourth pad waits
    assert poller.names == ["Pad Two", "Pad Three", "Pad Four"]
    assert sdl.updates == 7  # one pump per poll


def test_a_pad_failing_mid_read_reports_zeros_once(monkeypatch):
    sdl = FakeSDL()
    sdl.install(monkeypatch)
    pad = FakePad("Flaky")
    sdl.devices.append(pad)
    poller = GamepadPoller()
    pad.buttons[1] = True
    assert poller.poll() == [1 << 8, 0]
    pad.buttons = None  # reading it now fails
    assert poller.poll() == [0, 0]
    pad.buttons = [False] * 15
    pad.buttons[3] = True
    assert poller.poll() == [1 << 9, 0]  # rescanned and back
