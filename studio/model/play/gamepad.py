"""Gamepads through SDL's GameController API (pygame), read as libretro joypad masks. No Qt.

:class:`GamepadPoller` starts only SDL's joystick and game-controller subsystems: no video, so it
never opens a window or a display connection, and it leaves the process's signal handlers alone.
SDL's controller database turns every known pad into the same Xbox-style layout, which
:func:`controller_mask` maps onto the libretro joypad the RetroArch way (SDL's south button A is
libretro's B, east B is A, west X is Y, north Y is X).

Pads are hot-plugged: player ``i`` is the ``i``-th connected pad, re-counted whenever one comes or
goes. Without pygame, or when SDL cannot start, the poller is unavailable and reports no buttons; it
never raises.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Sequence
from typing import Any

log = logging.getLogger(__name__)

# SDL_GameControllerButton
SDL_BUTTON_A = 0  # south
SDL_BUTTON_B = 1  # east
SDL_BUTTON_X = 2  # west
SDL_BUTTON_Y = 3  # north
SDL_BUTTON_BACK = 4
SDL_BUTTON_GUIDE = 5
SDL_BUTTON_START = 6
SDL_BUTTON_LEFTSTICK = 7
SDL_BUTTON_RIGHTSTICK = 8
SDL_BUTTON_LEFTSHOULDER = 9
SDL_BUTTON_RIGHTSHOULDER = 10
SDL_BUTTON_DPAD_UP = 11
SDL_BUTTON_DPAD_DOWN = 12
SDL_BUTTON_DPAD_LEFT = 13
SDL_BUTTON_DPAD_RIGHT = 14
SDL_BUTTON_COUNT = 15  # the classic buttons; SDL 2.0.14+ has more (paddles, touchpad), unused here

# SDL_GameControllerAxis
SDL_AXIS_LEFTX = 0
SDL_AXIS_LEFTY = 1  # down is positive
SDL_AXIS_RIGHTX = 2
SDL_AXIS_RIGHTY = 3
SDL_AXIS_TRIGGERLEFT = 4
SDL_AXIS_TRIGGERRIGHT = 5
SDL_AXIS_COUNT = 6
SDL_AXIS_MAX = 32767

# libretro RETRO_DEVICE_ID_JOYPAD_*
RETRO_B, RETRO_Y, RETRO_SELECT, RETRO_START = 0, 1, 2, 3
RETRO_UP, RETRO_DOWN, RETRO_LEFT, RETRO_RIGHT = 4, 5, 6, 7
RETRO_A, RETRO_X, RETRO_L, RETRO_R = 8, 9, 10, 11
RETRO_L2, RETRO_R2, RETRO_L3, RETRO_R3 = 12, 13, 14, 15

#: SDL button -> libretro button, RetroArch's convention (by position, not by label).
BUTTON_MAP: tuple[tuple[int, int], ...] = (
    (SDL_BUTTON_A, RETRO_B),
    (SDL_BUTTON_B, RETRO_A),
    (SDL_BUTTON_X, RETRO_Y),
    (SDL_BUTTON_Y, RETRO_X),
    (SDL_BUTTON_BACK, RETRO_SELECT),
    (SDL_BUTTON_START, RETRO_START),
    (SDL_BUTTON_DPAD_UP, RETRO_UP),
    (SDL_BUTTON_DPAD_DOWN, RETRO_DOWN),
    (SDL_BUTTON_DPAD_LEFT, RETRO_LEFT),
    (SDL_BUTTON_DPAD_RIGHT, RETRO_RIGHT),
    (SDL_BUTTON_LEFTSHOULDER, RETRO_L),
    (SDL_BUTTON_RIGHTSHOULDER, RETRO_R),
    (SDL_BUTTON_LEFTSTICK, RETRO_L3),
    (SDL_BUTTON_RIGHTSTICK, RETRO_R3),
)
_BUTTON_BITS = tuple((sdl, 1 << retro) for sdl, retro in BUTTON_MAP)

THRESHOLD = 0.5  # trigger pull, and left-stick deflection that counts as the d-pad

# SDL hints, as environment variables read while the subsystems start.
_SDL_ENV = {
    "SDL_VIDEODRIVER": "dummy",  # belt and braces: video is never started, but if it were, no display
    "SDL_NO_SIGNAL_HANDLERS": "1",  # else SDL turns SIGTERM into a quit event nobody reads
    "SDL_JOYSTICK_ALLOW_BACKGROUND_EVENTS": "1",  # the focused window is Qt's, not SDL's
}


def controller_mask(buttons: Sequence[bool], axes: Sequence[float], threshold: float = THRESHOLD) -> int:
    """The libretro joypad mask of one SDL game controller's state.

    Args:
        buttons: Pressed or not, indexed by SDL GameController button (at least 15).
        axes: Indexed by SDL GameController axis (at least 6), normalised: sticks -1..1 with
            down positive, triggers 0..1.
        threshold: How far a trigger must be pulled for L2/R2, and the left stick pushed for the
            d-pad.

    Returns:
        The mask, bit ``i`` for libretro joypad id ``i``.
    """
    mask = 0
    for sdl, bit in _BUTTON_BITS:
        if buttons[sdl]:
            mask |= bit
    if axes[SDL_AXIS_TRIGGERLEFT] > threshold:
        mask |= 1 << RETRO_L2
    if axes[SDL_AXIS_TRIGGERRIGHT] > threshold:
        mask |= 1 << RETRO_R2
    x, y = axes[SDL_AXIS_LEFTX], axes[SDL_AXIS_LEFTY]
    if x < -threshold:
        mask |= 1 << RETRO_LEFT
    elif x > threshold:
        mask |= 1 << RETRO_RIGHT
    if y < -threshold:
        mask |= 1 << RETRO_UP
    elif y > threshold:
        mask |= 1 << RETRO_DOWN
    return mask


@contextlib.contextmanager
def _sdl_environment() -> Iterator[None]:
    """Sets SDL's hints for the duration of the subsystems' start, then restores the environment.

    SDL reads them once at start; restoring keeps them from leaking into child processes.
    """
    saved = {name: os.environ.get(name) for name in _SDL_ENV}
    os.environ.update(_SDL_ENV)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class GamepadPoller:
    """Reads up to ``players`` gamepads as libretro button masks, hot-plug included.

    Call :meth:`poll` once per window tick; it pumps SDL's joystick state once and reads the pads.

    Args:
        players: How many masks :meth:`poll` returns.

    Attributes:
        available: Whether SDL's game-controller support started; when False, :meth:`poll` returns
            zeros.
    """

    def __init__(self, players: int = 2):
        self.players = players
        self.available = False
        self._zeros = [0] * players
        self._pads: list[Any] = []
        self._names: list[str] = []
        self._joystick_count = -1
        self._ignored: set[str] = set()
        self._failed_once = False
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            with _sdl_environment():
                import pygame
                from pygame._sdl2 import controller

                pygame.joystick.init()
                controller.init()
                controller.set_eventstate(False)  # nobody reads SDL's event queue; don't fill it
        except Exception as exc:  # ImportError, pygame.error, or a broken SDL
            log.info("Gamepads are off: %s", exc)
            return
        self._pygame = pygame
        self._controller = controller
        self.available = True

    @property
    def names(self) -> list[str]:
        """The connected pads' names, in player order (as of the last :meth:`poll`)."""
        return list(self._names)

    def poll(self) -> list[int]:
        """Updates SDL's joystick state once and returns each player's libretro button mask.

        Returns:
            ``players`` masks; player ``i`` is the ``i``-th connected pad, 0 where there is none.
        """
        if not self.available:
            return list(self._zeros)
        try:
            self._controller.update()  # SDL_GameControllerUpdate: reads devices, notices hot-plug
            count = self._pygame.joystick.get_count()
            if count != self._joystick_count or not all(pad.attached() for pad in self._pads):
                self._rescan(count)
            masks = [self._read(pad) for pad in self._pads[:self.players]]
        except Exception as exc:  # a pad yanked mid-read, or SDL trouble: report nothing this tick
            if not self._failed_once:
                self._failed_once = True
                log.warning("Reading the gamepads failed: %s", exc, exc_info=True)
            self._joystick_count = -1  # rescan next time
            return list(self._zeros)
        return masks + self._zeros[len(masks):]

    def close(self) -> None:
        """Releases the pads and SDL's controller subsystems; :meth:`poll` then returns zeros."""
        if not self.available:
            return
        self.available = False
        for pad in self._pads:
            with contextlib.suppress(Exception):
                pad.quit()
        self._pads, self._names = [], []
        with contextlib.suppress(Exception):
            self._controller.quit()
        with contextlib.suppress(Exception):
            self._pygame.joystick.quit()

    @staticmethod
    def _read(pad: Any) -> int:
        button, axis = pad.get_button, pad.get_axis
        return controller_mask([button(i) for i in range(SDL_BUTTON_COUNT)],
                               [axis(i) / SDL_AXIS_MAX for i in range(SDL_AXIS_COUNT)])

    def _rescan(self, count: int) -> None:
        """Opens every connected game controller in SDL's device order (the order they came in)."""
        controller = self._controller
        pads, names = [], []
        for index in range(count):
            if not controller.is_controller(index):
                self._ignore(index)
                continue
            # (name_forindex only for controllers: for other joysticks SDL gives NULL)
            name = _text(controller.name_forindex(index)) or f"pad {index}"
            try:
                pads.append(controller.Controller(index))
            except Exception as exc:
                log.warning("Gamepad %r could not be opened: %s", name, exc)
                continue
            names.append(name)
        for pad in self._pads:  # after opening the new ones, so pads still connected stay open
            with contextlib.suppress(Exception):
                pad.quit()
        if names != self._names:
            log.info("Gamepads: %s", ", ".join(names) if names else "none")
        self._pads, self._names = pads, names
        self._joystick_count = count

    def _ignore(self, index: int) -> None:
        """Says once per device name that a joystick without a controller mapping is not used."""
        try:
            name = _text(self._pygame.joystick.Joystick(index).get_name()) or f"joystick {index}"
        except Exception:
            name = f"joystick {index}"
        if name not in self._ignored:
            self._ignored.add(name)
            log.warning("Joystick %r has no SDL game controller mapping, so it is not used; give it one "
                        "with the SDL_GAMECONTROLLERCONFIG environment variable", name)


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)
