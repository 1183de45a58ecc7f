"""stable-retro's ``retro.data.GameData``: an evaluator made from a game's files, before or without
an env, and bound to an emulator's memory by ``RetroEmulator.configure_data``.

    data = retro.data.GameData("Airstriker-Genesis-v0")      # or GameData(), then data.load(...)
    data.list_variables()                                    # works without an emulator
    emulator = retro.RetroEmulator(rom)
    emulator.configure_data(data)
    emulator.step(); data.update_ram(); data.lookup_all()

It is built by :func:`emucore.scenario.loader.load_game_data`, as the env's is, once both the files
and the emulator are known; until an emulator is configured, memory is empty, so the variables read
as unmapped (``lookup_value`` raises ``IndexError`` naming the address).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.fileio import atomic_write_text
from emucore.host.memory import AddressSpace
from emucore.integration import dump_data_json, read_scenario_json, write_scenario_json
from emucore.retro.gamedata_methods import GameDataMethods
from emucore.scenario.actions import ActionGroups
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.loader import GameDataSources, load_game_data, read_sources
from emucore.scenario.model import Scenario

if TYPE_CHECKING:
    from emucore.host.emulator import Emulator


def _json_file(game: str, given: str | None, default: str, inttype: Any) -> str | None:
    """stable-retro's resolution: a name gets ``.json``; a relative one is looked up in the game."""
    import emucore.data as retro_data  # the public functions, which callers may have replaced

    if not given:
        return retro_data.get_file_path(game, default, inttype)
    name = given if given.endswith(".json") else given + ".json"
    return name if os.path.isabs(name) else retro_data.get_file_path(game, name, inttype)


class GameData(GameDataMethods):
    """``GameData(game=None, data=None, scenario=None, inttype=Integrations.DEFAULT)``: with ``game``,
    its ``data.json`` and ``scenario.json`` (or the files named by ``data`` and ``scenario``); with
    paths only, those files; with nothing, no variables until :meth:`load`.

    Evaluation (``update_ram``, ``lookup_all``, rewards, done) is the env's evaluator's, rebuilt by
    :meth:`load` and :meth:`configure`; variable edits made before are carried into it.
    """

    def __init__(self, game: str | None = None, data: str | None = None, scenario: str | None = None,
                 inttype: Any = None):
        self._emulator: Emulator | None = None
        self._sources = GameDataSources()
        self._evaluator = Evaluator({}, Scenario.parse(None), self._address_space, ActionGroups([], []))
        if game:
            data = _json_file(game, data, "data.json", inttype)
            scenario = _json_file(game, scenario, "scenario.json", inttype)
        if data:
            self.load(data, scenario)

    def _address_space(self) -> AddressSpace:
        return self._emulator.memory if self._emulator is not None else AddressSpace([])

    def load(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """Reads data.json-style variables from ``data`` and a scenario from ``scen`` (either may be None).

        Returns True (as stable-retro's does on success).

        Raises:
            IntegrationError: a file cannot be read or is malformed (the message names it).
        """
        self._sources = GameDataSources(Path(data) if data else None, Path(scen) if scen else None)
        self._rebuild(keep_variables=False)
        return True

    def save(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """Writes the variables (as edited) to ``data`` and the loaded scenario to ``scen``, each
        atomically and in stable-retro's layout; either may be None. Returns True."""
        if data:
            atomic_write_text(Path(data), dump_data_json(dict(self.variables)))
        if scen:
            source = self._sources.scenario_path
            write_scenario_json(Path(scen), read_scenario_json(source) if source else {})
        return True

    def configure(self, emulator: Emulator) -> None:
        """Reads ``emulator``'s memory from now on (``RetroEmulator.configure_data`` calls this)."""
        self._emulator = emulator
        self._rebuild(keep_variables=True)

    def _rebuild(self, keep_variables: bool) -> None:
        """Builds the evaluator from the sources over the current memory; ``keep_variables`` keeps
        the variables as they are (edits included) instead of reading data.json again.

        Without an emulator, only the files are read: the system's buttons, the scripts and the
        checks against memory come with ``configure``."""
        sources = self._sources
        if keep_variables:
            sources = replace(sources, variables=dict(self._evaluator.variables))
        if self._emulator is not None:
            loaded = load_game_data(sources, self._emulator.system, self._address_space)
            for message, category in loaded.warnings:
                warnings.warn(message, category, stacklevel=3)
            self._evaluator = loaded.data
        else:
            variables, _, _, scenario = read_sources(sources)
            self._evaluator = Evaluator(variables, scenario, self._address_space, ActionGroups([], []))

    # ---- the evaluator's API ----

    def _live_memory(self) -> AddressSpace:
        """The address space the variables are read from (empty without an emulator)."""
        return self._address_space()

    @property
    def search_types(self) -> tuple[str, ...] | None:  # type: ignore[override]
        return self._emulator.system.types if self._emulator is not None else None

    @property
    def variables(self) -> dict[str, Any]:  # type: ignore[override]
        return self._evaluator.variables

    @property
    def scenario(self) -> Scenario:  # type: ignore[override]
        return self._evaluator.scenario

    @property
    def actions(self) -> ActionGroups:  # type: ignore[override]
        return self._evaluator.actions

    def _variables_changed(self, edited: str | None = None) -> None:
        self._evaluator._variables_changed(edited)

    def reset(self) -> None:
        self._evaluator.reset()

    def update_ram(self) -> None:
        self._evaluator.update_ram()

    def lookup_value(self, name: str) -> int | float | bool | None:
        return self._evaluator.lookup_value(name)

    def set_value(self, name: str, value: int | float | bool | None) -> None:
        self._evaluator.set_value(name, value)

    def lookup_all(self) -> dict[str, int]:
        return self._evaluator.lookup_all()

    def current_reward(self, player: int = 0) -> float:
        return self._evaluator.current_reward(player)

    def total_reward(self, player: int = 0) -> float:
        return self._evaluator.total_reward(player)

    def is_done(self) -> bool:
        return self._evaluator.is_done()
