"""The lives wizard: label moments "lives = N" and find where the game keeps N. No Qt.

The integrator labels the state now (or a named save state) with the number a counter has
there: lives 3 at the start, 2 after a death, 1 after another. :meth:`StateLabels.compare` hands
them to :func:`emucore.search.compare_states` and adds the result to the Search dock's book as a
search of its own, which can be refined further like any other. In "equal" mode it also tries
the labels one off (a screen that shows lives + 1 over a stored lives - 1, as Find from screen's
bias does): the addresses that hold label - 1 (or + 1) in every state are a search of their own,
and :meth:`Comparison.says` tells the integrator that the labels look one above (or below) the
stored value. Labels are kept in the game's workspace, so they survive a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from emucore.search import MemorySearch, compare_states
from studio.model.play.state_list import StateList
from studio.model.search.search_book import SearchBook
from studio.model.set_aside import OpenProblem

MODES = {
    "equal": "the value equals the label in every state",
    "order": "the values rise and fall as the labels do",
    "order-either": "the values follow the labels, or the reverse (a deaths count)",
}
INDEX = "labels.json"
MAX_LABELS = 32
SHIFTS = (-1, 1)  # stored = label - 1 (the screen shows stored + 1, as lives often are), or label + 1
NAMED = 3  # addresses named in a message


@dataclass(frozen=True)
class Label:
    """A moment and the value a counter had then."""

    value: int
    frame: int
    state: bytes
    source: str = "now"  # "now" (the moment labelled) or the named save state's name


@dataclass(frozen=True)
class Shifted:
    """The addresses that hold the labels one off in every state (``stored = label + offset``)."""

    offset: int
    name: str  # its search in the book
    count: int  # addresses
    where: tuple[str, ...]  # the first few, "0x33 |u1"

    @property
    def looks(self) -> str:
        """What the labels look like against the stored value, in words."""
        return "one above the stored value" if self.offset < 0 else "one below the stored value"

    @property
    def rule(self) -> str:
        return f"label {'-' if self.offset < 0 else '+'} {abs(self.offset)}"


@dataclass(frozen=True)
class Comparison:
    """What :meth:`StateLabels.comparison` found: the search of the labels as given, the shifted
    ones that found something, and ``shown``, the one made current in the book."""

    name: str
    count: int
    shifted: tuple[Shifted, ...] = ()
    shown: str = ""

    def says(self) -> str:
        """The result in words, for the wizard's message line."""
        if not self.shifted:
            if not self.count:
                return (f"No address holds the labels in every state (the search {self.name!r} is empty): check the "
                        "labels, or try the order mode or a wider type list on the Search tab.")
            return (f"{self.count:,} candidates in the search {self.name!r} (Search tab): refine there, or label "
                    "more moments and compare again.")
        best = self.shifted[0]
        where = ", ".join(best.where) + (" ..." if best.count > len(best.where) else "")
        hold = f"{best.count:,} address{'es hold' if best.count > 1 else ' holds'} {best.rule} in every state"
        if not self.count:
            return (f"No address equals the labels, but {hold}: your labels look {best.looks} (the screen shows "
                    f"stored {'+' if best.offset < 0 else '-'} 1). {where}: the search {best.name!r} (Search tab).")
        return (f"{self.count:,} candidates in {self.name!r} (Search tab). Also {hold} ({where}): if the screen shows "
                f"{'one more' if best.offset < 0 else 'one less'} than the game keeps, your labels look {best.looks}: "
                f"the search {best.name!r}.")


class StateLabels:
    """Labelled moments of one game, for one counter (``name``: "lives" by default).

    Args:
        session: The open game (``emulator``, ``frame``, ``states``).
        report: Told about a workspace file that could not be read (it is set aside).
    """

    def __init__(self, session: Any, report: Callable[[OpenProblem], None] | None = None):
        self.session = session
        self.folder = Path(session.states.workspace) / "state_labels"
        self.store: StateList[Label] = StateList(self.folder, INDEX, "labels", "label")
        self.report = report or (lambda problem: None)
        self.name = "lives"
        self.labels: list[Label] = self._load()

    def label_now(self, value: int) -> Label:
        """Labels the state now."""
        return self._add(Label(_value(value), int(self.session.frame), bytes(self.session.emulator.get_state())))

    def label_state(self, state_name: str, value: int) -> Label:
        """Labels one of the integration's named save states."""
        state = self.session.states.load(state_name)
        return self._add(Label(_value(value), -1, bytes(state), state_name))

    def _add(self, label: Label) -> Label:
        if len(self.labels) >= MAX_LABELS:
            raise ValueError(f"at most {MAX_LABELS} labelled states: remove some first")
        self.labels.append(label)
        self._save()
        return label

    def remove(self, index: int) -> None:
        if not 0 <= index < len(self.labels):
            raise IndexError(f"no labelled state {index}")
        del self.labels[index]
        self._save()

    def clear(self) -> None:
        self.labels = []
        self._save()

    def describe(self, label: Label) -> str:
        where = f"frame {label.frame}" if label.source == "now" else f"state {label.source}"
        return f"{self.name} = {label.value} at {where}"

    def compare(self, book: SearchBook, mode: str = "equal", types: Any = None) -> str:
        """Adds a search of the addresses whose values match the labels to ``book``; returns the
        name of the search made current (:meth:`comparison` says more)."""
        return self.comparison(book, mode, types).shown

    def comparison(self, book: SearchBook, mode: str = "equal", types: Any = None) -> Comparison:
        """Adds a search of the addresses whose values match the labels to ``book``, and in
        "equal" mode one for each of :data:`SHIFTS` that finds something; the labels' own search
        stays current unless it is empty and a shifted one is not.

        Raises:
            ValueError: an unknown mode, fewer than two labels, or labels that all have one value.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if len(self.labels) < 2:
            raise ValueError("label at least two moments with different values (e.g. before and after a death)")
        if len({label.value for label in self.labels}) < 2:
            raise ValueError("every label has the same value: label a moment where it differs")
        by_value: dict[int, bytes] = {}
        for label in self.labels:  # compare_states takes one state per value: the latest one
            by_value[label.value] = label.state
        shifted: list[tuple[int, MemorySearch]] = []
        with self.session.scratch() as emulator:  # the labelled states are loaded in turn: the picture stays
            search = compare_states(emulator, by_value, types, mode=mode)
            if mode == "equal":
                for offset in SHIFTS:
                    other = compare_states(emulator, {k + offset: v for k, v in by_value.items()}, types, mode=mode)
                    if other.count:
                        shifted.append((offset, other))
        name = book.add(_free(book, f"{self.name} ({mode})"), search)
        found = tuple(Shifted(offset, book.add(_free(book, f"{self.name} (label {'-' if offset < 0 else '+'} 1)"),
                                               other), *_where(other))
                      for offset, other in shifted)
        shown = name if search.count or not found else found[0].name
        book.select(shown)
        return Comparison(name, search.count, found, shown)

    def steps(self) -> list[str]:
        """The labels in words, for a variable's provenance."""
        return [self.describe(label) for label in self.labels]

    # ---- the workspace ----

    def _save(self) -> None:
        self.store.save([({"value": label.value, "frame": label.frame, "source": label.source}, label.state)
                         for label in self.labels], name=self.name)

    def _load(self) -> list[Label]:
        raw, labels = self.store.load(
            lambda facts, state: Label(_value(facts["value"]), int(facts["frame"]), state, str(facts["source"])),
            self.report, "the lives wizard starts without labels")
        self.name = str(raw.get("name", "lives"))[:64] or "lives"
        return labels[:MAX_LABELS]


def _free(book: SearchBook, base: str) -> str:
    name, number = base, 2
    while name in book:
        name, number = f"{base} {number}", number + 1
    return name


def _where(search: MemorySearch) -> tuple[int, tuple[str, ...]]:
    """How many addresses ``search`` holds, and the first few, each with its first type
    (``"0x33 |u1"``)."""
    candidates = search.candidates
    addresses = candidates.addresses()
    seen: dict[int, str] = {}
    for address, index in zip(addresses[:64].tolist(), candidates.type_indices(0, 64).tolist(), strict=True):
        seen.setdefault(int(address), f"0x{int(address):X} {candidates.types[int(index)]}")
    return len(np.unique(addresses)), tuple(list(seen.values())[:NAMED])


def _value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a label is a whole number, not {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"a label is a whole number, not {value!r}") from None
    if abs(number) >= 1 << 63:
        raise ValueError(f"a label is a whole number below 2**63, not {value!r}")
    return number
