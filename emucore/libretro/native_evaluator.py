"""The compiled scenario evaluator's C side (evaluate.c), packed into cffi structs.

:mod:`emucore.scenario.compiled` decides what to compile; this module only lays the program out
for C and runs it. The arrays C writes are numpy views, read from Python without copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from emucore.libretro._native import ffi, lib
from emucore.libretro.core_session import CoreSession
from emucore.libretro.observations import ObservationPlan


def native_operations() -> list[str]:
    """The operations evaluate.c was built with, by the names of emucore.operations.Operation's members, in the
    order of their codes (:attr:`TermCode.op`)."""
    return ffi.string(lib.emu_eval_operations()).decode().split(",")[:-1]


class TermCode(NamedTuple):
    """A done test or reward term: ``op(measured, reference)``; ``delta`` -1 measures the value."""

    op: int  # -1: none, else the operation's code: its index in native_operations()
    var: int
    delta: int
    reference: int
    reward: float = 0.0
    penalty: float = 0.0


class NodeCode(NamedTuple):
    all: bool
    first_test: int
    tests: int
    first_child: int
    children: int


class VarCode(NamedTuple):
    """A variable read: the address of each logical byte (0: reads 0) and its weight."""

    addresses: Sequence[int]
    weights: Sequence[int]
    mask: int  # 0 .. 2**64 - 1
    kind: int  # 0 u, 1 i, 2 d, 3 n


def _array(kind: str, items: Sequence[Any]) -> Any:
    return ffi.new(f"{kind}[]", list(items)) if items else ffi.new(f"{kind}[]", 1)


class NativeEvaluator:
    """One scenario's program; ``bind`` points its variables at memory, ``run`` evaluates a frame.

    The delta slots' state (the last values, and whether there are any) lives here across binds.
    """

    def __init__(self, n_vars: int, delta_vars: Sequence[int], tests: Sequence[TermCode],
                 nodes: Sequence[NodeCode], children: Sequence[int], terms: Sequence[TermCode],
                 players: Sequence[tuple[int, int, float]]):
        p = self._program = ffi.new("emu_eval_program *")
        self.values = np.zeros(max(n_vars, 1), dtype=np.int64)
        n_deltas = len(delta_vars)
        self.last = np.zeros(max(n_deltas, 1), dtype=np.int64)
        self.before = np.zeros_like(self.last)
        self.have = np.zeros(max(n_deltas, 1), dtype=np.uint8)
        self.had = np.zeros_like(self.have)
        self.rewards = np.zeros(max(len(players), 1), dtype=np.float32)
        self.totals = np.zeros_like(self.rewards)
        self._keep: list[Any] = []

        def buffer(kind: str, array: np.ndarray) -> Any:
            pointer = ffi.from_buffer(f"{kind}[]", array)
            self._keep.append(pointer)
            return pointer

        def array(kind: str, items: Sequence[Any]) -> Any:
            pointer = _array(kind, items)
            self._keep.append(pointer)
            return pointer

        p.n_vars = n_vars
        p.values = buffer("int64_t", self.values)
        p.delta_vars = array("int32_t", delta_vars)
        p.n_deltas = n_deltas
        p.last = buffer("int64_t", self.last)
        p.before = buffer("int64_t", self.before)
        p.have = buffer("uint8_t", self.have)
        p.had = buffer("uint8_t", self.had)
        p.tests = array("emu_eval_term", [self._term(t) for t in tests])
        p.nodes = array("emu_eval_node", [tuple(n) for n in nodes])
        p.n_nodes = len(nodes)
        p.children = array("int32_t", children)
        p.terms = array("emu_eval_term", [self._term(t) for t in terms])
        p.n_players = len(players)
        p.first_term = array("int32_t", [first for first, _, _ in players])
        p.n_terms = array("int32_t", [count for _, count, _ in players])
        p.initial = array("float", [initial for _, _, initial in players])
        p.rewards = buffer("float", self.rewards)
        p.totals = buffer("float", self.totals)
        self.reward = p.rewards  # indexed: a Python float, with no numpy scalar made
        self.sums = buffer("double", np.zeros(max(len(players), 1), dtype=np.float64))  # run_frames's
        self._result = ffi.new("emu_skip_result *")
        self._switch = ffi.new("uint16_t[]", lib.EMU_MAX_PORTS)
        self._vars: Any = None
        self.bound: object | None = None

    @property
    def program(self) -> Any:
        """The ``emu_eval_program *`` (for C loops that evaluate it themselves: step_batch.h)."""
        return self._program

    @staticmethod
    def _term(t: TermCode) -> tuple:
        return (t.op, t.var, t.delta, 0, t.reference, t.reward, t.penalty)

    def bind(self, variables: Sequence[VarCode], owner: object) -> None:
        """Points the program at memory; ``owner`` (kept) holds the arrays the addresses are in."""
        if len(variables) != self._program.n_vars:
            raise ValueError(f"{len(variables)} variables, the program has {self._program.n_vars}")
        cvars = ffi.new("emu_eval_var[]", max(len(variables), 1))
        for cvar, var in zip(cvars, variables):
            cvar.width = len(var.addresses)
            cvar.kind = var.kind
            cvar.mask = var.mask
            for k, (address, weight) in enumerate(zip(var.addresses, var.weights)):
                cvar.bytes[k] = ffi.cast("const uint8_t *", address)
                cvar.weights[k] = weight
        self._program.vars = cvars
        self._vars = cvars
        self.bound = owner

    def run(self) -> bool:
        """One evaluation: done; ``values``, ``rewards``, ``totals`` and the delta slots are written."""
        return bool(lib.emu_eval_run(self._program))

    def run_frames(self, session: CoreSession, frames: int, hold: ObservationPlan | None,
                   location: tuple[int, int, int] | None = None, switch: Sequence[int] | None = None) -> None:
        """Up to ``frames`` frames of ``session`` run and evaluated in one call into C (skip.h says how),
        ``hold`` holding the one before the last; ``ran()`` then says what ran, ``sums`` each player's
        rewards summed. The program is bound to the memory at ``location`` (``session.memory_location``,
        the default: where it is now). ``switch``: the button masks of ports 0, 1, ... held from the second
        frame on, the first keeping those held now (ports past the list keep theirs). CoreError if the core
        threw, or what a callback raised, after the frames before it ran and were evaluated."""
        ram, size, maps = session.memory_location if location is None else location
        self._result.evaluated = 0  # what a call refused before C ran leaves
        masks = ffi.NULL
        if switch is not None:
            masks = self._switch
            for port in range(len(masks)):
                masks[port] = switch[port] if port < len(switch) else session.button_bits(port)
        code = session.call(lib.emu_skip_run, self._program, frames, ffi.NULL if hold is None else hold.pointer,
                            ram, size, maps, not session.memory_maps, masks, self.sums, self._result)
        if code < 0:
            raise session.core_threw("retro_run")

    def ran(self) -> tuple[int, int, bool]:
        """The last ``run_frames``'s frames run, of them evaluated (the last may not be), and whether the
        last evaluated was done."""
        result = self._result
        return result.ran, result.evaluated, bool(result.done)

    def load(self, last: Sequence[int | None]) -> None:
        """Sets each delta slot's last value (None: no value yet, the next delta is 0)."""
        for slot, value in enumerate(last):
            self.have[slot] = value is not None
            self.last[slot] = 0 if value is None else value
