"""``MemorySearch``: find where a game keeps a value by refining candidates across snapshots.

>>> from emucore import Emulator
>>> from emucore.paths import integrations_dir
>>> emulator = Emulator(integrations_dir() / "StudioDemo-Nes" / "rom.nes")
>>> emulator.run_frames(60)
>>> s = MemorySearch(emulator, ["|u1"])   # every address as a byte (by default every type of the system)
>>> emulator.set_button_mask(1 << 7); emulator.run_frames(10)     # hold RIGHT
>>> s.refine("increased")                 # compares with the previous snapshot, takes a new one
9
>>> emulator.set_button_mask(0); emulator.run_frames(10)
>>> s.refine("unchanged")
5
>>> [(hex(c.address), c.type, c.value) for c in s.candidates[:2]]   # x, then a sprite's copy of it
[('0x16', '|u1', 130), ('0x203', '|u1', 130)]
>>> s.undo(), s.redo()                    # candidate sets and snapshots restored exactly
(True, True)

Plain numpy, no Qt: usable from a notebook, a script or the studio.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from emucore.host.memory import AddressSpace
from emucore.search.candidates import Candidate, Candidates, CandidateSet
from emucore.search.ops import OPS, decode_all, describe, refine_set
from emucore.search.snapshot import Layout, Snapshot, layout_of, snapshot_from_state
from emucore.search.typelist import search_types, system_types

MAX_HISTORY = 200  # steps kept for undo (the oldest after the start are dropped)


@dataclass(frozen=True)
class Step:
    """One entry of a search's history: what was done, and everything needed to go back to it.

    Attributes:
        label: ``"start"``, ``"increased"``, ``"equal 3"``, ``"remove 2"``...
        candidates: The candidate set after the step.
        reference: The snapshot the next refinement compares with ("previous").
        compared: The snapshot this step compared with (None: the step compared no snapshot).
    """

    label: str
    candidates: CandidateSet
    reference: Snapshot
    compared: Snapshot | None = None

    @property
    def count(self) -> int:
        """Candidates after this step."""
        return self.candidates.count


class HistoryEntry(NamedTuple):
    """A step as a history list shows it."""

    label: str
    count: int  # type: ignore[assignment]  # a public field: the name shadows tuple.count
    current: bool  # the step the search is at (later ones can be redone)


def _memory_of(source: Any) -> AddressSpace:
    return source if isinstance(source, AddressSpace) else source.memory


class MemorySearch:
    """A memory search over an emulator's address space (see the module docstring).

    Args:
        emulator: An :class:`~emucore.host.emulator.Emulator` (anything with ``memory`` and ``system``,
            or an :class:`~emucore.host.memory.AddressSpace`).
        types: The type strings to try; default: the system's ``types``, else the 44 built-in ones.
        value: Start from this value instead of an unknown one.
    """

    OPS = OPS

    def __init__(self, emulator: Any, types: Iterable[str] | None = None, *, value: int | None = None):
        self.emulator = emulator
        if types is None:
            types = system_types(getattr(emulator, "system", None))
        self.search_types = search_types(types)
        self.types: tuple[str, ...] = tuple(st.text for st in self.search_types)
        self._steps: list[Step] = []
        self._at = -1
        self.first: Snapshot
        self.start(value)

    @classmethod
    def restore(cls, emulator: Any, types: Iterable[str], steps: Iterable[Step], at: int,
                first: Snapshot) -> MemorySearch:
        """A search rebuilt exactly from saved parts (its :attr:`types`, :attr:`steps`,
        :attr:`position` and :attr:`first`), nothing recomputed.

        Raises:
            ValueError: the parts do not fit together or not ``emulator``'s memory layout (saved
                from another game or core): no step, ``at`` out of range, a snapshot or candidate
                set of another layout, a part of the wrong shape, type or order.
        """
        search = cls.__new__(cls)
        search.emulator = emulator
        search.search_types = search_types(types)
        search.types = tuple(st.text for st in search.search_types)
        layout = layout_of(_memory_of(emulator))
        steps = list(steps)
        if not steps:
            raise ValueError("a search has at least its start step")
        if not 0 <= at < len(steps):
            raise ValueError(f"the position {at} is not one of the {len(steps)} steps")
        _check_snapshot(first, layout, "the first snapshot")
        for number, step in enumerate(steps):
            where = f"step {number} ({step.label!r})"
            _check_snapshot(step.reference, layout, f"{where}'s reference snapshot")
            if step.compared is not None:
                _check_snapshot(step.compared, layout, f"{where}'s compared snapshot")
            _check_candidates(step.candidates, layout, len(search.types), where)
        search._steps, search._at, search.first = steps, at, first
        return search

    # ---- snapshots ----

    def snapshot(self, label: str = "") -> Snapshot:
        """A frozen copy of memory now (to pass as ``against=`` later); the search is not changed."""
        frame = getattr(self.emulator, "frame_count", None)
        return Snapshot.capture(_memory_of(self.emulator), frame if isinstance(frame, int) else None, label)

    @property
    def previous(self) -> Snapshot:
        """The snapshot the next refinement compares with (taken at the last refinement)."""
        return self._steps[self._at].reference

    # ---- steps ----

    def start(self, value: int | None = None, *, snapshot: Snapshot | None = None) -> int:
        """Starts over from a new snapshot: every address and type, or those equal to ``value``.

        Returns:
            The number of candidates.
        """
        snap = snapshot or self.snapshot("start")
        self.first = snap
        everything = CandidateSet.everything(snap.layout, len(self.search_types))
        self._steps, self._at = [Step("start", everything, snap)], 0
        decode_all(snap, self.search_types)
        if value is not None:
            cset = refine_set(everything, self.search_types, "equal", int(value), snap)
            self._steps = [Step(f"start = {value}", cset, snap)]
        return self.count

    def refine(self, op: str, value: int | None = None, *, against: str | Snapshot | bytes = "previous",
               snapshot: Snapshot | None = None) -> int:
        """Keeps the candidates for which ``op`` holds, then makes memory now the "previous" snapshot.

        Args:
            op: One of :data:`OPS` (``less``/``greater``, the old names, are still accepted).
                ``equal``/``not-equal``/``less-than``/``greater-than`` compare with
                ``value`` when given, else with the ``against`` snapshot (as ``unchanged``,
                ``changed``, ``decreased``, ``increased``). ``increased-by``/``decreased-by``
                need ``value``, the exact amount.
            value: See ``op``.
            against: ``"previous"`` (the last refinement's snapshot), ``"first"`` (the start's), a
                :class:`Snapshot`, or a save state's bytes (memory is read from it without
                disturbing the emulator; see :func:`~emucore.search.snapshot.snapshot_from_state`).
            snapshot: Memory to test instead of memory now.

        Returns:
            The number of candidates left.

        Raises:
            ValueError: an unknown op, a missing or unexpected value, or a snapshot of another layout.
        """
        reference, where = self._resolve(against)
        current = snapshot or self.snapshot()
        cset = refine_set(self.candidates_set, self.search_types, op, value, current, reference)
        self._push(Step(describe(op, value, where), cset, current, reference))
        return self.count

    def _resolve(self, against: str | Snapshot | bytes) -> tuple[Snapshot, str]:
        if isinstance(against, Snapshot):
            return against, against.label or "snapshot"
        if isinstance(against, (bytes, bytearray, memoryview)):
            return snapshot_from_state(self.emulator, bytes(against)), "state"
        if against == "previous":
            return self.previous, ""
        if against == "first":
            return self.first, "first"
        raise ValueError(f"against must be 'previous', 'first', a Snapshot or state bytes, not {against!r}")

    def install(self, candidates: CandidateSet, label: str, reference: Snapshot | None = None) -> int:
        """Adds a step with a candidate set computed elsewhere (state comparison, movie search)."""
        if candidates.layout != self.first.layout or len(candidates.parts) != len(self.search_types):
            raise ValueError("the candidate set does not belong to this search")
        self._push(Step(label, candidates, reference or self.snapshot()))
        return self.count

    def _push(self, step: Step) -> None:
        del self._steps[self._at + 1 :]
        self._steps.append(step)
        if len(self._steps) > MAX_HISTORY:
            del self._steps[1]
        self._at = len(self._steps) - 1

    def remove(self, items: Iterable[Any] = (), *, addresses: Iterable[int] = ()) -> int:
        """Drops candidates, as an undoable step.

        Args:
            items: Rows of :attr:`candidates` (ints), or :class:`Candidate` / ``(address, type)`` pairs.
            addresses: Addresses to drop with every type.

        Returns:
            The number of candidates left.
        """
        cset = self.candidates_set
        layout = cset.layout
        drop: dict[int, list[int]] = {}
        rows: list[Any] = []  # rows of the candidates
        pairs: list[Any] = []  # Candidates and (address, type) pairs
        for item in items:
            (pairs if isinstance(item, tuple) else rows).append(item)
        for row in rows:
            if 0 <= int(row) < cset.count:
                pos, tid = cset.rows(int(row), int(row) + 1)
                drop.setdefault(int(tid[0]), []).append(int(pos[0]))
        for pair in pairs:
            address, text = int(pair[0]), str(pair[1])
            where = int(layout.positions_of(np.array([address]))[0])
            if where >= 0 and text in self.types:
                drop.setdefault(self.types.index(text), []).append(where)
        where_all = layout.positions_of(np.fromiter((int(a) for a in addresses), dtype=np.int64))
        where_all = where_all[where_all >= 0]
        if len(where_all):
            for t in range(len(self.types)):
                drop.setdefault(t, []).extend(int(p) for p in where_all)
        if not drop:
            return self.count
        parts = list(cset.parts)
        for t, positions_t in drop.items():
            parts[t] = cset.without(t, np.array(positions_t, dtype=np.int64))
        new = CandidateSet(layout, parts)
        removed = cset.count - new.count
        self._push(Step(f"remove {removed}", new, self.previous))
        return self.count

    # ---- undo ----

    @property
    def can_undo(self) -> bool:
        """Whether there is a step before this one."""
        return self._at > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone step can be redone."""
        return self._at < len(self._steps) - 1

    def undo(self) -> bool:
        """Back one step (candidates and previous snapshot as they were); False at the start."""
        if not self.can_undo:
            return False
        self._at -= 1
        return True

    def redo(self) -> bool:
        """Forward one undone step; False when there is none."""
        if not self.can_redo:
            return False
        self._at += 1
        return True

    @property
    def history(self) -> list[HistoryEntry]:
        """Every step (including those that can be redone) with its candidate count."""
        return [HistoryEntry(s.label, s.count, i == self._at) for i, s in enumerate(self._steps)]

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step, including those that can be redone (see :attr:`position`)."""
        return tuple(self._steps)

    @property
    def position(self) -> int:
        """The index in :attr:`history` of the current step."""
        return self._at

    @property
    def step(self) -> Step:
        """The current step."""
        return self._steps[self._at]

    # ---- results ----

    @property
    def candidates_set(self) -> CandidateSet:
        """The current candidates as stored (per-type masks or positions)."""
        return self._steps[self._at].candidates

    @property
    def compared(self) -> Snapshot:
        """The snapshot the last refinement compared with (the start's snapshot before any)."""
        for step in reversed(self._steps[: self._at + 1]):
            if step.compared is not None:
                return step.compared
        return self.first

    def snapshots(self) -> list[Snapshot]:
        """Every distinct snapshot the steps up to the current one took or compared with, oldest first."""
        seen: dict[int, Snapshot] = {}
        for step in self._steps[: self._at + 1]:
            for snap in (step.compared, step.reference):
                if snap is not None:
                    seen.setdefault(id(snap), snap)
        return list(seen.values())

    @property
    def candidates(self) -> Candidates:
        """The candidates, by address then type; ``value`` is memory now, ``previous`` at the
        snapshot the last refinement compared with (:attr:`compared`), so a refinement's rows show
        what changed."""
        return Candidates(self.candidates_set, self.search_types, self.compared, self.snapshot)

    @property
    def count(self) -> int:
        """The number of candidates (address and type pairs)."""
        return self.candidates_set.count

    def __len__(self) -> int:
        return self.count

    def counts_by_type(self) -> dict[str, int]:
        """Candidates per type string."""
        return dict(zip(self.types, (int(c) for c in self.candidates_set.counts)))

    def __repr__(self) -> str:
        return f"<MemorySearch {self.count} candidates, {len(self.types)} types, step {self._at}>"


def _check_snapshot(snapshot: Snapshot, layout: Layout, what: str) -> None:
    if snapshot.layout.signature != layout.signature or len(snapshot.buf) != layout.length:
        raise ValueError(f"{what} is of another memory layout (another game or core)")


def _check_candidates(cset: CandidateSet, layout: Layout, types: int, where: str) -> None:
    if cset.layout.signature != layout.signature:
        raise ValueError(f"{where}: the candidates are of another memory layout (another game or core)")
    if len(cset.parts) != types:
        raise ValueError(f"{where}: {len(cset.parts)} candidate parts for {types} types")
    for t, part in enumerate(cset.parts):
        if part is None:
            continue
        if part.ndim != 1:
            raise ValueError(f"{where}: candidate part {t} is not one-dimensional")
        if part.dtype == bool:
            if len(part) != layout.positions:
                raise ValueError(f"{where}: candidate mask {t} has {len(part)} positions, not {layout.positions}")
        elif part.dtype != np.int64:
            raise ValueError(f"{where}: candidate part {t} is {part.dtype}, not a mask or int64 positions")
        elif len(part) and (part[0] < 0 or part[-1] >= layout.positions or np.any(np.diff(part) <= 0)):
            raise ValueError(f"{where}: candidate positions {t} are not sorted, distinct positions of this layout")


__all__ = ["Candidate", "HistoryEntry", "MemorySearch", "Step"]
