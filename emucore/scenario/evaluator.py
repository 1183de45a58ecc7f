"""The scenario evaluator (stable-retro's GameData as the env holds it): a game's variables, its
scenario's evaluation, and custom variables.

One evaluation (``update_ram``) takes a snapshot of memory, decides done, computes each player's
reward in float32, adds them to the totals and counts the frame (integration-format.md §5.6).
The env uses it for training and the studio for its live preview, so both see the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from emucore.datatypes import ALL_ONES
from emucore.errors import UnmappedAddressError
from emucore.host.emulator import PLAYERS
from emucore.host.memory import AddressSpace
from emucore.integration.datafile import VariableLike
from emucore.libretro import CoreSession
from emucore.libretro.observations import ObservationPlan
from emucore.scenario.actions import ActionGroups
from emucore.scenario.compiled import CompiledScenario, CompiledValues, compile_scenario
from emucore.scenario.custom_variables import CustomVariables
from emucore.scenario.custom_variables import as_int as _as_int
from emucore.scenario.explain import DoneReason, explain
from emucore.scenario.info_order import InfoOrder
from emucore.scenario.model import DoneNode, RewardSpec, Scenario, ScenarioError, Term
from emucore.scenario.reload import reload_evaluator


def _read(memory: AddressSpace, variable: VariableLike) -> int:
    return memory.read(variable.address, variable.type, ALL_ONES if variable.mask is None else variable.mask)


class Evaluator:
    """Variables, scenario and custom variables over one emulator's live memory.

    stable-retro's ``GameData`` API (``data["x"]``, ``set_variable``, its memory search, ...) is
    :class:`emucore.retro.gamedata.GameData`, over an evaluator (an env's ``env.data``).

    Args:
        variables: data.json's variables by name.
        scenario: the parsed scenario (``Scenario.parse(None)`` for none).
        memory: returns the current address space (it is rebuilt when the core remaps memory).
        actions: the action groups in force (the scenario's, else the system's).
        scripts: the Lua files the scenario lists, as (file name, source), in order.

    Without scripts, ``update_ram`` runs the scenario compiled to C (:mod:`emucore.scenario.compiled`)
    when it can be exact, else the Python below, which stays the reference: set ``compile`` to
    False to evaluate in Python only (the results are the same; tests compare the two).
    """

    def __init__(
        self,
        variables: Mapping[str, VariableLike],
        scenario: Scenario,
        memory: Callable[[], AddressSpace],
        actions: ActionGroups,
        scripts: Sequence[tuple[str, str]] = (),
    ):
        self.variables = dict(variables)
        self.scenario = scenario
        self._memory = memory
        self.actions = actions
        self.custom = CustomVariables()
        self.frame = 0
        self.done = False
        self.rewards = [0.0] * PLAYERS
        self.totals = [np.float32(0)] * PLAYERS
        self._delta_names = sorted(scenario.variable_names("delta"))
        # players whose reward spec is empty always get 0: skip evaluating them
        self._scored = [(p, spec) for p, spec in enumerate(scenario.rewards[:PLAYERS]) if not spec.empty]
        self._now: dict[str, int] = {}
        self._previous: dict[str, int] | None = None
        self._evaluated = False
        self._live: AddressSpace | None = None
        self._values: dict[str, int] | CompiledValues | None = None
        self.lua = None
        self.search_types: tuple[str, ...] | None = None  # the system's search types (stable-retro's core "types")
        self.scenario_json: dict | None = None  # the decoded scenario.json ``scenario`` was parsed from
        if scripts:
            from emucore.lua import LuaScripts

            self.lua = LuaScripts(list(scripts), self)
            self.lua.reload()
        self.compile = True
        self._compiled: CompiledScenario | None = None
        self._reader: CompiledScenario | None = None  # reads the variables of a scenario that cannot compile
        self._in_c = False  # the delta history is in the compiled program (its last evaluation ran there)
        self.variables_changed()

    def variables_changed(self, edited: str | None = None) -> None:
        """Rebuilds what is derived from ``variables`` after they were edited in place (``edited`` was set
        or removed since; None: any may have changed); the delta history carries over. Variables are read in
        stable-retro's info order."""
        if self._in_c and self._compiled is not None:
            self._now = self._compiled.snapshot()
            self._in_c = False
        if edited is None:
            self._order = InfoOrder(self.variables)
        else:
            self._order.edited(edited, edited in self.variables)
        ordered = {name: self.variables[name] for name in self._order.variables()}
        self._values = None
        self._variable_names = tuple(ordered)
        self._info_items = [
            (name, v.address, v.type, ALL_ONES if v.mask is None else v.mask) for name, v in ordered.items()
        ]
        self._compiled = self._reader = None
        if self.lua is None:
            self._compiled = compile_scenario(ordered, self.scenario, self._scored, self._delta_names)
        if self._compiled is None:
            self._reader = compile_scenario(ordered, Scenario.parse(None), [], [])

    # ---- evaluation ----

    def reset(self) -> None:
        """New episode: totals, frame and custom variables cleared, Lua scripts re-run."""
        self.frame = 0
        self.done = False
        self.rewards = [0.0] * PLAYERS
        self.totals = [np.float32(0)] * PLAYERS
        self.custom.clear()
        if self.lua is not None:
            self.lua.reload()

    def update_ram(self) -> None:
        """One evaluation: snapshot, done, then each player's reward.

        stable-retro snapshots all of memory for deltas; only the values of the variables
        measured as deltas are ever read from a snapshot, so those are what is kept. They are
        read before any script runs, as from a snapshot taken at the start of the evaluation.
        """
        live = self._memory()
        compiled = self._compiled
        if compiled is not None and self.compile and compiled.bind(live):
            self._update_compiled(compiled)
            return
        if self._in_c:  # the delta history moves back to the Python
            self._now = compiled.snapshot() if compiled is not None else {}
            self._in_c = False
        self._live = live
        self._previous = self._now if self._evaluated else None
        self._evaluated = True
        # Every variable is read once here and the values serve the done tree, the rewards, the
        # scripts' reads and the info dict alike; a script's write (set_value) drops them.
        values = self._read_values(live)
        self._values = values
        self._now = {
            name: values[name] if name in values else _read(live, self.variables[name])
            for name in self._delta_names
            if name in self.variables
        }
        lua = self.lua
        if lua is not None:
            lua.prime(self._variable_names, self._script_values(values), self.frame)
        try:
            self.done = self._evaluate_done()
            for player, spec in self._scored:
                reward = self._evaluate_reward(spec)
                self.rewards[player] = float(reward)
                self.totals[player] = np.float32(self.totals[player] + reward)
        finally:  # the frame ran: it counts even when its evaluation raised
            if lua is not None:
                lua.settle()
            self.frame += 1
            self._live = None

    def _read_values(self, live: AddressSpace) -> dict[str, int] | CompiledValues:
        """Every mapped variable's value, read in one C call where the scenario's program cannot run."""
        reader = self._reader
        if reader is not None and self.compile and reader.bind(live):
            reader.run([], [])
            return reader.values  # type: ignore[return-value]  # set by bind
        return self._read_all(live)

    def _script_values(self, values: dict[str, int] | CompiledValues) -> list[int | float | bool | None]:
        """What ``lookup_value`` answers now for each variable (None where it would not give a number)."""
        names = self._variable_names
        answers: list[int | float | bool | None] = (list(values.by_position()) if isinstance(values, CompiledValues)
                                 else [values.get(name) for name in names])
        if self.custom:  # a custom variable hides the data.json variable of its name
            answers = [self.custom.get(name, answer) for name, answer in zip(names, answers)]
        return answers

    def measure(self, name: str, measurement: str) -> int:
        """A variable's value (live memory) or delta (between the last two snapshots)."""
        if name in self.custom:
            return _as_int(self.custom[name]) if measurement == "absolute" else 0
        variable = self.variables.get(name)
        if variable is None:
            raise ScenarioError(
                f"the scenario uses {name!r}, which is neither a data.json variable nor a custom variable"
                " a script has set"
            )
        if measurement == "absolute":
            values = self._values
            if values is not None and name in values:
                return values[name]
            try:
                return _read(self._live or self._memory(), variable)
            except UnmappedAddressError as e:
                raise UnmappedAddressError(variable.address, name) from e
        if self._in_c:
            return self._compiled.delta(name) if self._compiled is not None else 0
        if self._previous is None or name not in self._previous:
            return 0
        return self._now[name] - self._previous[name]

    def _test(self, name: str, term: Term) -> bool:
        return term.apply(self.measure(name, term.measurement)) > 0

    def _node(self, node: DoneNode) -> bool:
        want_all = node.condition == "all"
        for name, term in node.variables.items():
            if self._test(name, term) != want_all:
                return not want_all
        for child in node.nodes.values():
            if self._node(child) != want_all:
                return not want_all
        return want_all

    def _evaluate_done(self) -> bool:
        if self.scenario.done_script:
            return self._lua().done(self.scenario.done_script)
        if self.scenario.done is None:
            return False
        return self._node(self.scenario.done)

    def explain_done(self) -> list[DoneReason]:
        """Why the last evaluation was done: empty when it was not, else its reasons
        (:mod:`emucore.scenario.explain`). Call it right after ``update_ram()``.

        The tests are measured again (the evaluation keeps no record, to stay fast). Only a reward
        script that wrote memory or custom variables after done was decided can make them measure
        otherwise; if the tree is then no longer true, the one reason says so.
        """
        if not self.done:
            return []
        return explain(self.scenario, self.measure) or [
            DoneReason("done", "done when evaluated (a script has changed what its tests measure since)")
        ]

    def _evaluate_reward(self, spec: RewardSpec) -> np.float32:
        if spec.script:
            return self._lua().reward(spec.script)
        total = spec.time.value(1) if spec.time is not None else np.float32(0)
        for name, term in spec.variables.items():
            total = np.float32(total + term.value(self.measure(name, term.measurement)))
        return total

    def _lua(self):
        if self.lua is None:
            from emucore.lua import LuaError

            raise LuaError("the scenario names a script function but loads no script")
        return self.lua

    # ---- frames evaluated in C (one env's frame loop, update_frames, and the vector env's batch step) ----

    def update_frames(self, session: CoreSession, frames: int, hold: ObservationPlan | None,
                      players: int = 1, switch: Sequence[int] | None = None
                      ) -> tuple[int, int, list[float] | None] | None:
        """Up to ``frames`` frames of the emulator whose ``session`` this memory is run and evaluated in
        one call into C, as ``frames`` times ``Emulator.step()`` then ``update_ram()`` (the state after is
        the same); ``hold`` holds the frame before the last (ObservationPlan.hold); ``switch``, the button
        masks held from the second frame on (the first keeps those held now). The loop stops after a
        done frame, and before evaluating a frame after which memory may have moved (or the core called
        into Python): then that frame has run and ``update_ram()`` is for the caller to call.

        Returns (frames run, of them evaluated, players 0 .. players - 1's rewards over the evaluated
        frames summed as Python floats, or None if none was), or None, with nothing run, when the
        scenario is not evaluated compiled now (the caller steps frame by frame).
        """
        compiled = self.native_program()
        if compiled is None:
            return None
        try:
            compiled.run_frames(session, frames, hold, switch=switch)
        finally:  # the frames evaluated before an exception count, as they do frame by frame
            ran, evaluated, done = compiled.ran()
            self.native_ran(compiled, evaluated, done)
        return ran, evaluated, compiled.reward_sums(evaluated, self.rewards, players) if evaluated else None

    def native_program(self) -> CompiledScenario | None:
        """The compiled program, bound to the memory now and holding the totals and the delta history, for
        frames run and evaluated in C (then ``native_ran``); None when the scenario is not evaluated compiled now."""
        compiled = self._compiled
        if not (compiled is not None and self.compile and compiled.bind(self._memory())
                and compiled.take_totals(self.totals)):
            return None
        if not self._in_c:
            compiled.load(self._now if self._evaluated else {})
            self._in_c = True
        return compiled

    def native_ran(self, compiled: CompiledScenario, evaluated: int, done: bool) -> None:
        """Takes in ``evaluated`` frames that C evaluated with ``native_program()``'s program, the last ``done``."""
        if evaluated:
            compiled.give(self.rewards, self.totals)
            self._evaluated = True
            self.done = done
            self._values = compiled.values
            self.frame += evaluated

    @property
    def compiled(self) -> bool:
        """Whether the last ``update_ram`` ran the compiled program (else the Python evaluator)."""
        return self._in_c

    def _update_compiled(self, compiled: CompiledScenario) -> None:
        if not self._in_c:
            compiled.load(self._now if self._evaluated else {})
            self._in_c = True
        self._evaluated = True
        self.done = compiled.run(self.rewards, self.totals)
        self._values = compiled.values
        self.frame += 1

    # ---- stable-retro's evaluation methods ----

    def current_reward(self, player: int = 0) -> float:
        return self.rewards[player]

    def total_reward(self, player: int = 0) -> float:
        return float(self.totals[player])

    def is_done(self) -> bool:
        return self.done

    def address_space(self) -> AddressSpace:
        """The address space the variables are read from now (rebuilt when the core remaps memory)."""
        return self._memory()

    reload = reload_evaluator  # GameData.load in an env: the files' variables and scenario in place

    def lookup_value(self, name: str) -> int | float | bool | None:
        """A custom variable, else a data.json variable's live value; KeyError if neither."""
        if name in self.custom:
            return self.custom[name]
        variable = self.variables.get(name)
        if variable is None:
            raise KeyError(name)
        # during an evaluation (a script's reads) the address space cannot change: no frame runs
        return _read(self._live if self._live is not None else self._memory(), variable)

    def set_value(self, name: str, value: int | float | bool | None) -> None:
        """A data.json variable is written to memory (all its bytes); any other name is a custom variable."""
        self._values = None  # memory or custom values change: the evaluation's reads are stale
        variable = self.variables.get(name)
        if variable is not None:
            from emucore.lua import to_int64

            number = 0 if value is None else value if isinstance(value, int) else to_int64(float(value))
            self._memory().write(variable.address, variable.type, int(number))
        else:
            self.custom[name] = value

    def _read_all(self, memory: AddressSpace) -> dict[str, int]:
        read = memory.read
        values: dict[str, int] = {}
        for name, address, type_text, mask in self._info_items:
            try:
                values[name] = read(address, type_text, mask)
            except IndexError:
                continue  # unmapped: left out of info, and an error only if a term measures it
        return values

    def lookup_all(self) -> dict[str, int]:
        """The ``info`` dict: mapped data.json variables and custom variables, as ints, in stable-retro's order."""
        return self._in_info_order(self._read_all(self._memory()))

    def info_after_update(self) -> dict[str, int]:
        """``lookup_all()`` right after ``update_ram()``, reusing the values it read (same frame,
        nothing written since: the env calls it straight after the evaluation)."""
        if self._values is None:
            return self.lookup_all()
        return self._in_info_order(self._values.copy())

    def _in_info_order(self, info: dict[str, int]) -> dict[str, int]:
        """``info`` (the mapped variables, in their table's order) with the custom variables, ordered
        as stable-retro's info (:mod:`emucore.scenario.info_order`): as it is unless some are unmapped or custom."""
        if not self.custom and len(info) == len(self._info_items):
            return info
        return self._order.ordered(info, {name: _as_int(self.custom[name]) for name in self.custom.names()})

    # ---- what Lua scripts see (emucore.lua.DataAccess) ----

    def lookup(self, name: str) -> int | float | bool | None:
        return self.lookup_value(name)

    def read_byte(self, address: int) -> int:
        return self._memory().read(address, "|u1")
