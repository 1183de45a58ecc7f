"""A scenario's per-frame evaluation compiled to one C call (emucore/libretro/evaluate.c).

:class:`emucore.scenario.evaluator.Evaluator` evaluates a scenario in Python; that evaluator is the
reference (bit-identical to stable-retro) and the fallback. For the common scenario (data.json
variables, a done tree of tests, reward terms; no Lua) :func:`compile_scenario` builds a program
that gives the same done flag, float32 rewards and variable values from one C call:

* each variable is read as :meth:`emucore.datatypes.DataType.decode` reads it: its logical bytes
  (after the overlay, following contiguous blocks; bytes past mapped memory read 0), each digit
  times its weight, ``i`` sign-extended, then the mask, wrapped to int64;
* a delta is the difference of two int64 values, kept exact (128-bit) as Python's int keeps it;
* a term's float32 is ``np.float32`` of that int, which numpy rounds through a double; products
  and sums are rounded to float32 in the order the Python adds them.

The byte addresses belong to one address space: the program is bound again whenever the emulator
returns another one (the core remapped memory), and declines (the Python path runs) while a
variable the scenario uses is unmapped. The delta history lives in the program across binds;
:meth:`CompiledScenario.snapshot` and :meth:`CompiledScenario.load` hand it to and from the Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from emucore.datatypes import ALL_ONES, U64, DataType, InvalidTypeError, parse_type
from emucore.errors import UnmappedAddressError
from emucore.host.memory import AddressSpace
from emucore.integration.datafile import VariableLike
from emucore.libretro.core_session import CoreSession
from emucore.libretro.native_evaluator import NativeEvaluator, NodeCode, TermCode, VarCode, native_operations
from emucore.libretro.observations import ObservationPlan
from emucore.operations import EVALUATE, Operation
from emucore.scenario.model import DoneNode, RewardSpec, Scenario, Term

# Each operation's code in evaluate.c, as the extension was built (from Operation: _build.py); one it was built
# without (an extension older than emucore/operations.py) is evaluated in Python.
OP_CODES = {Operation[name]: code for code, name in enumerate(native_operations()) if name in Operation.__members__}
KINDS = {"u": 0, "i": 1, "d": 2, "n": 3}
INT64 = 1 << 63
MAX_DEPTH = 256  # done-tree nesting compiled (C recursion); deeper trees stay in Python


class CannotCompile(Exception):
    """Something the program cannot reproduce exactly: the Python evaluator is used."""


class CompiledValues(Mapping[str, int]):
    """The values of the mapped variables at the last evaluation (the Evaluator's ``_values``)."""

    def __init__(self, names: Sequence[str], mapped: Sequence[int], values: np.ndarray):
        self._index = {names[i]: i for i in mapped}
        self._names = [names[i] for i in mapped]
        self._values = values
        self._pick = None if list(mapped) == list(range(len(names))) else np.asarray(mapped, dtype=np.intp)
        self._count = len(names)
        self._unmapped = sorted(set(range(len(names))) - set(mapped))

    def __getitem__(self, name: str) -> int:
        return int(self._values[self._index[name]])

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def positions(self) -> list[tuple[str, int]]:
        """Each mapped variable's name and index in the program's values, in info order."""
        return [(name, self._index[name]) for name in self._names]

    def by_position(self) -> list[int | None]:
        """Every variable's value in data.json order, None where it is unmapped."""
        values: list[int | None] = self._values[:self._count].tolist()
        for i in self._unmapped:
            values[i] = None
        return values

    def copy(self) -> dict[str, int]:
        """The info dict's variables, in data.json order (as the Evaluator reads them)."""
        values = self._values if self._pick is None else self._values[self._pick]
        return dict(zip(self._names, values.tolist()))  # zip stops at the names (values has 1 at least)


class CompiledScenario:
    """One Evaluator's program: bind it to the current address space, then ``run()`` each frame."""

    def __init__(self, variables: Mapping[str, VariableLike], scenario: Scenario,
                 scored: Sequence[tuple[int, RewardSpec]], delta_names: Sequence[str]):
        self.names = list(variables)
        self._types: list[tuple[int, DataType, int]] = []
        for name in self.names:
            variable = variables[name]
            mask = ALL_ONES if variable.mask is None else variable.mask
            if not _is_int(variable.address) or not _is_int(mask) or not isinstance(variable.type, str):
                raise CannotCompile(f"variable {name!r} has a non-integer address or mask")
            try:
                self._types.append((variable.address, parse_type(variable.type), mask & U64))
            except InvalidTypeError as e:  # the Python path raises it on every read
                raise CannotCompile(str(e)) from e
        index = {name: i for i, name in enumerate(self.names)}
        self._slots = [name for name in delta_names if name in index]
        slot_of = {name: s for s, name in enumerate(self._slots)}
        self._slot_of = slot_of
        self.used: set[int] = set()  # variables the scenario measures: all must be mapped

        def code(name: str, term: Term) -> TermCode:
            if name not in index:  # a custom variable (set by set_value or a script): Python
                raise CannotCompile(f"{name!r} is not a data.json variable")
            op = -1
            if term.op and EVALUATE.get(term.op) is not None:
                if term.op not in OP_CODES:
                    raise CannotCompile(f"{name!r}: op {term.op!r} is not in the extension's build (rebuild it)")
                op = OP_CODES[Operation(term.op)]
            if not _is_int(term.reference) or not -INT64 <= term.reference < INT64:
                raise CannotCompile(f"{name!r}: reference {term.reference!r} is not an int64")
            delta = -1
            if term.measurement != "absolute":
                if name not in slot_of:
                    raise CannotCompile(f"{name!r}: measurement {term.measurement!r}")
                delta = slot_of[name]
            self.used.add(index[name])
            return TermCode(op, index[name], delta, int(term.reference),
                            _float32(term.reward), _float32(term.penalty))

        tests: list[TermCode] = []
        nodes: list[NodeCode] = []
        children: list[int] = []
        if scenario.done_script:
            raise CannotCompile("the done condition is a script")
        if scenario.done is not None:
            _flatten(scenario.done, code, tests, nodes, children)
        terms: list[TermCode] = []
        players: list[tuple[int, int, float]] = []
        for _, spec in scored:
            if spec.script:
                raise CannotCompile("a reward is a script")
            initial = spec.time.value(1) if spec.time is not None else np.float32(0)
            first = len(terms)
            terms += [code(name, term) for name, term in spec.variables.items()]
            players.append((first, len(terms) - first, _float32(initial)))
        self.players = [player for player, _ in scored]
        self._slot_of_player = {player: i for i, player in enumerate(self.players)}
        self._kept: list[np.float32 | None] = [None] * len(self.players)  # the totals last written
        self._native = NativeEvaluator(len(self.names), [index[name] for name in self._slots], tests, nodes,
                                       children, terms, players)
        self.values: CompiledValues | None = None
        self._memory: AddressSpace | None = None
        self._refused: AddressSpace | None = None

    # ---- binding ----

    def bind(self, memory: AddressSpace) -> bool:
        """Points the program at ``memory``; False while a variable the scenario uses is unmapped there."""
        if memory is self._memory:
            return True
        if memory is self._refused:
            return False
        codes: list[VarCode] = []
        mapped: list[int] = []
        for i, (address, dtype, mask) in enumerate(self._types):
            try:
                places = memory.places(address, dtype.width)
            except UnmappedAddressError:
                if i in self.used:
                    self._refused = memory
                    return False
                codes.append(VarCode((), (), 0, 0))
                continue
            mapped.append(i)
            addresses = [0 if p is None else _address(memory, *p) for p in places]
            codes.append(VarCode(addresses, dtype.weights, mask, KINDS[dtype.kind]))
        self._native.bind(codes, memory)  # keeps memory, whose blocks hold the arrays read
        self._memory = memory
        self._refused = None
        self.values = CompiledValues(self.names, mapped, self._native.values)
        return True

    # ---- evaluation ----

    def run(self, rewards: list[float], totals: list[np.float32]) -> bool:
        """One evaluation over the bound memory: done; each scored player's reward (a float32 value)
        is written into ``rewards`` and added to its ``totals`` entry in float32 (the Evaluator's lists)."""
        odd = self._take(totals)
        done = self._native.run()
        self._give(rewards, totals, odd)
        return done

    def _take(self, totals: list[np.float32]) -> list[int] | None:
        """Totals set since the last evaluation go to C; those not float32 (C cannot add them) are named."""
        native, kept = self._native, self._kept
        sums = native.totals
        odd = None
        for i, player in enumerate(self.players):
            total = totals[player]
            if total is not kept[i]:  # a total set since (reset, or from outside): C adds to it
                if type(total) is np.float32:
                    sums[i] = total
                else:  # another type adds otherwise: as the Python does it
                    odd = [*(odd or ()), i]
        return odd

    def _give(self, rewards: list[float], totals: list[np.float32], odd: list[int] | None) -> None:
        native, kept = self._native, self._kept
        sums, reward = native.totals, native.reward
        for i, player in enumerate(self.players):
            rewards[player] = reward[i]
            if odd is not None and i in odd:
                sums[i] = np.float32(totals[player] + np.float32(reward[i]))
            totals[player] = kept[i] = sums[i]

    def take_totals(self, totals: list[np.float32]) -> bool:
        """Before ``run_frames``: the totals set since the last evaluation go to C; False (run frame by
        frame) while one set from outside is not a float32 (the Python adds it as it is)."""
        return self._take(totals) is None

    def run_frames(self, session: CoreSession, frames: int, hold: ObservationPlan | None,
                   switch: Sequence[int] | None = None) -> None:
        """Up to ``frames`` frames run, each evaluated as by ``run()``, in one call into C (see
        NativeEvaluator.run_frames, which says what ``switch`` is); then ``ran()`` says what ran, and ``give()``
        hands the last evaluated frame's rewards and the totals to the Evaluator's lists. Either, even after an
        exception."""
        self._native.run_frames(session, frames, hold, switch=switch)

    def ran(self) -> tuple[int, int, bool]:
        """The last ``run_frames``'s frames run, of them evaluated, and whether the last evaluated was done."""
        return self._native.ran()

    def give(self, rewards: list[float], totals: list[np.float32]) -> None:
        self._give(rewards, totals, None)

    def reward_sums(self, evaluated: int, rewards: list[float], players: int) -> list[float]:
        """Players 0 .. players - 1's rewards over the frames ``run_frames`` evaluated, summed in frame
        order as Python floats (a player not scored has the same reward at every frame)."""
        sums = []
        for player in range(players):
            slot = self._slot_of_player.get(player)
            if slot is not None:
                sums.append(self._native.sums[slot])
                continue
            total = reward = rewards[player]
            for _ in range(evaluated - 1):
                total = total + reward
            sums.append(total)
        return sums

    @property
    def native(self) -> NativeEvaluator:
        """The program's C side, for loops in C that run it (emucore.env.batch_slots)."""
        return self._native

    def slot_of(self, player: int) -> int:
        """The player's index among the program's scored players, -1 if the player is not scored."""
        return self._slot_of_player.get(player, -1)

    def delta(self, name: str) -> int:
        """``name``'s delta at the last evaluation (0 without one before it), as Evaluator.measure."""
        slot = self._slot_of.get(name)
        native = self._native
        if slot is None or not native.had[slot]:
            return 0
        return int(native.last[slot]) - int(native.before[slot])

    # ---- the delta history, to and from the Evaluator's ``_now`` ----

    def snapshot(self) -> dict[str, int]:
        native = self._native
        return {name: int(native.last[s]) for s, name in enumerate(self._slots) if native.have[s]}

    def load(self, now: Mapping[str, int]) -> None:
        self._native.load([now.get(name) for name in self._slots])


def compile_scenario(variables: Mapping[str, VariableLike], scenario: Scenario,
                     scored: Sequence[tuple[int, RewardSpec]], delta_names: Sequence[str]) -> CompiledScenario | None:
    """The compiled program of a scenario without scripts, or None when it cannot be exact."""
    try:
        return CompiledScenario(variables, scenario, scored, delta_names)
    except CannotCompile:
        return None


def _flatten(root: DoneNode, code, tests: list[TermCode], nodes: list[NodeCode], children: list[int]) -> None:
    """The tree as flat nodes (root first); each node's tests and children contiguous, in order."""
    order: list[tuple[DoneNode, int]] = [(root, 0)]
    position = 0
    while position < len(order):  # breadth first: a node's children get consecutive indices
        node, depth = order[position]
        if depth > MAX_DEPTH:
            raise CannotCompile("the done tree is nested too deeply")
        first_test = len(tests)
        tests.extend(code(name, term) for name, term in node.variables.items())
        first_child = len(children)
        children.extend(range(len(order), len(order) + len(node.nodes)))
        order.extend((child, depth + 1) for child in node.nodes.values())
        nodes.append(NodeCode(node.condition == "all", first_test, len(node.variables), first_child, len(node.nodes)))
        position += 1


def _address(memory: AddressSpace, block: int, raw: int) -> int:
    data = memory.blocks[block].data
    return int(data.ctypes.data) + raw * int(data.strides[0])


def _float32(value: object) -> float:
    if not isinstance(value, np.float32):  # another type would round (or not) otherwise in the Python
        raise CannotCompile(f"{value!r} is not a float32")
    return float(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
