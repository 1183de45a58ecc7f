"""RetroVectorEnv's envs stepped in one call into C (emucore.libretro.native_batch, step_batch.h).

``BatchStepper`` lends the envs to C (emucore.env.batch_slots), writes a batch of actions into their rows,
sends them to the native pool and receives them; what C left to Python for an env (an action outside the
space, frames that moved memory, a reset C cannot do, a core that threw) is finished here on the env's
Python path, so the results are the single env's. Infos come from one array of every env's variables:
no Python object is made per env unless an env needed Python.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from emucore.env import batch_slots
from emucore.env.batch_slots import ActionTables, Lent
from emucore.env.step_queue import StepQueue, weak_method
from emucore.libretro import native_batch
from emucore.libretro.native_batch import NativeBatch


class BatchStepper:
    """The C batch step of ``vector``'s envs (a RetroVectorEnv: its ``_envs``, ``_observations``,
    ``_rewards``, ``_terminations``, ``_truncations``, ``_autoreset`` and per-env Python step)."""

    def __init__(self, vector: Any, threads: int, same_step: bool):
        self._vector = vector
        self._threads = threads
        self._same_step = same_step
        count = len(vector._envs)
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

    # ---- lending ----

    def lend(self, ids: np.ndarray) -> bool:
        """Lends the envs ``ids`` (none stepping) to C; False, with those handed back, if one's step needs Python."""
        if self._lent_count == len(self._lent):
            return True
        envs, autoreset = self._vector._envs, self._vector._autoreset
        batch = self._batch or self._make_batch()
        for index in ids.tolist():
            if self._lent[index] is None:
                lent = batch_slots.lend(envs[index], batch, index, self._tables, bool(autoreset[index]),
                                        self._same_step)
                if lent is None:
                    for other in ids.tolist():
                        self.give_back(other)
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
        vector = self._vector
        first = vector._envs[0]
        self._action_columns = batch_slots.columns(first)
        num_values = len(first.data.variables)
        self._batch = NativeBatch(vector._observations, vector._rewards, vector._terminations,
                                  vector._truncations, self._action_columns, num_values, self._threads)
        return self._batch

    def give_back(self, index: int) -> None:
        lent = self._lent[index]
        if lent is None:
            return
        assert self._batch is not None  # lent through it
        self._vector._autoreset[index] = batch_slots.give_back(self._vector._envs[index], self._batch, index, lent)
        self._lent[index] = None
        self._lent_count -= 1

    # ---- stepping ----

    def send(self, ids: np.ndarray, actions: Any) -> bool:
        """Starts stepping the envs ``ids`` (all lent) with ``actions``, a row each; False, with nothing
        started, where the batch is not whole numbers of the space's shape (Python then steps and checks it)."""
        batch = self._batch
        assert batch is not None  # made by lend
        array = np.asarray(actions)
        if array.dtype.kind not in "biu" or array.size != len(ids) * self._action_columns or len(array) != len(ids):
            return False
        if len(ids) == batch.num_envs:
            batch.actions[...] = array.reshape(len(ids), -1)
        else:
            batch.actions[ids] = array.reshape(len(ids), -1)
        used_up = batch.next_draw[ids] >= native_batch.DRAWS if self._sticky else None
        if used_up is not None and used_up.any():
            for index in ids[used_up].tolist():
                lent = self._lent[index]
                assert lent is not None
                batch_slots.draw(self._vector._envs[index], batch, index, lent)
        batch.send(ids)
        return True

    def receive(self, count: int) -> tuple[np.ndarray, dict[int, dict], BaseException | None]:
        """Waits for ``count`` envs sent: their ids in the order they finished, the infos of those C left to
        Python (finished on Python's path, on the threads, while the pool steps the others: a reset that reloads
        a core, as Stella's, releases the GIL) by env, and the first error one of those raised, if any."""
        batch = self._batch
        assert batch is not None
        parts, tasks = [], []
        left = count
        while left:
            ids = batch.recv(left)
            left -= len(ids)
            parts.append(ids)
            last = int(ids[-1])
            status = int(batch.status[last])
            if status != native_batch.OK:
                task = (last, status, self._lent[last])
                self.give_back(last)
                tasks.append(task)
                self._finishing().put([task])
        received = parts[0] if len(parts) == 1 else np.concatenate(parts)
        if not tasks:
            return received, {}, None
        done = self._finishing().take(len(tasks))
        errors = [result for _, result in done if isinstance(result, BaseException)]
        return received, {task[0]: result for task, result in done}, errors[0] if errors else None

    def _finishing(self) -> StepQueue:
        if self._queue is None:
            queue = self._queue = StepQueue(weak_method(self._finish), self._threads, name="emucore-finish")
            weakref.finalize(self, queue.close)
        return self._queue

    def _finish(self, task: tuple[int, int, Lent | None]) -> dict:
        """Env ``index``'s step from where C left it (``status``), on its Python path; it is handed back."""
        index, status, lent = task
        batch, vector = self._batch, self._vector
        assert batch is not None and lent is not None  # C stepped it
        env = vector._envs[index]
        slot = batch.slots[index]
        final = bool(batch.final[index])
        env.em.session.check()  # what a callback raised
        if status == native_batch.THREW:
            raise env.em.session.core_threw("retro_run")
        if status == native_batch.FRAMES:
            run = slot.run
            sums = lent.compiled.reward_sums(run.evaluated, env.data.rewards, 1) if run.evaluated else None
            switch = [int(slot.switch_masks[0])] if slot.stuck and run.ran <= 1 else None
            _, reward, done, info = env._frames_after((run.ran, run.evaluated, sums), None, None, switch,
                                                      vector._observations[index])
            return vector._after_step(index, reward, bool(done), env._time_is_up(), info)
        if status in (native_batch.RESET, native_batch.RESET_RAN) and (final or status == native_batch.RESET_RAN):
            obs, info = env.reset() if status == native_batch.RESET else env._start_episode()
            vector._observations[index] = obs
            vector._autoreset[index] = False
            if not final:
                return info
            final_info = self._info_row(batch.final_values[index])
            return {**info, "final_obs": batch.final_observations[index].copy(), "final_info": final_info}
        return vector._step_env(index, batch.actions[index].copy())  # the action refused, or closed: it says why

    # ---- infos ----

    def _info_row(self, values: np.ndarray) -> dict:
        return dict(zip(self._names or [], values[self._positions].tolist()))

    def infos(self, ids: np.ndarray, python: dict[int, dict]) -> list[dict]:
        """The info of each env ``ids``, a dict each (for adapters whose infos are a list)."""
        batch = self._batch
        assert batch is not None
        names = self._names or []
        picked = batch.values[ids][:, self._positions].tolist()
        has = batch.has_info[ids].tolist()
        infos = [python[index] if index in python else dict(zip(names, row)) if present else {}
                 for index, row, present in zip(ids.tolist(), picked, has)]
        for row in np.flatnonzero(batch.final[ids]).tolist():  # reset in C in the step that ended them
            index = int(ids[row])
            if index not in python:
                infos[row] = {"final_obs": batch.final_observations[index].copy(),
                              "final_info": self._info_row(batch.final_values[index])}
        return infos

    def batched_info(self, ids: np.ndarray, python: dict[int, dict], merge: Callable[[list[dict]], dict]) -> dict:
        """Gymnasium's batched info of the envs ``ids``: from the variables' array where every env finished in C
        without a reset, else ``merge`` of their infos (``python``: those Python finished)."""
        batch = self._batch
        assert batch is not None
        whole = ids is self._vector._all  # every env, in order (step()): no rows to pick
        if python or (batch.final if whole else batch.final[ids]).any():
            return merge(self.infos(ids, python))
        present = batch.has_info if whole else batch.has_info[ids]
        everyone = present.all()
        if not everyone and not present.any():
            return {}
        # one array of the variables (a row each) and one of their masks: the info's arrays are their rows
        columns = (batch.values if whole else batch.values[ids]).T[self._positions]
        if everyone:
            masks = np.ones(columns.shape, dtype=np.bool_)
        else:
            columns *= present
            masks = np.broadcast_to(present.astype(np.bool_), columns.shape).copy()
        merged: dict[str, np.ndarray] = {}
        for row, (name, mask_name) in enumerate(self._keys):
            merged[name] = columns[row]
            merged[mask_name] = masks[row]
        return merged

    def close(self) -> None:
        if self._queue is not None:
            self._queue.close()
        if self._batch is not None:
            self._batch.close()

