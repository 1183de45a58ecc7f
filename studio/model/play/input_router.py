"""The game's input without Qt: keys and pads in, the session's held buttons out.

The router is the one writer of ``session.held``: a key down or up, a pad poll or a release of everything
recomputes each player's buttons as the keys held OR the pad's, and sets them. Rewind (held) and the quick
slots (F1-F10 load, Shift+F1-F10 save) are keys too. Qt's side (:mod:`studio.qt.play.input_router_keys`) only decides
whether a key event is the game's and names the key.

>>> from studio.model.opening import resolve_game
>>> from studio.model.play.session import Session
>>> session = Session(*resolve_game("StudioDemo-Nes", None))
>>> router = InputRouter({"Z": (0, 1 << 0)})          # Z: player 1's button 0
>>> router.attach(session)
>>> router.key_down("Z"), session.held[0]
(True, 1)
>>> router.key_down("Q"), session.held[0]             # not a game key: left to the window
(False, 1)
>>> router.key_up("Z"), session.held[0]
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from emucore.host.emulator import PLAYERS
from studio.model.play.bindings import REWIND_KEY, SLOT_KEYS

if TYPE_CHECKING:
    from studio.model.play.session import Session

KeyMap = dict[str, tuple[int, int]]
"""Key name -> (player, button bit)."""


class InputRouter:
    """Held keys and pad masks of the players, written to the attached session."""

    def __init__(self, keys: KeyMap | None = None):
        self.keys: KeyMap = dict(keys or {})
        self.pressed: set[str] = set()
        self.pad_masks: list[int] = [0] * PLAYERS
        self.session: Session | None = None

    def attach(self, session: Session | None) -> None:
        """Plays ``session`` from now on (another game was opened); nothing is held in it."""
        self.session = session
        self.pressed.clear()
        self.pad_masks = [0] * PLAYERS
        self._write()

    def set_keys(self, keys: KeyMap) -> None:
        """New bindings (another system, or rebound keys); held keys are released."""
        self.keys = dict(keys)
        self.release_all()

    # ---- keys ----

    def is_game_key(self, name: str) -> bool:
        return name in self.keys or name == REWIND_KEY or name in SLOT_KEYS

    def key_down(self, name: str, *, shift: bool = False, repeat: bool = False) -> bool:
        """Acts on a game key; False (and nothing done) for a key the game does not use.

        An auto-repeated press does nothing but is still the game's (it must not reach a focused widget).
        """
        if repeat:
            return self.is_game_key(name)
        session = self.session
        if name == REWIND_KEY:
            if session is not None:
                session.set_rewinding(True)
        elif name in SLOT_KEYS:
            if session is not None:
                slot = SLOT_KEYS.index(name) + 1
                if shift:
                    session.save_slot(slot)
                else:
                    session.load_slot(slot)
        elif name in self.keys:
            self.pressed.add(name)
            self._write()
        else:
            return False
        return True

    def key_up(self, name: str, *, repeat: bool = False) -> bool:
        """Releases a game key; False for a key the game does not use."""
        if repeat:
            return name in self.keys or name == REWIND_KEY
        if name == REWIND_KEY:
            if self.session is not None:
                self.session.set_rewinding(False)
        elif name in self.pressed:
            self.pressed.discard(name)
            self._write()
        else:
            return self.is_game_key(name)
        return True

    def release_all(self) -> None:
        """Every key up (focus went to a text field, the bindings changed); rewinding stops."""
        self.pressed.clear()
        self._write()
        if self.session is not None and self.session.rewinding:
            self.session.set_rewinding(False)

    # ---- pads ----

    def set_pads(self, masks: Sequence[int]) -> None:
        """The pads' buttons, per player (a poll of the game controllers)."""
        masks = [int(mask) for mask in masks[:PLAYERS]] + [0] * (PLAYERS - min(len(masks), PLAYERS))
        if masks != self.pad_masks:
            self.pad_masks = masks
            self._write()

    # ---- the one writer ----

    def key_masks(self) -> list[int]:
        masks = [0] * PLAYERS
        for name in self.pressed:
            player, bit = self.keys[name]
            masks[player] |= bit
        return masks

    def _write(self) -> None:
        if self.session is None:
            return
        for player, mask in enumerate(self.key_masks()):
            self.session.set_buttons(player, mask | self.pad_masks[player])
