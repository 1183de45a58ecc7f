"""Named memory searches of the open game, side by side (the model behind the search panel). No Qt.

A :class:`SearchBook` holds :class:`~emucore.search.MemorySearch` objects by name, one of them
current, and forwards the panel's commands (start, refine, undo, redo, remove) to the current
one. Its ``events`` say when the list of names or the current one changes (``searches``) and when
the current search's candidates change (``candidates``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from psygnal import Signal, SignalGroup

from emucore.search import DEFAULT_TYPES, HistoryEntry, MemorySearch, system_types
from emucore.systems import systems

# Type lists offered by the panel: title -> type strings (None: the system's own list).
TYPE_PRESETS: dict[str, tuple[str, ...] | None] = {
    "System types": None,
    "All 44 types": DEFAULT_TYPES,
    "1 byte": ("|u1", "|i1", "|d1"),
    "2 bytes": ("<u2", ">u2", "<i2", ">i2", "<d2", ">d2"),
    "4 bytes": ("<u4", ">u4", "<i4", ">i4", "<d4", ">d4"),
}
WIDER = {"1 byte": "2 bytes", "2 bytes": "4 bytes", "4 bytes": "System types", "System types": "All 44 types"}


def default_preset(system_name: str | None, remembered: dict[str, str] | None = None) -> str:
    """The type list a new search of this system starts with: the user's last choice for the
    system, else 1 byte on 8-bit systems and the system's types elsewhere."""
    chosen = (remembered or {}).get(system_name or "")
    if chosen in TYPE_PRESETS:
        return chosen
    # a CPU that works a byte at a time: games keep counters in single bytes, so a search starts with 1-byte
    # types there (as BizHawk's RAM search does); others start with the system's
    system = systems().get(system_name or "")
    return "1 byte" if system is not None and system.word_bits == 8 else "System types"


def switch_hint(preset: str, count: int) -> str:
    """What to try when a search with ``preset`` types ran out of candidates ("" otherwise)."""
    wider = WIDER.get(preset)
    if count or wider is None:
        return ""
    return (f"No candidate is left with {preset.lower()}: the value may be wider or encoded otherwise. "
            f"Try \"{wider}\" and start again.")


def proposed_name(search: str | None, address: int) -> str:
    """A variable's name from its search's ("Lives" or "lives (equal)": ``lives``; "lives (equal) 2", the
    wizard's second search, too: the number only tells the searches apart), else ``var_<address>``."""
    words = re.sub(r"\)\s+\d+\s*$", ")", search or "")
    words = re.sub(r"\(.*\)", "", words).strip().lower()
    name = re.sub(r"\W+", "_", words).strip("_")
    return name if name and not re.fullmatch(r"search_\d+", name) else f"var_{address:x}"


def parse_value(text: str) -> int | None:
    """``""`` -> None; decimal, ``0x`` hex or ``$`` hex, optionally negative; ValueError otherwise."""
    text = text.strip().replace("_", "")
    if not text:
        return None
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-").strip()
    if text.startswith("$"):
        return sign * int(text[1:], 16)
    return sign * int(text, 0)


class SearchBookEvents(SignalGroup):
    searches = Signal()
    """The list of names or the current search changed."""
    candidates = Signal()
    """The current search's candidates changed."""
    value_text = Signal()
    """A search's value box was edited (its text is kept, and saved)."""


class SearchBook:
    """The named searches of one game.

    Args:
        emulator: The emulator searched, or a function returning it (e.g. ``lambda: session.emulator``).
    """

    def __init__(self, emulator: Any | Callable[[], Any]):
        self._emulator = emulator if callable(emulator) and not hasattr(emulator, "memory") else (lambda: emulator)
        self._searches: dict[str, MemorySearch] = {}
        self.current_name: str | None = None
        self.events = SearchBookEvents()
        self.value_texts: dict[str, str] = {}  # each search's own value box

    @property
    def emulator(self) -> Any:
        """The emulator searched now."""
        return self._emulator()

    def set_value_text(self, name: str, text: str) -> None:
        """What the value box of search ``name`` holds (kept with the searches)."""
        self.value_texts[name] = text
        self.events.value_text.emit()

    # ---- names ----

    def names(self) -> list[str]:
        """The searches' names, oldest first."""
        return list(self._searches)

    def __contains__(self, name: object) -> bool:
        return name in self._searches

    def __len__(self) -> int:
        return len(self._searches)

    def get(self, name: str) -> MemorySearch:
        """The search called ``name``; KeyError if there is none."""
        try:
            return self._searches[name]
        except KeyError:
            raise KeyError(f"no search named {name!r}") from None

    @property
    def current(self) -> MemorySearch | None:
        """The search the panel shows and refines (None before the first)."""
        return self._searches.get(self.current_name) if self.current_name is not None else None

    def _free_name(self, base: str = "Search") -> str:
        number = len(self._searches) + 1
        while f"{base} {number}" in self._searches:
            number += 1
        return f"{base} {number}"

    def _check_name(self, name: str) -> str:
        name = name.strip()
        if not name:
            raise ValueError("a search needs a name")
        if name in self._searches:
            raise ValueError(f"there is already a search named {name!r}")
        return name

    def create(self, name: str | None = None, types: Iterable[str] | None = None, value: int | None = None) -> str:
        """Starts a new search (unknown value, or ``value``) and makes it current; returns its name."""
        name = self._check_name(name) if name is not None else self._free_name()
        search = MemorySearch(self.emulator, types, value=value)
        return self.add(name, search)

    def add(self, name: str, search: MemorySearch) -> str:
        """Adds a search made elsewhere (``compare_states``, ``search_movie``) and makes it current."""
        name = self._check_name(name)
        self._searches[name] = search
        self.current_name = name
        self.events.searches.emit()
        self.events.candidates.emit()
        return name

    def rename(self, old: str, new: str) -> None:
        """Renames a search; ValueError for an empty or taken name."""
        self.get(old)
        if new.strip() == old:
            return
        new = self._check_name(new)
        self._searches = {new if k == old else k: v for k, v in self._searches.items()}
        if old in self.value_texts:
            self.value_texts[new] = self.value_texts.pop(old)
        if self.current_name == old:
            self.current_name = new
        self.events.searches.emit()

    def delete(self, name: str) -> None:
        """Deletes a search; its neighbour becomes current."""
        self.get(name)
        names = self.names()
        del self._searches[name]
        self.value_texts.pop(name, None)
        if self.current_name == name:
            index = names.index(name)
            rest = self.names()
            self.current_name = rest[min(index, len(rest) - 1)] if rest else None
        self.events.searches.emit()
        self.events.candidates.emit()

    def select(self, name: str) -> None:
        """Makes ``name`` the current search."""
        self.get(name)
        if name != self.current_name:
            self.current_name = name
            self.events.searches.emit()
            self.events.candidates.emit()

    # ---- the current search ----

    def _search(self) -> MemorySearch:
        search = self.current
        if search is None:
            self.create()
            search = self.current
            assert search is not None
        return search

    def start(self, value: int | None = None, types: Iterable[str] | None = None) -> int:
        """Restarts the current search (a new one if there is none); ``types`` replaces its types."""
        if self.current_name is None:
            self.create(types=types, value=value)
        else:
            if types is not None:
                self._searches[self.current_name] = MemorySearch(self.emulator, types, value=value)
            else:
                self._searches[self.current_name].start(value)
            self.events.candidates.emit()
        return self._search().count

    def refine(self, op: str, value: int | None = None, against: Any = "previous") -> int:
        """Refines the current search (see :meth:`MemorySearch.refine`); returns the count left."""
        count = self._search().refine(op, value, against=against)
        self.events.candidates.emit()
        return count

    def undo(self) -> bool:
        """Undoes the current search's last step."""
        done = self.current is not None and self.current.undo()
        if done:
            self.events.candidates.emit()
        return done

    def redo(self) -> bool:
        """Redoes the current search's last undone step."""
        done = self.current is not None and self.current.redo()
        if done:
            self.events.candidates.emit()
        return done

    def remove(self, items: Iterable[Any] = (), *, addresses: Iterable[int] = ()) -> int:
        """Removes candidates from the current search (rows, ``(address, type)`` pairs or addresses)."""
        search = self._search()
        before = search.count
        count = search.remove(items, addresses=addresses)
        if count != before:
            self.events.candidates.emit()
        return count

    def history(self) -> list[HistoryEntry]:
        """The current search's steps with their candidate counts (empty without a search)."""
        return self.current.history if self.current is not None else []

    def default_types(self) -> tuple[str, ...]:
        """The system's search types (its descriptor's, else the built-in 44)."""
        return system_types(getattr(self.emulator, "system", None))
