"""Reading the memory of labelled save states, for the solvers (:mod:`emucore.assist.value_solver`,
:mod:`emucore.assist.done_suggestion`): each state is loaded once, its memory copied into a
:class:`~emucore.search.snapshot.Snapshot`, and the emulator's own state loaded back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from emucore.search.snapshot import Snapshot

StateLike = bytes | bytearray | memoryview | Snapshot


def snapshots_of(emulator: Any, states: Iterable[StateLike], what: str) -> Iterator[Snapshot]:
    """A snapshot per state, lazily; the emulator's state is restored when the iteration ends.

    ``what`` names the argument in errors (``"checkpoint"``, ``"alive state"``): a state the
    core rejects raises ValueError naming its index and the core's reason.
    """
    saved: bytes | None = None
    try:
        for index, state in enumerate(states):
            if isinstance(state, Snapshot):
                yield state
                continue
            if not isinstance(state, (bytes, bytearray, memoryview)):
                raise ValueError(f"{what} {index}: a state is bytes from emulator.get_state(), "
                                 f"not {type(state).__name__}")
            if saved is None:
                saved = emulator.get_state()
            try:
                emulator.set_state(bytes(state))
            except ValueError as exc:
                raise ValueError(f"{what} {index}: {exc}") from exc
            yield Snapshot.capture(emulator.memory, None, f"{what} {index}")
    finally:
        if saved is not None:
            emulator.set_state(saved)


def same_layout(snapshots: list[Snapshot], what: str) -> None:
    """ValueError unless every snapshot has the first one's memory layout."""
    for index, snap in enumerate(snapshots[1:], 1):
        if snap.layout != snapshots[0].layout:
            raise ValueError(f"{what} {index} has another memory layout than {what} 0 (another game or core?)")
