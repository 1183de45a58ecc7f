"""The batch step's C side (step_batch.c): its env slots, the batch arrays they write, and its thread pool.

:mod:`emucore.env.batch_slots` fills a slot from a RetroEnv; this module only owns the memory C reads and
writes (numpy arrays, so Python reads the results without a copy per env) and the native pool.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.errors import EmulatorClosedError
from emucore.libretro._native import ffi, lib

OK, ACTION, FRAMES, RESET, RESET_RAN, THREW, CLOSED, BUSY, NO_DRAWS = (
    lib.EMU_BATCH_OK, lib.EMU_BATCH_ACTION, lib.EMU_BATCH_FRAMES, lib.EMU_BATCH_RESET, lib.EMU_BATCH_RESET_RAN,
    lib.EMU_BATCH_THREW, lib.EMU_BATCH_CLOSED, lib.EMU_BATCH_BUSY, lib.EMU_BATCH_NO_DRAWS,
)
DRAWS = 64  # uniform draws kept per env for the sticky frame skip
WAIT_MS = 20  # recv returns to Python at least this often while it waits, so that Ctrl-C is seen


def closed_error() -> EmulatorClosedError:
    return EmulatorClosedError("the vector env is closed")


def _free(pool: Any, outlive: tuple) -> None:
    lib.emu_batch_free(pool)  # closes, waits for the envs stepping and joins the threads


class NativeBatch:
    """``num_envs`` slots over batch arrays, stepped by ``threads`` native threads (the caller of ``recv`` is one).

    Any thread may call ``send``, ``recv``, ``flying_flags`` and ``close`` (step_batch.h's thread rules); after
    ``close``, ``send`` and ``recv`` raise EmulatorClosedError; the pool's memory is freed when this is collected.

    ``observations`` (num_envs, *obs_shape) uint8, ``rewards`` float64, ``terminated`` and ``truncated`` (bool,
    num_envs each) are the caller's arrays the envs write, as are ``values`` (num_envs, num_values) int64; the
    envs read their actions from the rows of ``actions`` (num_envs, columns) int64.
    """

    def __init__(self, observations: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                 truncated: np.ndarray, columns: int, num_values: int, threads: int):
        num_envs = len(observations)
        obs_shape = observations.shape[1:]
        self.num_envs = num_envs
        self.observations = observations
        self.actions = np.zeros((num_envs, max(columns, 1)), dtype=np.int64)
        self.values = np.zeros((num_envs, max(num_values, 1)), dtype=np.int64)
        self.final_observations = np.zeros((num_envs, *obs_shape), dtype=np.uint8)
        self.final_values = np.zeros_like(self.values)
        self.rewards, self.terminated, self.truncated = rewards, terminated, truncated
        self.has_info = np.zeros(num_envs, dtype=np.uint8)
        self.final = np.zeros(num_envs, dtype=np.uint8)
        self.status = np.zeros(num_envs, dtype=np.int32)
        self.draws = np.zeros((num_envs, DRAWS), dtype=np.float64)
        self.next_draw = np.full(num_envs, DRAWS, dtype=np.int64)
        self.slots = ffi.new("emu_batch_env[]", num_envs)
        self._keep: list[Any] = []  # the cffi pointers to the rows of these arrays
        self._env_keep: list[list[Any]] = [[] for _ in range(num_envs)]
        obs_size = int(np.prod(obs_shape))
        for index, slot in enumerate(self.slots):
            slot.action = self._row("int64_t[]", self.actions, index)
            slot.obs_row = self._row("uint8_t[]", observations, index)
            slot.obs_size = obs_size
            slot.values_row = self._row("int64_t[]", self.values, index)
            slot.final_obs_row = self._row("uint8_t[]", self.final_observations, index)
            slot.final_values_row = self._row("int64_t[]", self.final_values, index)
            slot.reward = self._row("double[]", self.rewards, index)
            slot.terminated = self._row("uint8_t[]", self.terminated, index)
            slot.truncated = self._row("uint8_t[]", self.truncated, index)
            slot.has_info = self._row("uint8_t[]", self.has_info, index)
            slot.final = self._row("uint8_t[]", self.final, index)
            slot.status = self._row("int32_t[]", self.status, index)
            slot.draws = self._row("double[]", self.draws, index)
            slot.next_draw = self._row("int64_t[]", self.next_draw, index)
            slot.draws_count = DRAWS
        pool = lib.emu_batch_new(self.slots, num_envs, max(1, threads))
        if pool == ffi.NULL:
            raise MemoryError(f"could not start {threads} threads for {num_envs} envs")
        # Freed once collected (no thread is then in a call of it). The slots, the rows they point at and the envs'
        # emulators must outlive the pool's threads, which may still be stepping an env nobody receives: the
        # destructor holds them, so they go after it (an object's attributes are freed in no set order).
        outlive = (self.slots, self._keep, self._env_keep)
        self._pool = ffi.gc(pool, lambda pool: _free(pool, outlive))
        self._ids = ffi.new("int32_t[]", num_envs)
        self._id_array = np.frombuffer(ffi.buffer(self._ids), dtype=np.int32)

    def _row(self, kind: str, array: np.ndarray, index: int) -> Any:
        row = array[index] if array.ndim > 1 else array[index:index + 1]
        pointer = ffi.from_buffer(kind, row)
        self._keep.append(pointer)
        return pointer

    def point(self, index: int, *, host: Any, program: Any, obs: Any, table: Any, radix: np.ndarray,
              state: bytes | None, sums: Any, keep: list[Any]) -> None:
        """Points env ``index``'s slot at its emulator (``emu_host *``, set last: the slot is then live), compiled
        program, observation plan (None: the screen as it is), action table (None: the index is the buttons),
        int64 ``radix``, start state (None: none) and the program's sums; ``keep`` stays alive while it is."""
        slot = self.slots[index]
        slot.host = ffi.NULL
        slot.program = program
        slot.obs = ffi.NULL if obs is None else obs
        slot.table = ffi.NULL if table is None else table
        radix_pointer = ffi.from_buffer("int64_t[]", radix)
        slot.radix, slot.columns = radix_pointer, len(radix)
        slot.state = ffi.from_buffer("uint8_t[]", state) if state else ffi.NULL
        slot.state_size = len(state) if state else 0
        slot.sums = sums
        self._env_keep[index] = [*keep, radix, radix_pointer, state]
        slot.host = host

    def clear(self, index: int) -> None:
        """Empties env ``index``'s slot: C leaves the env to Python (status CLOSED) until it is pointed again."""
        self.slots[index].host = ffi.NULL
        self._env_keep[index] = []

    def send(self, ids: np.ndarray) -> None:
        """Queues the envs ``ids`` (int32, their action rows written) to be stepped; ValueError, with nothing
        queued, if one is out of range, repeated or still in flight."""
        sent = lib.emu_batch_send(self._pool, ffi.from_buffer("int32_t[]", ids), len(ids))
        if sent == lib.EMU_BATCH_POOL_CLOSED:
            raise closed_error()
        if sent != lib.EMU_BATCH_SENT:
            raise ValueError(f"envs {ids.tolist()} cannot be sent: one is out of range, repeated or still stepping")

    def recv(self, count: int) -> np.ndarray:
        """Waits up to about WAIT_MS for ``count`` envs to be stepped; their ids in the order they finished (a new
        array), fewer if one's status is not OK (it is the last), if no more are in flight or if the wait ran out."""
        taken = lib.emu_batch_recv(self._pool, count, self._ids, WAIT_MS)
        if taken < 0:
            raise closed_error()
        return self._id_array[:taken].astype(np.int64)

    def flying_flags(self) -> np.ndarray:
        """Which envs are in flight (bool per env): sent, not yet handed back by ``recv``."""
        flags = np.zeros(self.num_envs, dtype=np.uint8)
        lib.emu_batch_flying(self._pool, ffi.from_buffer("uint8_t[]", flags))
        return flags.astype(np.bool_)

    def close(self) -> None:
        """Wakes the threads waiting in ``recv``, drops the envs not started and returns once no env is
        stepping: the pool no longer touches an env."""
        lib.emu_batch_close(self._pool)
