"""Which save state a ``RetroEnv`` starts its episodes from (``state=``, ``load_state``): the file found by name
in the game's integration, read and checked."""

from __future__ import annotations

import difflib
from typing import Any

from emucore import data as retro_data
from emucore.enums import State
from emucore.errors import StateNotFoundError, did_you_mean
from emucore.integration import METADATA_FILE, STATE_SUFFIX, default_state_name, read_state_file


class StateFiles:
    """The states of one game: ``game_lookup`` is a game name or a game folder's path (then only that folder is
    searched), ``metadata_json`` its metadata.json (which names the default state)."""

    def __init__(self, game_lookup: str, gamename: str, inttype: Any, metadata_json: Any, players: int):
        self.game_lookup = game_lookup
        self.gamename = gamename
        self.inttype = inttype
        self.metadata_json = metadata_json
        self.players = players

    def name_of(self, state: State | str | None) -> str | None:
        """The name of the state ``make(state=...)`` means (None: power on)."""
        if state is None or state == State.NONE:
            return None
        if state == State.DEFAULT:
            path = retro_data.get_file_path(self.game_lookup, METADATA_FILE, self.inttype) or METADATA_FILE
            return default_state_name(self.metadata_json, path, self.players)
        return str(state)

    def read(self, statename: str, inttype: Any = None) -> tuple[str, bytes, str]:
        """(name with ``.state``, the state's bytes, its path) of the state ``statename`` (a name or a path).

        Raises:
            StateNotFoundError: no such state; the message names where it looked and the closest names.
        """
        inttype = self.inttype if inttype is None else retro_data.resolve(inttype)
        if not statename.endswith(STATE_SUFFIX):
            statename += STATE_SUFFIX
        path = retro_data.get_file_path(self.game_lookup, statename, inttype)
        if not path:
            where = (self.game_lookup if retro_data.is_game_folder_path(self.game_lookup)
                     else f"the integration of {self.gamename} (inttype Integrations.{inttype.name or 0})")
            close = difflib.get_close_matches(statename[: -len(STATE_SUFFIX)],
                                              retro_data.list_states(self.game_lookup, inttype), n=3)
            hint = f"; {did_you_mean(close)}" if close else ""
            raise StateNotFoundError(statename, f"not found in {where}{hint}")
        return statename, read_state_file(path), path
