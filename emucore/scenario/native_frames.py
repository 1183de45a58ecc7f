"""The Evaluator's frames run and evaluated in C: its compiled program handed to C with the totals and the
delta history, and what C evaluated taken back (one env's frame loop, ``update_frames``, and the vector
env's batch step, emucore.env.batch_slots)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from emucore.host.memory import AddressSpace
from emucore.libretro import CoreSession
from emucore.libretro.observations import ObservationPlan
from emucore.scenario.compiled import CompiledScenario


class NativeFrames:
    """The Evaluator's state that C evaluation reads and writes (see emucore.scenario.evaluator)."""

    _compiled: CompiledScenario | None
    compile: bool
    _memory: Callable[[], AddressSpace]
    totals: list[np.float32]
    rewards: list[float]
    _in_c: bool
    _evaluated: bool
    _now: dict[str, int]
    _values: object
    done: bool
    frame: int

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

