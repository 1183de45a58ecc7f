"""``RetroVectorEnv``: N emulators in one process, stepped on a thread pool.

stable-retro allows one emulator per process, so its vector envs need a process per env and
copy every observation between processes. Here each env's emulator is a private core copy and
``step()`` releases the GIL while the core runs, so threads run the cores in parallel and the
observations land in one batch array. ``num_threads`` (default: the CPUs) counts the calling
thread, which steps a share of the envs itself. Autoreset follows Gymnasium's default (next step).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from emucore.env.make import make


class RetroVectorEnv(VectorEnv):
    """``num_envs`` copies of one game; ``make_kwargs`` go to :func:`emucore.make`."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, game: str, num_envs: int, *, num_threads: int | None = None, copy: bool = True,
                 **make_kwargs: Any):
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        make_kwargs.setdefault("render_mode", None)
        self.envs = []
        try:
            for _ in range(num_envs):
                self.envs.append(make(game, **make_kwargs))
        except BaseException:
            for env in self.envs:
                env.close()
            raise
        first = self.envs[0]
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = make_kwargs.get("render_mode")
        self._observations = np.zeros((num_envs, *self.single_observation_space.shape), dtype=np.uint8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        threads = max(1, min(num_threads or os.cpu_count() or 1, num_envs))
        self._chunks = [list(range(i, num_envs, threads)) for i in range(threads)]
        self._pool = ThreadPoolExecutor(max(threads - 1, 1), thread_name_prefix="emucore-env")
        self._closed = False

    def _parallel(self, work) -> list[dict]:
        """Runs ``work(index)`` for every env, a chunk of envs per thread; returns their infos."""
        infos: list[dict] = [{}] * self.num_envs

        def run(chunk: list[int]) -> None:
            for index in chunk:
                infos[index] = work(index)

        # The calling thread runs the first chunk itself: waking a sleeping thread costs ~100 us on a VM,
        # so one env thread steps with no hand-off at all, and two with one.
        futures = [self._pool.submit(run, chunk) for chunk in self._chunks[1:]]
        try:
            run(self._chunks[0])
        finally:
            for future in futures:
                future.exception()  # waits: no env is left stepping when this returns or raises
        for future in futures:
            future.result()
        return infos

    def _merge(self, infos: list[dict]) -> dict:
        """Gymnasium's batched info: an array per key plus a ``_key`` mask of who has it."""
        keys = infos[0].keys()
        if all(info.keys() == keys for info in infos) and all(
            type(value) is int for info in infos for value in info.values()
        ):  # the usual case, built in one go
            merged: dict = {}
            present = np.ones(self.num_envs, dtype=np.bool_)
            for key in keys:
                merged[key] = np.array([info[key] for info in infos])
                merged[f"_{key}"] = present.copy()
            return merged
        merged = {}
        for index, info in enumerate(infos):
            if info:
                merged = self._add_info(merged, info, index)
        return merged

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        seeds = seed if isinstance(seed, list) else [None if seed is None else seed + i for i in range(self.num_envs)]

        def work(index: int) -> dict:
            obs, info = self.envs[index].reset(seed=seeds[index], options=options)
            self._observations[index] = obs
            return info

        infos = self._parallel(work)
        self._autoreset[:] = False
        return (self._observations.copy() if self.copy else self._observations), self._merge(infos)

    def step(self, actions):
        def work(index: int) -> dict:
            env = self.envs[index]
            if self._autoreset[index]:
                obs, info = env.reset()
                self._rewards[index] = 0.0
                self._terminations[index] = self._truncations[index] = False
                self._observations[index] = obs
            else:
                reward, terminated, truncated, info = env.step_into(actions[index], self._observations[index])
                self._rewards[index] = reward
                self._terminations[index] = terminated
                self._truncations[index] = truncated
            return info

        infos = self._parallel(work)
        self._autoreset = np.logical_or(self._terminations, self._truncations)
        return (
            self._observations.copy() if self.copy else self._observations,
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            self._merge(infos),
        )

    def render(self):
        return tuple(env.get_screen() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=True)
        for env in self.envs:
            env.close()
