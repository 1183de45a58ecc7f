"""RetroVectorEnv's envs stepped in one call into C (emucore.libretro.native_batch, step_batch.h).

``BatchStepper`` lends the envs to C (emucore.env.batch_slots), writes a batch of actions into their rows,
sends them to the native pool and receives them; what C left to Python for an env (an action outside the
space, frames that moved memory, a reset C cannot do, a core that threw) is finished here on the env's
Python path, so the results are the single env's. Infos come from one array of every env's variables:
no Python object is made per env unless an env needed Python.

Threads and interrupts. Lending, giving back and the in-flight flags change under one lock, so another thread
may read ``RetroVectorEnv.envs`` (which gives back the envs not in flight) while a step runs; the C pool holds
each env's busy flag while it steps it. A receive is resumable: what it received before a KeyboardInterrupt is
kept, and the next ``receive`` (or ``settle``) goes on from there; the C side is the truth about which envs are
in flight, so ids lost between C and Python (an interrupt between two lines) are found again.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from emucore.env import batch_slots
from emucore.env.batch_slots import ActionTables, Lent
from emucore.env.step_queue import StepQueue, weak_method
from emucore.env.vector_infos import InfoColumns, Rows
from emucore.errors import EmulatorClosedError
from emucore.libretro import native_batch
from emucore.libretro.native_batch import NativeBatch

if TYPE_CHECKING:
    from emucore.env.retro_env import RetroEnv

NOT_SENT = -1  # a status C never writes: set before a send, so an env whose send never reached C is told apart


@dataclass(eq=False)
class VectorParts:
    """What the batch step shares with its RetroVectorEnv: the envs, the rows of results that C and Python both
    write (a row per env), and the vector env's Python step of one env."""

    envs: list[RetroEnv]
    observations: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    autoreset: np.ndarray  # the env's next step is a reset (NEXT_STEP)
    everyone: np.ndarray  # every env's index in order: a batch given this very array is the whole batch
    step_env: Callable[[int, Any], dict]  # (index, action) -> info: the env's step on Python's path
    after_step: Callable[[int, Any, bool, bool, dict], dict]  # (index, reward, terminated, truncated, info) -> info


@dataclass
class Receiving:
    """A receive in progress: what it has so far (kept across an interrupt)."""

    left: int
    parts: list[np.ndarray] = field(default_factory=list)
    tasks: list[tuple[int, int, Lent | None]] = field(default_factory=list)


class BatchStepper:
    """The C batch step of a RetroVectorEnv's envs (its ``parts``)."""

    def __init__(self, parts: VectorParts, threads: int, same_step: bool):
        self._parts = parts
        self._threads = threads
        self._same_step = same_step
        count = len(parts.envs)
        self._lent: list[Lent | None] = [None] * count
        self._lent_count = 0
        self._tables = ActionTables()
        self._batch: NativeBatch | None = None
        self._action_columns = 0  # the int64 columns of an env's action row
        self._queue: StepQueue | None = None  # finishes on threads what C left to Python
        self._names: list[str] | None = None  # the info's variables, in info order, once an env is lent
        self._keys: list[tuple[str, str]] = []  # and their keys in the batched info: the name and its mask's
        self._positions = np.zeros(0, dtype=np.intp)  # and their indices in a row of the variables' array
        self._sticky = False  # an env draws for sticky frames: its draws are refilled
        self._guard = threading.Lock()  # lending, giving back and the flags below, from any thread
        self.flying = np.zeros(count, dtype=np.bool_)  # sent to C, not yet received here
        self._receiving: Receiving | None = None

    # ---- lending ----

    def start(self, ids: np.ndarray, actions: Any) -> bool:
        """Lends the envs ``ids`` (none stepping) to C and starts stepping them with ``actions``, a row each;
        False, with those handed back and nothing started, where Python steps them (an env's step needs Python,
        or the batch is not whole numbers of the space's shape: Python's path checks it)."""
        with self._guard:  # no other thread gives them back between their lending and their sending
            if self._lend(ids) and self._send(ids, actions):
                return True
            for index in ids.tolist():
                self._give_back(index)
            return False

    def _lend(self, ids: np.ndarray) -> bool:
        """Lends the envs ``ids`` to C; False if one's step needs Python."""
        if self._lent_count == len(self._lent):
            return True
        envs, autoreset = self._parts.envs, self._parts.autoreset
        batch = self._batch or self._make_batch()
        for index in ids.tolist():
            if self._lent[index] is None:
                lent = batch_slots.lend(envs[index], batch, index, self._tables, bool(autoreset[index]),
                                        self._same_step)
                if lent is None:
                    return False
                self._lent[index] = lent
                self._lent_count += 1
                if self._names is None:
                    assert lent.compiled.values is not None  # bound by lend
                    columns = lent.compiled.values.positions()
                    self._names = [name for name, _ in columns]
                    self._keys = [(name, f"_{name}") for name in self._names]
                    self._positions = np.array([position for _, position in columns], dtype=np.intp)
                self._sticky = self._sticky or envs[index].preprocessing.sticky_prob > 0
        return True

    def lent(self) -> np.ndarray:
        return np.array([lent is not None for lent in self._lent], dtype=np.bool_)

    def _make_batch(self) -> NativeBatch:
        parts = self._parts
        first = parts.envs[0]
        self._action_columns = batch_slots.columns(first)
        num_values = len(first.evaluator.variables)
        self._batch = NativeBatch(parts.observations, parts.rewards, parts.terminations,
                                  parts.truncations, self._action_columns, num_values, self._threads)
        return self._batch

    @property
    def receiving(self) -> bool:
        """A receive was interrupted: the next ``receive`` goes on with it."""
        return self._receiving is not None

    def give_back(self, index: int) -> None:
        """Hands env ``index`` back to Python (it must not be in flight)."""
        with self._guard:
            self._give_back(index)

    def give_back_idle(self) -> None:
        """Hands back every env not in flight, from any thread (RetroVectorEnv.envs)."""
        with self._guard:
            for index in np.flatnonzero(~self.flying).tolist():
                self._give_back(index)

    def _give_back(self, index: int) -> None:
        lent = self._lent[index]
        if lent is None:
            return
        assert self._batch is not None  # lent through it
        self._parts.autoreset[index] = batch_slots.give_back(self._parts.envs[index], self._batch, index, lent)
        self._lent[index] = None
        self._lent_count -= 1

    # ---- stepping ----

    def _send(self, ids: np.ndarray, actions: Any) -> bool:
        """Starts stepping the envs ``ids`` (all lent) with ``actions``; False, with nothing started, where the
        batch is not whole numbers of the space's shape."""
        batch = self._batch
        assert batch is not None  # made by _lend
        array = np.asarray(actions)
        if array.dtype.kind not in "biu" or array.size != len(ids) * self._action_columns or len(array) != len(ids):
            return False
        if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
            return False  # would wrap in the int64 rows: Python's path names the value
        whole = len(ids) == batch.num_envs
        if whole:
            batch.actions[...] = array.reshape(len(ids), -1)
        else:
            batch.actions[ids] = array.reshape(len(ids), -1)
        used_up = batch.next_draw[ids] >= native_batch.DRAWS if self._sticky else None
        if used_up is not None and used_up.any():
            for index in ids[used_up].tolist():
                lent = self._lent[index]
                assert lent is not None
                batch_slots.draw(self._parts.envs[index], batch, index, lent)
        flying = slice(None) if whole else ids
        batch.status[flying] = NOT_SENT
        self.flying[flying] = True
        try:
            batch.send(ids)
        except BaseException:  # refused, closed, or an interrupt just before or after C queued them: C knows
            self.flying[flying] = batch.flying_flags()[flying]
            raise
        return True

    def receive(self, count: int) -> tuple[np.ndarray, dict[int, dict]]:
        """Waits for ``count`` envs sent (fewer if fewer are in flight): their ids in the order they finished, and
        the infos of those C left to Python (finished on Python's path, on the threads, while the pool steps the
        others: a reset that reloads a core, as Stella's, releases the GIL) by env; the first error one of those
        raised is raised once all are received. Resumable after an interrupt (``Receiving``)."""
        batch = self._batch
        assert batch is not None
        receiving = self._receiving
        if receiving is None:
            ids = batch.recv(count)  # usually all of them, each stepped in C (an interrupt here: _lost finds them)
            if len(ids) == count and batch.status[ids[-1]] == native_batch.OK:
                with self._guard:
                    self.flying[slice(None) if count == batch.num_envs else ids] = False
                return ids, {}
            receiving = self._receiving = Receiving(count)
            if len(ids):
                self._landed(receiving, ids, only_last=True)
        while receiving.left > 0:
            ids = batch.recv(receiving.left)
            if len(ids):
                self._landed(receiving, ids, only_last=True)
                continue
            lost = self._lost()
            if len(lost):
                self._landed(receiving, lost, only_last=False)
            elif not self.flying.any():
                break  # nothing more is in flight
        done = self._finishing().take(len(receiving.tasks)) if receiving.tasks else []
        self._receiving = None
        received = receiving.parts[0] if len(receiving.parts) == 1 else (
            np.concatenate(receiving.parts) if receiving.parts else np.zeros(0, dtype=np.int64))
        if not done:
            return received, {}
        for _, result in done:
            if isinstance(result, BaseException):
                raise result
        return received, {task[0]: result for task, result in done}

    def _landed(self, receiving: Receiving, ids: np.ndarray, only_last: bool) -> None:
        """Envs ``ids`` handed back by C: received; those whose status is not OK (C says only the last can be,
        unless ``only_last`` is False) are given back and finished on Python's path."""
        batch = self._batch
        assert batch is not None
        check = ids[-1:] if only_last else ids
        tasks = []
        with self._guard:  # one section: no other thread gives an env back between its landing and its task
            self.flying[ids] = False
            for index in check.tolist():
                status = int(batch.status[index])
                if status != native_batch.OK:
                    tasks.append((index, status, self._lent[index]))
                    self._give_back(index)
        receiving.parts.append(ids)
        receiving.left -= len(ids)
        if tasks:
            receiving.tasks.extend(tasks)
            self._finishing().put(tasks)

    def _lost(self) -> np.ndarray:
        """Envs this side thinks in flight that C no longer holds: handed back by a recv whose ids an interrupt
        lost (their rows and status are written); those whose send never reached C are not in flight."""
        batch = self._batch
        assert batch is not None
        with self._guard:
            lost = np.flatnonzero(self.flying & ~batch.flying_flags())
            never_sent = lost[batch.status[lost] == NOT_SENT]
            self.flying[never_sent] = False
        return lost[batch.status[lost] != NOT_SENT]

    def settle(self) -> None:
        """Receives every env in flight and drops the results (after an interrupted step)."""
        while self._receiving is not None or self.flying.any():
            try:
                self.receive(int(self.flying.sum()))
            except EmulatorClosedError:
                raise
            except Exception:  # noqa: BLE001, S110 - an env's error: its results are dropped with the others
                pass

    def _finishing(self) -> StepQueue:
        if self._queue is None:
            queue = self._queue = StepQueue(weak_method(self._finish), self._threads, name="emucore-finish")
            weakref.finalize(self, queue.close)
        return self._queue

    def _finish(self, task: tuple[int, int, Lent | None]) -> dict:
        """Env ``index``'s step from where C left it (``status``), on its Python path; it is handed back."""
        index, status, lent = task
        batch, parts = self._batch, self._parts
        assert batch is not None and lent is not None  # C stepped it
        env = parts.envs[index]
        slot = batch.slots[index]
        final = bool(batch.final[index])
        env.em.session.check()  # what a callback raised
        if status == native_batch.THREW:
            raise env.em.session.core_threw("retro_run")
        if status == native_batch.FRAMES:
            run = slot.run
            sums = lent.compiled.reward_sums(run.evaluated, env.evaluator.rewards, 1) if run.evaluated else None
            switch = [int(slot.switch_masks[0])] if slot.stuck and run.ran <= 1 else None
            _, reward, done, info = env.stepper.frames_after((run.ran, run.evaluated, sums), None, None, switch,
                                                             parts.observations[index])
            return parts.after_step(index, reward, bool(done), env.stepper.time_is_up(), info)
        if status in (native_batch.RESET, native_batch.RESET_RAN) and (final or status == native_batch.RESET_RAN):
            obs, info = env.reset() if status == native_batch.RESET else env.stepper.start_episode()
            parts.observations[index] = obs
            parts.autoreset[index] = False
            if not final:
                return info
            final_info = self._info_row(batch.final_values[index])
            return {**info, "final_obs": batch.final_observations[index].copy(), "final_info": final_info}
        return parts.step_env(index, batch.actions[index].copy())  # the action refused, or closed: it says why

    # ---- infos ----

    def _info_row(self, values: np.ndarray) -> dict:
        return dict(zip(self._names or [], values[self._positions].tolist()))

    def rows(self, ids: np.ndarray, python: dict[int, dict]) -> Rows:
        """The infos of the envs ``ids`` (``python``: those Python finished, by env): the variables' array as it is
        where every env finished in C without a reset (no Python object per env), else a dict each."""
        batch = self._batch
        assert batch is not None
        whole = ids is self._parts.everyone  # every env, in order (step()): no rows to pick
        finals = batch.final if whole else batch.final[ids]
        present = batch.has_info if whole else batch.has_info[ids]
        columns = InfoColumns(self._names or [], (batch.values if whole else batch.values[ids]).T[self._positions],
                              present if present.dtype == np.bool_ else present.astype(np.bool_))
        if not python and not finals.any():
            return columns
        infos = columns.dicts()
        for row, index in enumerate(ids.tolist()):
            if index in python:
                infos[row] = python[index]
            elif finals[row]:  # reset in C in the step that ended it
                infos[row] = {"final_obs": batch.final_observations[index].copy(),
                              "final_info": self._info_row(batch.final_values[index])}
        return infos

    def close(self) -> None:
        """Stops the pool (a thread waiting in ``receive`` gets EmulatorClosedError) once no env is stepping in C,
        and the Python finishing threads; the envs are left lent (their emulators close after this)."""
        if self._batch is not None:
            self._batch.close()
        if self._queue is not None:
            self._queue.close()

