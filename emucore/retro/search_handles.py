"""The objects stable-retro's ``GameData`` hands out for memory search: the named searches of one
``GameData`` (with each search's last memory snapshot), ``data.memory``, ``data.searches`` and
``data.searches[name]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from emucore.host.memory import AddressSpace
from emucore.retro.gamedata_search import Frame, Search, checked_type
from emucore.scenario.info_order import StringTable


class Searches:
    """stable-retro's ``m_searches`` and ``m_searchOldMem``: the named searches, listed in the
    order of its ``std::unordered_map``, and the memory each last looked at.

    A removed search's snapshot stays (stable-retro keeps it): a new search of that name running
    ``delta`` first compares with it.
    """

    def __init__(self, memory: Callable[[], AddressSpace], types: Callable[[], tuple[str, ...] | None]):
        self._memory = memory
        self._types = types
        self._searches: dict[str, Search] = {}
        self._order = StringTable()
        self._previous: dict[str, Frame] = {}

    def _named(self, name: str) -> Search:
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        found = self._searches.get(name)
        if found is None:
            found = self._searches[name] = Search(self._types() or None)
            self._order.insert(name)
        return found

    def search(self, name: str, value: int) -> None:
        memory = self._memory()
        self._named(name).search(memory, value)
        self._previous[name] = Frame.of(memory, copy=True)

    def delta_search(self, name: str, op: str, ref: int) -> None:
        search = self._named(name)
        memory = self._memory()
        previous = self._previous.get(name) or Frame.of(memory, copy=True)
        search.delta(memory, previous, op, ref)
        self._previous[name] = Frame.of(memory, copy=True)

    def get(self, name: str) -> Search:
        found = self._searches.get(name)
        if found is None:
            raise KeyError(f"no search named {name!r}")
        return found

    def remove(self, name: str) -> None:
        if name not in self._searches:
            raise KeyError(f"no search named {name!r}")
        del self._searches[name]
        self._order.erase(name)

    def listing(self) -> dict[str, Search]:
        return {name: self._searches[name] for name in self._order}


class Memory:
    """``data.memory``: stable-retro's ``Memory`` over the live address space (through the overlay)."""

    def __init__(self, space: AddressSpace):
        self._space = space

    def extract(self, address: int, type: str) -> int:
        checked_type(type)
        return self._space.read(int(address), type)

    def assign(self, address: int, type: str, value: int) -> None:
        checked_type(type)
        self._space.write(int(address), type, int(value))

    @property
    def blocks(self) -> dict[int, bytes]:
        """``{start: raw bytes}`` of each block, copied."""
        return self._space.block_bytes()

    def __getitem__(self, variable: dict[str, Any]) -> int:
        return self.extract(variable["address"], variable["type"])

    def __setitem__(self, variable: dict[str, Any], value: int) -> None:
        self.assign(variable["address"], variable["type"], value)


class SearchHandle:
    """``data.searches[name]``: runs that search; other attributes are the ``Search``'s."""

    def __init__(self, data: Any, name: str):
        self._data = data
        self._name = name

    def search(self, value: int) -> None:
        self._data.search(self._name, value)

    def delta(self, op: str, ref: int) -> None:
        self._data.delta_search(self._name, op, ref)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(self._data.get_search(self._name), attr)


class SearchListHandle:
    """``data.searches``: ``[name]``, ``del``, ``in`` and iteration over ``(name, Search)`` pairs."""

    def __init__(self, data: Any):
        self._data = data

    def __getitem__(self, name: str) -> SearchHandle:
        return SearchHandle(self._data, name)

    def __delitem__(self, name: str) -> None:
        self._data.remove_search(name)

    def __iter__(self) -> Iterator[tuple[str, Search]]:
        yield from self._data.list_searches().items()

    def __contains__(self, name: object) -> bool:
        return name in self._data.list_searches()

    def load(self, name: str) -> None:
        raise NotImplementedError("searches.load: stable-retro's GameData has no load_searches either")

    def save(self, name: str) -> None:
        raise NotImplementedError("searches.save: stable-retro's GameData has no save_searches either")
