"""The lives wizard: label moments "lives = N" and find where the game keeps N. No Qt.

The integrator labels the state now (or a named save state) with the number a counter has
there: lives 3 at the start, 2 after a death, 1 after another. :meth:`StateLabels.compare` hands
them to :func:`emucore.search.compare_states` and adds the result to the Search dock's book as a
search of its own, which can be refined further like any other. Labels are kept in the game's
workspace, so they survive a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.search import compare_states
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


@dataclass(frozen=True)
class Label:
    """A moment and the value a counter had then."""

    value: int
    frame: int
    state: bytes
    source: str = "now"  # "now" (the moment labelled) or the named save state's name


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
        """Adds a search of the addresses whose values match the labels to ``book``; returns its name.

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
        with self.session.scratch() as emulator:  # the labelled states are loaded in turn: the picture stays
            search = compare_states(emulator, by_value, types, mode=mode)
        base = f"{self.name} ({mode})"
        name, number = base, 2
        while name in book:
            name, number = f"{base} {number}", number + 1
        return book.add(name, search)

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
