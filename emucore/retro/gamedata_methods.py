"""stable-retro's ``GameData`` methods that :class:`emucore.scenario.evaluator.Evaluator` offers on top of its
evaluation: item access (``data["x"]``), editing the variables (``get_variable``, ``set_variable``,
``remove_variable``, ``list_variables``, ``vars``), the action and crop queries, and memory search
(``search``, ``delta_search``, ``get_search``, ``remove_search``, ``list_searches``, ``searches``,
``memory``: :mod:`emucore.retro.gamedata_search`), and ``load`` / ``save`` of data.json and scenario.json.

A variable is a dict ``{"address": int, "type": str}`` as in stable-retro, plus ``"mask"`` when
data.json gives one (stable-retro drops masks here). An edit takes effect at the next evaluation.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emucore.fileio import atomic_write_text
from emucore.integration import dump_data_json, read_data_json, read_scenario_json, write_scenario_json
from emucore.integration.datafile import Variable, VariableLike, variables_from_info
from emucore.retro.gamedata_search import Search
from emucore.retro.search_handles import Memory, Searches, SearchListHandle

if TYPE_CHECKING:
    from emucore.host.memory import AddressSpace
    from emucore.scenario.actions import ActionGroups
    from emucore.scenario.model import Scenario


def _as_dict(variable: Variable) -> dict[str, Any]:
    found: dict[str, Any] = {"address": variable.address, "type": variable.type}
    if variable.mask is not None:
        found["mask"] = variable.mask
    return found


class Variables:
    """``data.vars``: the variables as a dict-like view (``vars["x"]``, ``del vars["x"]``, ``in``).

    Iterating gives ``(name, definition)`` pairs, as stable-retro's ``Variables`` does.
    """

    def __init__(self, data: GameDataMethods):
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


class GameDataMethods:
    """The methods; the class using them provides the attributes and methods declared here."""

    variables: dict[str, Any]
    actions: ActionGroups
    scenario: Scenario
    search_types: tuple[str, ...] | None = None  # the system's search types (stable-retro's core "types")
    scenario_json: dict | None = None  # the decoded scenario.json ``scenario`` was parsed from: what save writes

    if TYPE_CHECKING:
        def lookup_value(self, name: str) -> int | float | bool | None: ...

        def set_value(self, name: str, value: int | float | bool | None) -> None: ...

        def _variables_changed(self, edited: str | None = None) -> None: ...

        def _live_memory(self) -> AddressSpace: ...

        def _reload(self, variables: Mapping[str, VariableLike], raw: dict | None, source: Path | None) -> None:
            """Puts ``variables`` and the scenario ``raw`` decoded from ``source`` (None: the one in force) in place."""

    def __getitem__(self, name: str) -> int | float | bool | None:
        """``lookup_value(name)``: a custom variable, else the variable's live value; KeyError if neither."""
        return self.lookup_value(name)

    def __setitem__(self, name: str, value: int | float | bool | None) -> None:
        """``set_value(name, value)``: writes a variable to memory, or sets a custom variable."""
        self.set_value(name, value)

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
        self._variables_changed(name)

    def remove_variable(self, name: str) -> None:
        """Removes a variable; KeyError if there is none, ValueError if the scenario measures it."""
        if name not in self.variables:
            raise KeyError(f"no variable named {name!r}")
        if name in self.scenario.variable_names():
            raise ValueError(f"variable {name!r} is measured by the scenario's reward or done: it cannot be removed")
        del self.variables[name]
        self._variables_changed(name)

    def list_variables(self) -> dict[str, dict[str, Any]]:
        """Every variable's definition, by name."""
        return {name: _as_dict(variable) for name, variable in self.variables.items()}

    @property
    def vars(self) -> Variables:
        return Variables(self)

    # ---- files ----

    def load(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """stable-retro's ``GameData.load(data, scen)``: the variables of the data.json at ``data`` and the
        scenario (with its Lua scripts) of the scenario.json at ``scen`` replace those in force; either may be
        None, keeping what is there. From the next evaluation on they are what is measured, from rewards 0
        (the action groups stay: an env's action space was made from them). Returns True.

        Raises:
            IntegrationError: a file cannot be read or is malformed, or the scenario names a variable the
                variables lack (the message names the file); nothing is changed then.
        """
        variables = read_data_json(Path(data))[0] if data is not None else dict(self.variables)
        scenario = read_scenario_json(Path(scen)) if scen is not None else None
        self._reload(variables, scenario, Path(scen) if scen is not None else None)
        if scenario is not None:
            self.scenario_json = scenario
        return True

    def save(self, data: str | os.PathLike[str] | None = None, scen: str | os.PathLike[str] | None = None) -> bool:
        """stable-retro's ``GameData.save(data, scen)``: the variables (as edited) to ``data`` and the scenario to
        ``scen``, each written atomically in stable-retro's layout; either may be None. Returns True."""
        if data is not None:
            atomic_write_text(Path(data), dump_data_json(dict(self.variables)))
        if scen is not None:
            write_scenario_json(Path(scen), self.scenario_json or {})
        return True

    def valid_actions(self) -> list[list[int]]:
        return self.actions.valid_actions()

    def filter_action(self, mask: int) -> int:
        return self.actions.filter(mask)

    def crop_info(self, player: int = 0) -> tuple[int, int, int, int]:
        return self.scenario.crop(player)

    # ---- memory search ----

    def _searches(self) -> Searches:
        found = self.__dict__.get("_retro_searches")
        if found is None:
            found = self.__dict__["_retro_searches"] = Searches(self._live_memory, lambda: self.search_types)
        return found

    def search(self, name: str, value: int) -> None:
        """Narrows search ``name`` (made if new) to what reads as ``value`` now, as stable-retro does."""
        self._searches().search(name, value)

    def delta_search(self, name: str, op: str, ref: int) -> None:
        """Narrows search ``name`` to what changed since its last search as ``op`` (``"equal"``,
        ``"less-than"``, ...) and ``ref`` say; ValueError for an unknown op."""
        self._searches().delta_search(name, op, ref)

    def get_search(self, name: str) -> Search:
        """The search; KeyError naming it if there is none."""
        return self._searches().get(name)

    def remove_search(self, name: str) -> None:
        """Forgets the search; KeyError naming it if there is none."""
        self._searches().remove(name)

    def list_searches(self) -> dict[str, Search]:
        """The searches by name, in stable-retro's order."""
        return self._searches().listing()

    @property
    def searches(self) -> SearchListHandle:
        return SearchListHandle(self)

    @property
    def memory(self) -> Memory:
        """stable-retro's ``Memory``: ``extract``, ``assign``, ``blocks``, ``[{"address", "type"}]``."""
        return Memory(self._live_memory())
