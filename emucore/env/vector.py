"""``RetroVectorEnv``: N emulators in one process, stepped on a thread pool.

stable-retro allows one emulator per process, so its vector envs need a process per env and
copy every observation between processes. Here each env's emulator is a private core copy and
``step()`` releases the GIL while the core runs, so threads run the cores in parallel and the
observations land in one batch array. ``num_threads`` (default: the CPUs) counts the calling
thread, which steps envs itself. Where every env's step can run in C (a compiled scenario, image observations,
one player: emucore.env.batch_slots says which), a step is one call into C for the whole batch, on native
threads with the GIL released (emucore.env.vector_native); else the threads take envs one at a time from one
queue (emucore.env.step_queue) and step them in Python. ``native=False`` keeps to the Python threads.

Autoreset is Gymnasium's ``AutoresetMode``: NEXT_STEP (the default) resets an env at the step after its
episode ended; SAME_STEP resets it in the step that ended it, on the same worker thread, and returns
the reset observation, the last one and its info in ``infos["final_obs"]`` and ``infos["final_info"]``.

Besides Gymnasium's ``step`` (also split as AsyncVectorEnv's ``step_async``/``step_wait``), EnvPool's
asynchronous form: ``async_reset()``, then ``recv()`` the first ``batch_size`` envs to finish and ``send()``
their next actions, so no env waits for the slowest.

Threads: one thread at a time steps a vector env (another gets EmulatorBusyError); any thread may read ``envs``
or call ``close()``, which waits for the envs stepping and makes the stepping thread's call raise
EmulatorClosedError. An interrupt (Ctrl-C) during a step leaves the envs consistent: ``step_wait()`` or
``recv()`` again goes on receiving, and ``step()``, ``reset()`` or ``async_reset()`` first receive and drop
what the interrupted step left in flight.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from emucore.env.make import make
from emucore.env.step_queue import StepQueue, weak_method
from emucore.env.vector_infos import Rows, as_dicts, batched_infos, check_batch
from emucore.env.vector_native import BatchStepper, VectorParts
from emucore.env.vector_threads import one_thread
from emucore.libretro.native_batch import closed_error


class RetroVectorEnv(VectorEnv):
    """``num_envs`` copies of one game; ``make_kwargs`` go to :func:`emucore.make`."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, game: str, num_envs: int, *, num_threads: int | None = None, copy: bool = True,
                 batch_size: int | None = None, autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 native: bool = True, **make_kwargs: Any):
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            raise ValueError("RetroVectorEnv's autoreset_mode is AutoresetMode.NEXT_STEP or SAME_STEP, not DISABLED")
        if batch_size is not None and not 1 <= batch_size <= num_envs:
            raise ValueError(f"batch_size must be between 1 and num_envs ({num_envs}), got {batch_size}")
        make_kwargs.setdefault("render_mode", None)
        if make_kwargs.get("scale_obs"):
            raise ValueError("scale_obs is make()'s, for one env: RetroVectorEnv's observations are one uint8 batch "
                             "array (divide it by 255 as a whole, e.g. in the policy)")
        make_kwargs.pop("scale_obs", None)
        self._envs: list[Any] = []
        try:
            for _ in range(num_envs):
                self._envs.append(make(game, **make_kwargs))
        except BaseException:
            for env in self._envs:
                env.close()
            raise
        first = self._envs[0]
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = make_kwargs.get("render_mode")
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        shape = self.single_observation_space.shape
        assert shape is not None  # a Box: retro observations are images or RAM
        self._observations = np.zeros((num_envs, *shape), dtype=np.uint8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self.batch_size = batch_size or num_envs
        self._threads = max(1, min(num_threads or os.cpu_count() or 1, num_envs))
        self._queue: StepQueue[tuple[int, Any, Any]] | None = None  # made by the first step, reset or send
        self._python_flight = np.zeros(num_envs, dtype=np.bool_)  # stepping on the Python threads
        self._received = np.arange(self.batch_size)
        self._all = np.arange(num_envs, dtype=np.int32)
        same_step = self.autoreset_mode is AutoresetMode.SAME_STEP
        me = weakref.proxy(self)  # the batch step's threads do not keep the vector env alive
        parts = VectorParts(self._envs, self._observations, self._rewards, self._terminations, self._truncations,
                            self._autoreset, self._all, lambda index, action: me._step_env(index, action),
                            lambda index, *result: me._after_step(index, *result))
        self._native = BatchStepper(parts, self._threads, same_step) if native else None
        # stepping in C: the stepper's flags, changed under its lock
        self._native_flight = self._native.flying if self._native is not None else np.zeros(num_envs, np.bool_)
        self._stepping = threading.RLock()  # one thread at a time steps (step() holds it across step_async/wait)
        self._waiting = False  # a step or reset started and not yet returned (after an interrupt: to settle)
        self._sync_native = False  # the step in progress is C's
        self._interrupted = False  # the step or reset in progress raised (an interrupt): the next one settles it
        self._closed = False

    @property
    def envs(self) -> list[Any]:
        """The envs, one per index, each as stepping it alone would have left it (those C steps are handed back
        to Python first, except any stepping now)."""
        if self._native is not None:
            self._native.give_back_idle()
        return self._envs

    @property
    def native_envs(self) -> np.ndarray:
        """Which envs C steps now (bool per env): all of them after a step, unless an env's step needs Python
        (a Lua or uncompiled scenario, a movie, two players, RAM observations: emucore.env.batch_slots)."""
        return self._native.lent() if self._native is not None else np.zeros(self.num_envs, dtype=np.bool_)

    def _parallel(self, tasks: list[tuple[int, str, Any]]) -> list[dict]:
        """Runs one task per env (the synchronous step and reset) and returns the infos in env order."""
        self._start(tasks)
        return self._collect()

    def _collect(self) -> list[dict]:
        """Waits for every env's task and returns the infos in env order; a failing env raises once every
        env has run, so no env is left stepping."""
        assert self._queue is not None  # made by _start
        done = self._queue.take(self.num_envs)  # interrupted: _interrupted_by lets them finish
        self._python_flight[:] = False
        infos: list[dict] = [{}] * self.num_envs
        for (index, _, _), result in done:
            if isinstance(result, BaseException):
                raise result
            infos[index] = result
        return infos

    def _merge(self, rows: Rows) -> dict:
        return batched_infos(rows, self.num_envs, self._add_info)

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | list[dict | None] | None = None):
        obs, infos = self.reset_each(seed=seed, options=options)
        return obs, self._merge(infos)

    @one_thread("reset")
    def reset_each(self, *, seed: int | list[int | None] | None = None,
                   options: dict | list[dict | None] | None = None) -> tuple[np.ndarray, list[dict]]:
        """``reset()`` with each env's own info, a list in env order, instead of Gymnasium's batched dict
        (for adapters whose infos are a list, such as emucore.sb3). ``seed`` and ``options`` may be lists,
        one per env."""
        seeds = self._seeds(seed)
        each = options if isinstance(options, list) else [options] * self.num_envs
        self._waiting = True
        infos = self._parallel([(index, "reset", (seeds[index], each[index])) for index in range(self.num_envs)])
        self._waiting = False
        return (self._observations.copy() if self.copy else self._observations), infos

    @one_thread("step")
    def step(self, actions):
        self._step_async(actions)
        return self._step_wait(batched=True)

    @one_thread("step")
    def step_async(self, actions) -> None:
        """Starts stepping every env with its row of ``actions``; ``step_wait()`` returns the results."""
        self._step_async(actions)

    @one_thread(None)
    def step_wait(self):
        """The results of the step ``step_async()`` started, as ``step()`` returns them."""
        return self._step_wait(batched=True)

    @one_thread(None)
    def step_wait_each(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        """``step_wait()`` with each env's own info, a list in env order, instead of Gymnasium's batched dict;
        under SAME_STEP an env reset in this step has ``final_obs`` and ``final_info`` in its info."""
        return self._step_wait(batched=False)

    def _step_async(self, actions: Any) -> None:
        check_batch(actions, self.num_envs, "step()")
        self._waiting = True  # until the step's results are returned: an interrupt leaves it set
        self._sync_native = self._send_native(self._all, actions)
        if not self._sync_native:
            self._start([(index, "step", actions[index]) for index in range(self.num_envs)])

    def _step_wait(self, batched: bool) -> Any:
        if not self._waiting:
            raise RuntimeError("step_wait() without step_async(): no step is in progress")
        if self._sync_native:
            assert self._native is not None  # _sync_native: it sent
            _, python = self._native.receive(self.num_envs)
            rows = self._native.rows(self._all, python)
        else:
            rows = self._collect()
        self._waiting = False
        return self._results(self._merge(rows) if batched else as_dicts(rows))

    def _results(self, infos: Any) -> Any:
        return (
            self._observations.copy() if self.copy else self._observations,
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    # ---- the asynchronous form (EnvPool's): each env steps as soon as its action is sent ----

    @one_thread("async_reset")
    def async_reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None) -> None:
        """Starts resetting every env; ``recv()`` returns their first observations, ``batch_size`` at a time."""
        seeds = self._seeds(seed)
        self._waiting = True  # while starting: an interrupt leaves the next reset to settle
        self._start([(index, "reset", (seeds[index], options)) for index in range(self.num_envs)])
        self._waiting = False

    @one_thread(None)
    def send(self, actions, env_id=None) -> None:
        """Starts stepping the envs ``env_id`` (default: those the last ``recv()`` returned) with ``actions``,
        one row each. An env whose episode ended at its last step is reset instead (autoreset, next step)."""
        if self._interrupted:
            self._settle()
        ids = self._received if env_id is None else np.asarray(env_id).reshape(-1)
        valid = ids.dtype.kind in "iu" and not ((ids < 0) | (ids >= self.num_envs)).any()
        if not valid or len(set(ids.tolist())) < len(ids):
            raise ValueError(f"env_id must be distinct env indices in [0, {self.num_envs}), got {ids.tolist()}")
        check_batch(actions, len(ids), "send()")
        busy = ids[self._python_flight[ids] | self._native_flight[ids]]
        if len(busy):
            raise ValueError(f"envs {busy.tolist()} are still stepping: recv() their results before sending again")
        self._waiting = True
        if not self._send_native(ids.astype(np.int32), actions):
            self._start([(int(index), "step", action) for index, action in zip(ids, actions)])
        self._waiting = False

    @one_thread(None)
    def recv(self):
        """The next ``batch_size`` envs to finish: (observations, rewards, terminations, truncations, infos),
        rows in the order they finished; ``infos["env_id"]`` says which env each row is."""
        python_flight, native_flight = int(self._python_flight.sum()), int(self._native_flight.sum())
        receiving = self._native is not None and self._native.receiving
        if not (python_flight or native_flight or receiving):
            raise RuntimeError("recv() before send() or async_reset(): no env is stepping")
        count = self.batch_size
        # envs the Python threads have finished come first
        ready = self._queue.finished() if python_flight and self._queue is not None else 0
        native = min(count - min(ready, count), native_flight) or int(receiving)
        python_ids, python_infos = [], []
        if count > native and python_flight:  # resets, and envs C cannot step
            assert self._queue is not None  # made by _start
            done = self._queue.take(min(count - native, python_flight))
            python_ids = [index for (index, _, _), _ in done]
            self._python_flight[python_ids] = False
            for _, result in done:
                if isinstance(result, BaseException):
                    raise result
            python_infos = [result for _, result in done]
        ids = np.array(python_ids, dtype=np.int64)
        if native:
            assert self._native is not None
            native_ids, finished = self._native.receive(native)
            ids = np.concatenate([ids, native_ids])
            rows = self._native.rows(native_ids, finished)
            batch = self._merge(python_infos + as_dicts(rows) if python_infos else rows)
        else:
            batch = self._merge(python_infos)
        self._received = ids
        batch["env_id"] = ids
        return self._observations[ids], self._rewards[ids], self._terminations[ids], self._truncations[ids], batch

    # ---- threads and interrupts ----

    def _interrupted_by(self, error: BaseException) -> None:
        """A step or reset in progress raised: the next one settles it; after Ctrl-C, the envs in flight finish
        before the interrupt is raised (a second one leaves that to the next call)."""
        if self._waiting and not self._closed:
            self._interrupted = True
            if isinstance(error, KeyboardInterrupt):
                self._settle()

    def _check_turn(self, starts: str | None) -> None:
        if self._closed:
            raise closed_error()
        if starts is None:
            return
        if self._interrupted:
            self._settle()
        if self._waiting:
            raise RuntimeError(f"{starts}() while the envs are stepping (step_async() started a step): "
                               "step_wait() first")
        if self._python_flight.any() or self._native_flight.any():
            flying = np.flatnonzero(self._python_flight | self._native_flight).tolist()
            raise RuntimeError(f"{starts}() while envs {flying} are stepping asynchronously: recv() their results "
                               "first")

    def _settle(self) -> None:
        """Receives and drops what an interrupted step or reset left in flight."""
        if self._native is not None:
            self._native.settle()
        if self._queue is not None and self._queue.pending():
            self._queue.take(self._queue.pending())
        self._python_flight[:] = False
        self._waiting = self._interrupted = False

    def _send_native(self, ids: np.ndarray, actions: Any) -> bool:
        """Starts the envs ``ids`` in C; False, with nothing started, where Python steps them."""
        return self._native is not None and self._native.start(ids, actions)

    def _start(self, tasks: list[tuple[int, str, Any]]) -> None:
        if self._queue is None:
            self._queue = StepQueue(weak_method(self._run_task), self._threads, closed_error=closed_error)
            weakref.finalize(self, self._queue.close)  # a vector env dropped without close() stops its threads
        if self._native is not None:  # stepped in Python: handed back from C
            for index, _, _ in tasks:
                self._native.give_back(index)
        self._python_flight[[index for index, _, _ in tasks]] = True
        self._queue.put(tasks)

    def _run_task(self, task: tuple[int, str, Any]) -> dict:
        index, kind, argument = task
        if kind == "reset":
            return self._reset_env(index, *argument)
        return self._step_env(index, argument)

    # ---- one env ----

    def _seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        return seed if isinstance(seed, list) else [None if seed is None else seed + i for i in range(self.num_envs)]

    def _reset_env(self, index: int, seed: int | None, options: dict | None) -> dict:
        obs, info = self._envs[index].reset(seed=seed, options=options)
        self._observations[index] = obs
        self._rewards[index] = 0.0
        self._terminations[index] = self._truncations[index] = self._autoreset[index] = False
        return info

    def _step_env(self, index: int, action) -> dict:
        if self._autoreset[index]:
            return self._reset_env(index, None, None)
        reward, terminated, truncated, info = self._envs[index].step_into(action, self._observations[index])
        return self._after_step(index, reward, terminated, truncated, info)

    def _after_step(self, index: int, reward: Any, terminated: bool, truncated: bool, info: dict) -> dict:
        """An env's step results written, and the autoreset it calls for; the info to return."""
        self._rewards[index] = reward
        self._terminations[index] = terminated
        self._truncations[index] = truncated
        if not (terminated or truncated):
            return info
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            self._autoreset[index] = True
            return info
        # SAME_STEP: the reset runs here, on this worker, and this step's reward and flags stay
        final_obs = self._observations[index].copy()
        obs, reset_info = self._envs[index].reset()
        self._observations[index] = obs
        return {**reset_info, "final_obs": final_obs, "final_info": info}

    def render(self):
        return tuple(env.get_screen() for env in self._envs)

    def close_extras(self, **kwargs: Any) -> None:
        if getattr(self, "_closed", True):  # True also when __init__ refused its arguments (Gymnasium 1.2 closes it)
            return
        self._closed = True
        if self._native is not None:  # first: it waits for the envs stepping in C
            self._native.close()
        if self._queue is not None:
            self._queue.close()
        for env in self._envs:
            env.close()

