"""What alive and over examples say about every byte and variable, for :mod:`emucore.assist.done_suggestion`.

:class:`Values` reads every probe (each mapped byte as ``|u1``, and the data.json variables) from
a snapshot as one int64 vector; :class:`Evidence` accumulates, per probe and kind of test, whether
the test is true on every over example and on how many alive ones, and how often the value
changed while alive.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore.datatypes import parse_type
from emucore.operations import Operation
from emucore.search.snapshot import Layout, Snapshot
from emucore.search.state_snapshots import StateLike, snapshots_of

EQUAL, NOT_EQUAL, LESS_THAN, GREATER_THAN = (
    Operation.EQUAL, Operation.NOT_EQUAL, Operation.LESS_THAN, Operation.GREATER_THAN)
ZERO, NONZERO, NEGATIVE = Operation.ZERO, Operation.NONZERO, Operation.NEGATIVE
KINDS = (EQUAL, NONZERO, NEGATIVE, LESS_THAN, GREATER_THAN, NOT_EQUAL)  # the tests tried (zero: equal 0)
OP_RANK = {op: rank for rank, op in enumerate((ZERO, NEGATIVE, NONZERO, EQUAL, NOT_EQUAL, LESS_THAN, GREATER_THAN))}
KEEP_BYTES = 256 << 20
MANY_VALUES = 16  # a variable that took more values than this while alive is no flag or counter
SIGN_OPS = (NONZERO, NEGATIVE)  # the tests of a many-valued value that can still be robust (a timer running)


@dataclass(frozen=True)
class Test:
    """One test of a rule: ``op(value, reference)`` on the variable ``(address, type, mask)``.

    ``name`` is the data.json name when the variable is one of ``data``'s; ``changes`` counts
    the alive examples whose value differs from the one before; ``alive_high`` is the largest
    value seen alive; ``values`` how many different values it took while alive (up to
    :data:`MANY_VALUES` + 1); ``tier`` its robustness (0: a flag or counter that takes few
    values while alive; 1: ``nonzero`` or ``negative`` on a value that takes many; 2: an
    equality or a threshold on such a value, as a score equal to what it was at the game over,
    which holds by chance); ``index`` the probe's.
    """

    address: int
    type: str
    op: Operation
    reference: int = 0
    mask: int | None = None
    name: str | None = None
    changes: int = 0
    alive_high: int = 0
    values: int = 0
    tier: int = 0
    index: int = -1

    def spec(self) -> dict[str, Any]:
        """The scenario.json test, its op a plain string as scenario.json holds it."""
        op = Operation(self.op)
        return {"op": op.value, "reference": self.reference} if op.takes_reference else {"op": op.value}

    def label(self) -> str:
        """``"lives"`` or ``"|u1 at 0xff0013"``."""
        return self.name or f"{self.type} at {self.address:#x}"


@dataclass(frozen=True)
class TestedVariable:
    address: int
    type: str
    mask: int | None
    name: str | None


class Values:
    """Every variable's value in a snapshot as one int64 vector: each mapped byte (``|u1``, named
    after a ``|u1`` variable of ``data`` there), then the other variables of ``data``."""

    def __init__(self, layout: Layout, data: list[TestedVariable]):
        self.positions = layout.valid_positions
        addresses = layout.addresses(self.positions)
        named = {v.address: v.name for v in data if v.mask is None and v.type == "|u1"}
        self.variables = [TestedVariable(int(a), "|u1", None, named.get(int(a))) for a in addresses]
        self.extra = [v for v in data if not (v.mask is None and v.type == "|u1")]
        self.variables += self.extra
        self.extra_positions = layout.positions_of(np.array([v.address for v in self.extra], dtype=np.int64))
        for v, position in zip(self.extra, self.extra_positions):
            if position < 0:
                raise ValueError(f"data: variable {v.name!r} is at {v.address:#x}, outside the game's memory")
        self.is_byte = np.arange(len(self.variables)) < len(self.positions)

    def read(self, snap: Snapshot) -> np.ndarray:
        out = np.empty(len(self.variables), dtype=np.int64)
        out[: len(self.positions)] = snap.buf[self.positions]
        for k, (v, position) in enumerate(zip(self.extra, self.extra_positions), len(self.positions)):
            dtype = parse_type(v.type)
            raw = bytes(snap.buf[position : position + dtype.width])
            out[k] = dtype.decode(raw) if v.mask is None else dtype.decode(raw, v.mask & ((1 << 64) - 1))
        return out

    def negative(self, values: np.ndarray) -> np.ndarray:
        return np.where(self.is_byte, values >= 128, values < 0)


class Evidence:
    """Per variable and kind of test: is it true on every over example, on how many alive ones."""

    def __init__(self, values: Values, over: np.ndarray):
        self.values = values
        self.over = over
        low, high = over.min(axis=0), over.max(axis=0)
        self.reference = {EQUAL: over[0], LESS_THAN: high + 1, GREATER_THAN: low - 1,
                          NONZERO: np.zeros_like(low), NEGATIVE: np.zeros_like(low)}
        self.on_over = {EQUAL: low == high, NONZERO: (over != 0).all(axis=0),
                        NEGATIVE: values.negative(over).all(axis=0),
                        LESS_THAN: np.ones(len(low), dtype=bool), GREATER_THAN: np.ones(len(low), dtype=bool)}
        self.true_alive = {kind: np.zeros(len(low), dtype=np.int64) for kind in self.on_over}
        self.alive_low = np.full(len(low), np.iinfo(np.int64).max)
        self.alive_high = np.full(len(low), np.iinfo(np.int64).min)
        self.changes = np.zeros(len(low), dtype=np.int64)
        self.alive = 0
        self._last: np.ndarray | None = None
        self._bytes = int(values.is_byte.sum())
        self._seen_bytes = np.zeros((self._bytes, 256), dtype=bool)
        self._seen_extra: list[set[int]] = [set() for _ in range(len(low) - self._bytes)]

    def truth(self, kind: Operation, values: np.ndarray) -> np.ndarray:
        if kind == EQUAL:
            return values == self.reference[EQUAL]
        if kind == NONZERO:
            return values != 0
        if kind == NEGATIVE:
            return self.values.negative(values)
        if kind == LESS_THAN:
            return values < self.reference[LESS_THAN]
        if kind == GREATER_THAN:
            return values > self.reference[GREATER_THAN]
        return values != self.alive_low  # not-equal: the one value every alive example had

    def add_alive(self, values: np.ndarray) -> None:
        for kind, count in self.true_alive.items():
            count += self.truth(kind, values)
        np.minimum(self.alive_low, values, out=self.alive_low)
        np.maximum(self.alive_high, values, out=self.alive_high)
        if self._last is not None:
            self.changes += values != self._last
        self._last = values
        self.alive += 1
        self._seen_bytes[np.arange(self._bytes), values[: self._bytes]] = True
        for seen, value in zip(self._seen_extra, values[self._bytes :]):
            if len(seen) <= MANY_VALUES:
                seen.add(int(value))

    def distinct(self, index: int) -> int:
        """How many values probe ``index`` took while alive (at most :data:`MANY_VALUES` + 1)."""
        if index < self._bytes:
            return min(int(self._seen_bytes[index].sum()), MANY_VALUES + 1)
        return len(self._seen_extra[index - self._bytes])

    def finish(self) -> None:
        """``not-equal``: every alive example had one value, no over example has it."""
        constant = self.alive_low == self.alive_high
        self.on_over[NOT_EQUAL] = constant & (self.over != self.alive_low).all(axis=0)
        self.true_alive[NOT_EQUAL] = np.where(constant, 0, self.alive)
        self.reference[NOT_EQUAL] = self.alive_low

    def test(self, index: int, kind: Operation) -> Test:
        v = self.values.variables[index]
        reference = int(self.reference[kind][index])
        op = kind
        if kind == EQUAL and reference == 0:
            op = ZERO
        elif kind == NOT_EQUAL and reference == 0:
            op = NONZERO
        address, type_, name = v.address, v.type, v.name
        if kind == NEGATIVE and index < len(self.values.positions):
            type_, name = "|i1", None
        values = self.distinct(index)
        many = values > MANY_VALUES or (values >= 3 and 2 * values >= self.alive)
        tier = (1 if op in SIGN_OPS else 2) if many else 0
        return Test(address, type_, op, reference, v.mask, name, int(self.changes[index]),
                    int(self.alive_high[index]), values, tier, index)

    def rank(self, test: Test) -> tuple:
        return (test.tier, test.name is None, test.changes, OP_RANK[test.op], test.type, test.address)


def data_variables(data: Mapping[str, Any] | None) -> list[TestedVariable]:
    if data is None:
        return []
    if not isinstance(data, Mapping):
        raise ValueError(f"data is data.json's variables by name, not {type(data).__name__}")
    info = data["info"] if isinstance(data.get("info"), Mapping) else data
    out = []
    for name, spec in info.items():
        if not isinstance(spec, Mapping) or isinstance(spec.get("address"), bool) or not isinstance(
                spec.get("address"), int):
            raise ValueError(f"data: variable {name!r} needs an integer address")
        try:
            dtype = parse_type(spec.get("type"))
        except ValueError as exc:
            raise ValueError(f"data: variable {name!r}: {exc}") from exc
        mask = spec.get("mask")
        if mask is not None and (isinstance(mask, bool) or not isinstance(mask, int)):
            raise ValueError(f"data: variable {name!r}: mask must be an integer")
        out.append(TestedVariable(int(spec["address"]), dtype.text, mask, str(name)))
    return out


def alive_snapshots(emulator: Any, alive: Iterable[StateLike], layout: Layout) -> Iterator[Snapshot]:
    for index, snap in enumerate(snapshots_of(emulator, alive, "alive state")):
        if snap.layout != layout:
            raise ValueError(f"alive state {index} has another memory layout than the over states")
        yield snap


class Kept:
    """Alive snapshots read from states, kept for the second reading while they fit in
    :data:`KEEP_BYTES` (loading a state costs a core reload on some cores: Stella's)."""

    def __init__(self, emulator: Any, alive: Iterable[StateLike], layout: Layout):
        self.emulator, self.alive, self.layout = emulator, alive, layout
        self.kept: list[Snapshot] | None = None

    def __iter__(self) -> Iterator[Snapshot]:
        if self.kept is not None:
            yield from self.kept
            return
        kept: list[Snapshot] | None = []
        for snap in alive_snapshots(self.emulator, self.alive, self.layout):
            if kept is not None:
                kept.append(snap)
                if len(kept) * snap.layout.length > KEEP_BYTES:
                    kept = None
            yield snap
        self.kept = kept
