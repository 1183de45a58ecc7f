"""RetroEnv's step over several frames (``frame_skip``, ``sticky_prob``; see :mod:`emucore.env.frame_skip`):
the frames in one call into C where it can, frame by frame from where C stopped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from emucore.env.frame_skip import Preprocessing


class FrameStepping:
    """RetroEnv's frame-skipping step, over its emulator, evaluator and observation methods."""

    em: Any
    evaluator: Any
    movie: Any
    players: int
    multi_rewards: bool
    preprocessing: Preprocessing
    np_random: np.random.Generator
    _plan: Any
    _sticky_ready: bool

    # RetroEnv's and Observing's methods (annotations only: a body here would hide theirs)
    _press: Callable[[Any], list[int] | None]
    _hold: Callable[[list[int]], None]
    _held: Callable[[], list[int]]
    _frame: Callable[[list[int] | None], None]
    _reward: Callable[[], Any]
    _observe: Callable[..., np.ndarray]

    def _step_frames(self, action, out: np.ndarray | None) -> tuple[np.ndarray, Any, bool, dict]:
        """The action held for ``frame_skip`` frames (see :mod:`emucore.env.frame_skip`)."""
        skip, pools = self.preprocessing.frame_skip, self.preprocessing.pools
        held = self._sticky_masks()
        masks = self._press(action)
        switch = None  # with the previous buttons held for the first frame: the new ones, from the second on
        if held is not None:
            switch = self._held()
            self._hold(held)
        run = None
        multi = self.players > 1 and self.multi_rewards
        if self.movie is None:  # the frames in one call into C, where the scenario is compiled
            run = self.evaluator.update_frames(self.em.session, skip, self._plan if pools else None,
                                          self.players if multi else 1, switch)
        return self._frames_after(run, held, masks, switch, out)

    def _frames_after(self, run: tuple[int, int, Any] | None, held: list[int] | None, masks: list[int] | None,
                      switch: list[int] | None, out: np.ndarray | None) -> tuple[np.ndarray, Any, bool, dict]:
        """The step's frames after those C ran and evaluated (``run``: as ``update_frames`` returns it, None if
        none), frame by frame, and its observation."""
        skip, pools = self.preprocessing.frame_skip, self.preprocessing.pools
        data, plan = self.evaluator, self._plan
        total: Any = None
        start, pending = 0, False  # frames run and evaluated in C; whether one more ran unevaluated
        if run is not None:
            ran, start, sums = run
            pending = ran > start
            if ran > 1:
                switch = None
            if sums is not None:
                total = sums if self.players > 1 and self.multi_rewards else sums[0]
            if start == skip or start and data.done:
                return self._observe(pools and start == skip, out), total, data.done, data.info_after_update()
        for index in range(start, skip):
            if pending:  # C stopped before evaluating it (memory may have moved)
                pending = False
                data.update_ram()
            elif held is not None and index == 0:
                self._frame(held if masks is not None else None)
            else:
                if switch is not None:
                    self._hold(switch)
                    switch = None
                self._frame(masks)
            reward = self._reward()
            total = reward if total is None else [a + b for a, b in zip(total, reward)] if isinstance(reward, list) \
                else total + reward
            if data.done:
                break
            if pools and index == skip - 2 and plan is not None:
                plan.hold()
        obs = self._observe(pools and index == skip - 1, out)
        return obs, total, data.done, data.info_after_update()

    def _sticky_masks(self) -> list[int] | None:
        """The buttons held now if this step keeps them for its first frame (``sticky_prob``), else None."""
        probability = self.preprocessing.sticky_prob
        if not probability:
            return None
        if not self._sticky_ready:  # an episode's first step has no previous action
            self._sticky_ready = True
            return None
        if self.np_random.random() > probability:
            return None
        return self._held()

