"""The poke test: is a found variable the game's real value, a copy of it, or never shown? No Qt.

:func:`poke_test` plays the same frames twice from the current state, with every button released:
once as the game is, once with a value poked into the variable first. It reads the variable after
every frame of both runs and compares the pictures, then puts the emulator back exactly as it was
(state, buttons, and the session's picture, frame, rewind, samples and movie untouched: the frames
are run on the emulator directly, never through :meth:`Session.advance`).

* A real counter keeps the poked value (or counts on from it) and the picture changes (the lives
  shown, a bar, the game's course).
* A copy is written back by the game from the real value (the two runs agree again) and the
  picture ends up the same.
* A value that stays but changes nothing on screen is not drawn now: a high score, a hidden
  counter, or one that only matters later.

>>> from studio.model.opening import resolve_game
>>> session = Session(*resolve_game("StudioDemo-Nes", None))
>>> result = poke_test(session, (0x13, "|u1"))       # lives + 1, one second of play
>>> result.verdict()
'A real value: it kept 4 and the picture changed (36 pixels after 60 frames).'
"""

from __future__ import annotations

import hashlib
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from emucore import Emulator
from emucore.datatypes import InvalidTypeError, parse_type
from emucore.host.emulator import PLAYERS
from emucore.integration import Variable
from studio.model.play.session import Session

#: One second of play at 60 fps: games rewrite a copy from the real value within a frame or two,
#: and redraw their HUD at least that often (the NES draws RAM one frame late), while the two
#: runs stay close enough for a changed picture to point at the poke, and the test takes a
#: blink (2 x 60 frames, a few milliseconds with these cores).
DEFAULT_FRAMES = 60
MAX_FRAMES = 3600


def value_range(type_text: str) -> tuple[int, int]:
    """The lowest and highest value a data.json type can hold (``|u1``: 0..255, ``>d2``: 0..9999)."""
    try:
        dtype = parse_type(str(type_text).strip())
    except InvalidTypeError as exc:
        raise ValueError(str(exc)) from None
    if dtype.kind == "i":
        half = 1 << (8 * dtype.width - 1) if dtype.width else 0
        return -half, max(0, half - 1)
    digits = {"d": 100, "n": 10}.get(dtype.kind, 256)
    return 0, min(digits**dtype.width - 1, (1 << 63) - 1)  # values are read back as int64


def default_value(current: int, type_text: str) -> int:
    """The value a poke test writes unless told: ``current + 1``, or ``current - 1`` at the top."""
    low, high = value_range(type_text)
    if low == high:
        raise ValueError(f"type {type_text!r} holds no value (width 0)")
    return current + 1 if current < high else current - 1


@dataclass
class PokeResult:
    """What a poke test saw.

    Attributes:
        address, type: The variable.
        before: Its value when the test started.
        poked: The value written.
        frames: How many frames each run played.
        values: The variable after each frame of the poked run.
        baseline: The variable after each frame of the run without the poke.
        pixels_changed: Pixels that differ between the two runs' pictures after the last frame.
        frames_looking_different: Frames (1-based) whose pictures differed between the runs.
    """

    address: int
    type: str
    before: int
    poked: int
    frames: int
    values: list[int] = field(default_factory=list)
    baseline: list[int] = field(default_factory=list)
    pixels_changed: int = 0
    frames_looking_different: list[int] = field(default_factory=list)

    @property
    def stayed(self) -> bool:
        """The variable still holds the poked value after the last frame."""
        return bool(self.values) and self.values[-1] == self.poked

    @property
    def rewritten_at(self) -> int | None:
        """The first frame (1-based) after which the game had written another value, or None."""
        return next((i + 1 for i, v in enumerate(self.values) if v != self.poked), None)

    @property
    def rewritten(self) -> bool:
        return self.rewritten_at is not None

    @property
    def rewritten_to(self) -> int | None:
        """The value the game wrote first, or None."""
        at = self.rewritten_at
        return None if at is None else self.values[at - 1]

    @property
    def rejoined(self) -> bool:
        """The game wrote back its own value: both runs hold the same value at the end."""
        return bool(self.values) and self.values[-1] == self.baseline[-1]

    @property
    def screen_changed(self) -> bool:
        """The pictures of the two runs differ after the last frame."""
        return self.pixels_changed > 0

    def verdict(self) -> str:
        """One line in plain words: a real value, a copy, or one not shown."""
        frames = f"{self.frames} frame{'s' if self.frames != 1 else ''}"
        if self.rejoined and not self.screen_changed:
            flash = len(self.frames_looking_different)
            shown = f"; the poke showed for {flash} frame{'s' if flash != 1 else ''}" if flash else ""
            return (f"A copy (or a value the game recomputes): it wrote {self.rewritten_to} over {self.poked} "
                    f"at frame {self.rewritten_at} and the picture is the same after {frames}{shown}.")
        if self.rejoined:
            return (f"Recomputed by the game at frame {self.rewritten_at} ({self.poked} -> {self.rewritten_to}), "
                    f"but the picture changed ({self.pixels_changed:,} pixels after {frames}): "
                    "the game read it before writing it again.")
        if self.screen_changed:
            kept = (f"it kept {self.poked}" if self.stayed
                    else f"the game went on from {self.poked} ({self.values[-1]} after {frames}, "
                         f"{self.baseline[-1]} without the poke)")
            return f"A real value: {kept} and the picture changed ({self.pixels_changed:,} pixels after {frames})."
        kept = (f"Kept {self.poked}" if self.stayed
                else f"The game counted on from {self.poked} to {self.values[-1]}")
        return (f"{kept}, but nothing changed on screen in {frames}: not drawn now "
                "(a high score, a hidden or display-only value, or one that matters later).")


def poke_test(target: Session | Emulator, variable: Variable | tuple[int, str], value: int | None = None,
              frames: int = DEFAULT_FRAMES) -> PokeResult:
    """Pokes ``value`` (current + 1 by default) into a variable on a scratch run and compares.

    Args:
        target: The session (its picture is kept) or a bare emulator.
        variable: A data.json :class:`Variable` or ``(address, type)``; the mask is not used.
        value: What to write; it must differ from the current value and fit the type.
        frames: How many frames to play after the poke (1 to 3600), with no button held.

    Raises:
        ValueError: The address is unmapped, the type invalid, the value out of its range or equal
            to the current one, ``frames`` out of range, or a movie is being recorded or played.
    """
    session = target if isinstance(target, Session) else None
    emulator = target.emulator if isinstance(target, Session) else target
    address, type_text = (variable.address, variable.type) if isinstance(variable, Variable) else variable
    address, type_text = int(address), str(type_text).strip()
    low, high = value_range(type_text)
    frames = int(frames)
    if not 1 <= frames <= MAX_FRAMES:
        raise ValueError(f"play 1 to {MAX_FRAMES} frames, not {frames}")
    if session is not None and session.movies.active:
        raise ValueError("a movie is being recorded or played: stop it first (the test plays frames outside it)")
    if not emulator.memory.is_mapped(address):
        raise ValueError(f"address {address:#x} is not mapped: there is nothing to poke")
    before = emulator.memory.read(address, type_text)
    value = default_value(before, type_text) if value is None else int(value)
    if not low <= value <= high:
        raise ValueError(f"{value} does not fit {type_text} ({low} to {high})")
    if value == before:
        raise ValueError(f"the variable holds {value} already: poke another value")

    result = PokeResult(address, type_text, before, value, frames)
    state = emulator.get_state()
    buttons = [emulator.get_button_mask(p) for p in range(PLAYERS)]
    keeping = session.scratch() if session is not None else nullcontext()
    with keeping:
        return _run(emulator, result, state, buttons, looks=[])


def _run(emulator: Emulator, result: PokeResult, state: bytes, buttons: list[int], looks: list[bytes]) -> PokeResult:
    """The two runs from ``state``; the emulator is put back to it, buttons included."""
    address, type_text, frames = result.address, result.type, result.frames
    try:
        for player in range(PLAYERS):
            emulator.set_button_mask(0, player)
        for _ in range(frames):
            emulator.step()
            result.baseline.append(emulator.memory.read(address, type_text))
            looks.append(_digest(emulator.get_frame()))
        last = emulator.get_frame()
        emulator.set_state(state)
        emulator.memory.write(address, type_text, result.poked)
        for frame in range(1, frames + 1):
            emulator.step()
            result.values.append(emulator.memory.read(address, type_text))
            if _digest(emulator.get_frame()) != looks[frame - 1]:
                result.frames_looking_different.append(frame)
        result.pixels_changed = _pixels_differing(last, emulator.get_frame())
    finally:
        emulator.set_state(state)
        for player, mask in enumerate(buttons):
            emulator.set_button_mask(mask, player)
    return result


def _digest(picture: np.ndarray) -> bytes:
    digest = hashlib.blake2b(np.ascontiguousarray(picture).tobytes(), digest_size=16).digest()
    return digest + str(picture.shape).encode()


def _pixels_differing(a: np.ndarray, b: np.ndarray) -> int:
    """How many pixels differ in any channel (all of them when the sizes differ)."""
    if a.shape != b.shape:
        return max(a.shape[0] * a.shape[1], b.shape[0] * b.shape[1])
    return int(np.any(a != b, axis=-1).sum())
