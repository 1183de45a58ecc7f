"""stable-retro's ``GameData``: its API over emucore's :class:`~emucore.scenario.evaluator.Evaluator`.

One class serves both of stable-retro's uses of it:

- ``env.data``: the view of an env's live evaluator (``GameData.bound_to(env.evaluator)``); ``load``
  puts the files' variables and scenario in place in that evaluator, over the same memory and actions.
- ``retro.data.GameData(game)`` (or ``GameData()``, then ``load(...)``): made from a game's files, before
  or without an env, and bound to an emulator's memory by ``RetroEmulator.configure_data``::

      data = retro.data.GameData("Airstriker-Genesis-v0")
      data.list_variables()                                    # works without an emulator
      emulator = retro.RetroEmulator(rom)
      emulator.configure_data(data)
      emulator.step(); data.update_ram(); data.lookup_all()

  Until an emulator is configured, memory is empty, so the variables read as unmapped
  (``lookup_value`` raises ``IndexError`` naming the address).

Beyond the evaluation it forwards, it has stable-retro's item access (``data["x"]``), variable editing
(``get_variable``, ``set_variable``, ``remove_variable``, ``list_variables``, ``vars``), the action and
crop queries, ``load`` / ``save`` and stable-retro's memory search (:mod:`emucore.retro.gamedata_search`).
A variable is a dict ``{"address": int, "type": str}`` as in stable-retro, plus ``"mask"`` when data.json
gives one (stable-retro drops masks here). An edit takes effect at the next evaluation.

The env's step never goes through this class: it calls its evaluator directly.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.fileio import atomic_write_text
from emucore.host.memory import AddressSpace
from emucore.integration import dump_data_json, read_data_json, read_scenario_json, write_scenario_json
from emucore.integration.datafile import Variable, variables_from_info
from emucore.retro.gamedata_search import Search
from emucore.retro.search_handles import Memory, Searches, SearchListHandle
from emucore.scenario.actions import ActionGroups
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.loader import GameDataSources, load_game_data, read_sources
from emucore.scenario.model import Scenario

if TYPE_CHECKING:
    from emucore.host.emulator import Emulator


def _as_dict(variable: Variable) -> dict[str, Any]:
    found: dict[str, Any] = {"address": variable.address, "type": variable.type}
    if variable.mask is not None:
        found["mask"] = variable.mask
    return found


def _json_file(game: str, given: str | None, default: str, inttype: Any) -> str | None:
    """stable-retro's resolution: a name gets ``.json``; a relative one is looked up in the game."""
    import emucore.data as retro_data  # the public functions, which callers may have replaced

    if not given:
        return retro_data.get_file_path(game, default, inttype)
    name = given if given.endswith(".json") else given + ".json"
    return name if os.path.isabs(name) else retro_data.get_file_path(game, name, inttype)


class Variables:
    """``data.vars``: the variables as a dict-like view (``vars["x"]``, ``del vars["x"]``, ``in``).

    Iterating gives ``(name, definition)`` pairs, as stable-retro's ``Variables`` does.
    """

    def __init__(self, data: GameData):
        self.data = data

    def __getitem__(self, name: str) -> dict[str, Any]:
        return self.data.get_variable(name)

    def __setitem__(self, name: str, definition: Mapping[str, Any]) -> None:
        self.data.set_variable(name, definition)

    def __delitem__(self, name: str) -> None:
        self.data.remove_variable(name)

    def __iter__(self) -> Iterator[tuple[str, dict[str, Any]]]:
        yield from self.data.list_variables().items()

    def __contains__(self, name: object) -> bool:
        return name in self.data.variables

    def __len__(self) -> int:
        return len(self.data.variables)


class GameData:
    """``GameData(game=None, data=None, scenario=None, inttype=Integrations.DEFAULT)``: with ``game``,
    its ``data.json`` and ``scenario.json`` (or the files named by ``data`` and ``scenario``); with
    paths only, those files; with nothing, no variables until :meth:`load`. An env's ``env.data`` is
    :meth:`bound_to` its evaluator instead.
    """

    def __init__(self, game: str | None = None, data: str | None = None, scenario: str | None = None,
                 inttype: Any = None):
        self._emulator: Emulator | None = None
        # the files a made GameData is rebuilt from (load, configure); None in an env's view
        self._sources: GameDataSources | None = GameDataSources()
        self._evaluator = Evaluator({}, Scenario.parse(None), self._address_space, ActionGroups([], []))
        self._searches = Searches(self._address_space, lambda: self._evaluator.search_types)
        if game:
            data = _json_file(game, data, "data.json", inttype)
            scenario = _json_file(game, scenario, "scenario.json", inttype)
        if data:
            self.load(data, scenario)

    @classmethod
    def bound_to(cls, evaluator: Evaluator) -> GameData:
        """The ``env.data`` of an env whose evaluator is ``evaluator``: ``load`` reloads it in place."""
        data = cls()
        data._sources = None
        data._evaluator = evaluator
        return data

    @property
    def evaluator(self) -> Evaluator:
        """emucore's evaluator this GameData forwards to (rebuilt by ``load`` and ``configure`` when made
        from files; an env's own for ``env.data``)."""
        return self._evaluator

    def _address_space(self) -> AddressSpace:
        if self._sources is None:
            return self._evaluator.address_space()
        return self._emulator.memory if self._emulator is not None else AddressSpace([])

    # ---- files ----

    def load(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """stable-retro's ``GameData.load(data, scen)``: reads data.json-style variables from ``data`` and a
        scenario (with its Lua scripts) from ``scen``; either may be None. Returns True.

        In an env's ``env.data``, they replace those in force (None keeps what is there): from the next
        evaluation on they are what is measured, from rewards 0; the action groups stay, as the env's
        action space was made from them.

        Raises:
            IntegrationError: a file cannot be read or is malformed, or (in an env) the scenario names a
                variable the variables lack (the message names the file); nothing is changed then.
        """
        if self._sources is not None:
            self._sources = GameDataSources(Path(data) if data else None, Path(scen) if scen else None)
            self._rebuild(keep_variables=False)
            return True
        evaluator = self._evaluator
        variables = read_data_json(Path(data))[0] if data is not None else dict(evaluator.variables)
        raw = read_scenario_json(Path(scen)) if scen is not None else None
        evaluator.reload(variables, raw, Path(scen) if scen is not None else None)
        return True

    def save(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """stable-retro's ``GameData.save(data, scen)``: the variables (as edited) to ``data`` and the scenario
        loaded to ``scen``, each written atomically in stable-retro's layout; either may be None. Returns True."""
        if data:
            atomic_write_text(Path(data), dump_data_json(dict(self.variables)))
        if scen:
            write_scenario_json(Path(scen), self._evaluator.scenario_json or {})
        return True

    def configure(self, emulator: Emulator) -> None:
        """Reads ``emulator``'s memory from now on (``RetroEmulator.configure_data`` calls this).

        Raises:
            TypeError: this is an env's ``env.data``, whose emulator is the env's.
        """
        if self._sources is None:
            raise TypeError("configure_data: an env's env.data reads the env's emulator; make a GameData for another")
        self._emulator = emulator
        self._rebuild(keep_variables=True)

    def _rebuild(self, keep_variables: bool) -> None:
        """Builds the evaluator from the sources over the current memory; ``keep_variables`` keeps
        the variables as they are (edits included) instead of reading data.json again.

        Without an emulator, only the files are read: the system's buttons, the scripts and the
        checks against memory come with ``configure``."""
        assert self._sources is not None
        sources = self._sources
        if keep_variables:
            sources = replace(sources, variables=dict(self.variables))
        if self._emulator is not None:
            loaded = load_game_data(sources, self._emulator.system, self._address_space)
            for message, category in loaded.warnings:
                warnings.warn(message, category, stacklevel=4)
            self._evaluator = loaded.data
        else:
            variables, _, raw, scenario = read_sources(sources)
            self._evaluator = Evaluator(variables, scenario, self._address_space, ActionGroups([], []))
            self._evaluator.scenario_json = raw

    # ---- the evaluation (the evaluator's) ----

    @property
    def variables(self) -> dict[str, Any]:
        return self._evaluator.variables

    @property
    def scenario(self) -> Scenario:
        return self._evaluator.scenario

    @property
    def actions(self) -> ActionGroups:
        return self._evaluator.actions

    def reset(self) -> None:
        self._evaluator.reset()

    def update_ram(self) -> None:
        self._evaluator.update_ram()

    def lookup_value(self, name: str) -> int | float | bool | None:
        """A custom variable, else a data.json variable's live value; KeyError if neither."""
        return self._evaluator.lookup_value(name)

    def set_value(self, name: str, value: int | float | bool | None) -> None:
        """A data.json variable is written to memory (all its bytes); any other name is a custom variable."""
        self._evaluator.set_value(name, value)

    def lookup_all(self) -> dict[str, int]:
        """The ``info`` dict: mapped data.json variables and custom variables, as ints, in stable-retro's order."""
        return self._evaluator.lookup_all()

    def current_reward(self, player: int = 0) -> float:
        return self._evaluator.current_reward(player)

    def total_reward(self, player: int = 0) -> float:
        return self._evaluator.total_reward(player)

    def is_done(self) -> bool:
        return self._evaluator.is_done()

    def __getitem__(self, name: str) -> int | float | bool | None:
        """``lookup_value(name)``: a custom variable, else the variable's live value; KeyError if neither."""
        return self.lookup_value(name)

    def __setitem__(self, name: str, value: int | float | bool | None) -> None:
        """``set_value(name, value)``: writes a variable to memory, or sets a custom variable."""
        self.set_value(name, value)

    # ---- variables ----

    def get_variable(self, name: str) -> dict[str, Any]:
        """The variable's definition; KeyError naming it if there is none."""
        variable = self.variables.get(name)
        if variable is None:
            raise KeyError(f"no variable named {name!r}")
        return _as_dict(variable)

    def set_variable(self, name: str, definition: Mapping[str, Any]) -> None:
        """Adds or replaces a variable: ``definition`` holds ``address`` and ``type`` (and may hold ``mask``).

        Raises:
            IntegrationError: the definition is not one data.json could hold (the message says why).
        """
        if not isinstance(definition, Mapping):
            found = type(definition).__name__
            raise TypeError(f"set_variable({name!r}, ...): the definition must be a dict, not {found}")
        parsed = variables_from_info({name: dict(definition)}, Path("set_variable"), strict=True)
        self.variables[name] = parsed[name]
        self._evaluator.variables_changed(name)

    def remove_variable(self, name: str) -> None:
        """Removes a variable; KeyError if there is none, ValueError if the scenario measures it."""
        if name not in self.variables:
            raise KeyError(f"no variable named {name!r}")
        if name in self.scenario.variable_names():
            raise ValueError(f"variable {name!r} is measured by the scenario's reward or done: it cannot be removed")
        del self.variables[name]
        self._evaluator.variables_changed(name)

    def list_variables(self) -> dict[str, dict[str, Any]]:
        """Every variable's definition, by name."""
        return {name: _as_dict(variable) for name, variable in self.variables.items()}

    @property
    def vars(self) -> Variables:
        return Variables(self)

    # ---- actions and crops ----

    def valid_actions(self) -> list[list[int]]:
        return self.actions.valid_actions()

    def filter_action(self, mask: int) -> int:
        return self.actions.filter(mask)

    def crop_info(self, player: int = 0) -> tuple[int, int, int, int]:
        return self.scenario.crop(player)

    # ---- memory search ----

    def search(self, name: str, value: int) -> None:
        """Narrows search ``name`` (made if new) to what reads as ``value`` now, as stable-retro does."""
        self._searches.search(name, value)

    def delta_search(self, name: str, op: str, ref: int) -> None:
        """Narrows search ``name`` to what changed since its last search as ``op`` (``"equal"``,
        ``"less-than"``, ...) and ``ref`` say; ValueError for an unknown op."""
        self._searches.delta_search(name, op, ref)

    def get_search(self, name: str) -> Search:
        """The search; KeyError naming it if there is none."""
        return self._searches.get(name)

    def remove_search(self, name: str) -> None:
        """Forgets the search; KeyError naming it if there is none."""
        self._searches.remove(name)

    def list_searches(self) -> dict[str, Search]:
        """The searches by name, in stable-retro's order."""
        return self._searches.listing()

    @property
    def searches(self) -> SearchListHandle:
        return SearchListHandle(self)

    @property
    def memory(self) -> Memory:
        """stable-retro's ``Memory``: ``extract``, ``assign``, ``blocks``, ``[{"address", "type"}]``."""
        return Memory(self._address_space())


__all__ = ["GameData", "Variables"]
