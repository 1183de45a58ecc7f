"""Which save state a ``RetroEnv`` starts its episodes from (``state=``, ``load_state``)."""

from __future__ import annotations

import difflib
from typing import Any

from emucore import data as retro_data
from emucore.enums import State
from emucore.errors import StateNotFoundError, did_you_mean
from emucore.integration import METADATA_FILE, STATE_SUFFIX, default_state_name, read_state_file


class StateLoading:
    """RetroEnv's state methods; the env has ``_game_lookup`` (a game name or folder), ``gamename``,
    ``inttype``, ``metadata_json``, ``players`` and, once made, ``em``."""

    _game_lookup: str
    gamename: str
    inttype: Any
    metadata_json: Any
    players: int
    initial_state: bytes | None
    statename: str | None
    _state_path: str | None
    em: Any

    def _default_state_name(self, state: State | str | None) -> str | None:
        if state is None or state == State.NONE:
            return None
        if state == State.DEFAULT:
            path = retro_data.get_file_path(self._game_lookup, METADATA_FILE, self.inttype) or METADATA_FILE
            return default_state_name(self.metadata_json, path, self.players)
        return str(state)

    def load_state(self, statename: str, inttype: Any = None) -> None:
        """Reads a state (name or path) into ``initial_state``; it applies at the next reset()."""
        inttype = self.inttype if inttype is None else retro_data.resolve(inttype)
        if not statename.endswith(STATE_SUFFIX):
            statename += STATE_SUFFIX
        path = retro_data.get_file_path(self._game_lookup, statename, inttype)
        if not path:
            where = (self._game_lookup if retro_data.is_game_folder_path(self._game_lookup)
                     else f"the integration of {self.gamename} (inttype Integrations.{inttype.name or 0})")
            close = difflib.get_close_matches(statename[: -len(STATE_SUFFIX)],
                                              retro_data.list_states(self._game_lookup, inttype), n=3)
            hint = f"; {did_you_mean(close)}" if close else ""
            raise StateNotFoundError(statename, f"not found in {where}{hint}")
        state = read_state_file(path)
        if getattr(self, "em", None) is not None:
            self.em.check_state(state, source=path)
        self.initial_state = state
        self.statename = statename
        self._state_path = path
