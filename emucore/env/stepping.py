"""RetroEnv's step: the action pressed, the frame (or ``frame_skip`` frames) run and evaluated, the observation.

Three paths give the same results: the common step (one player's 1-byte MultiBinary flags, the whole screen
observed, no movie) pressed, run and observed in one call into C; several frames (``frame_skip``,
``sticky_prob``; see :mod:`emucore.env.frame_skip`) in one call into C where the scenario is compiled, then
frame by frame from where C stopped; and frame by frame in Python for everything else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from emucore.enums import Actions, Observations
from emucore.env.episode_state import EpisodeState
from emucore.env.observing import Observer


class Stepper:
    """One env's step, over its :class:`EpisodeState` and :class:`Observer`.

    Args:
        state: The env's episode state.
        observer: Its observations.
        use_restricted_actions: How actions are decoded.
        random: The env's generator (``env.np_random``, which ``reset(seed=...)`` replaces).
        flag_table: One player's MultiBinary flags go to C as they are (``mask_table(None)``) or through
            FILTERED's table; None where they cannot.
        whole_screen: The observation is the whole screen, one frame a step (then the common step is one call).
    """

    def __init__(self, state: EpisodeState, observer: Observer, use_restricted_actions: Actions,
                 random: Callable[[], np.random.Generator], flag_table: Any, whole_screen: bool):
        self.state = state
        self.observer = observer
        self.use_restricted_actions = use_restricted_actions
        self._random = random
        self._flag_table = flag_table
        self._flag_shape = (len(state.em.system.buttons),)
        preprocessing = state.preprocessing
        self.frames_loop = preprocessing.frame_skip > 1 or state.plan is not None or preprocessing.sticky_prob > 0
        width, height = state.em.get_resolution()
        self._screen_shape = (
            (height, width, 3) if whole_screen and flag_table is not None and not self.frames_loop else None)

    # ---- the step ----

    def step(self, action: Any) -> tuple[np.ndarray, Any, bool, dict]:
        """(observation, reward, done, info) of one step."""
        if self._screen_shape is not None:
            obs = self._step_in_one_call(action)
            if obs is not None:
                data = self.state.evaluator  # one player (flags go to C): one reward
                return obs, data.current_reward(), data.done, data.info_after_update()
        if self.frames_loop:
            return self.step_frames(action, None)
        self._frame(self._press(action))
        obs = self.observer.update()
        reward, done, info = self.step_result()
        return obs, reward, done, info

    def step_into(self, action: Any, out: np.ndarray) -> tuple[Any, bool, dict]:
        """``step()`` writing the observation into ``out`` (for vector envs): (reward, done, info), no new array."""
        if self.frames_loop:
            _, reward, done, info = self.step_frames(action, out)
            return reward, done, info
        self._frame(self._press(action))
        state = self.state
        if state.obs_type is Observations.IMAGE and self.observer.plain_screen:
            state.img = state.em.get_screen(out)
        else:
            out[...] = self.observer.update()
        return self.step_result()

    def step_masks(self, masks: list[int]) -> tuple[Any, bool]:
        """A step from per-player button masks, with no observation or info built: (reward, done)."""
        state = self.state
        if state.img is None and state.ram is None:
            raise RuntimeError("Please call env.reset() before env.step()")
        self.hold(masks)
        state.em.step()
        state.evaluator.update_ram()
        return self.reward(), state.evaluator.is_done()

    def start_episode(self) -> tuple[np.ndarray, dict]:
        """The reset after its frame ran: the first evaluation of an episode and its observation."""
        state = self.state
        state.evaluator.reset()
        state.evaluator.update_ram()
        state.elapsed_steps = 0
        state.sticky_ready = False
        return self.observer.observe(pool=False), {}

    def time_is_up(self) -> bool:
        """Counts the step; whether it is the episode's ``max_episode_steps``-th (Gymnasium's TimeLimit)."""
        state = self.state
        state.elapsed_steps += 1
        return state.max_episode_steps is not None and state.elapsed_steps >= state.max_episode_steps

    def step_result(self) -> tuple[Any, bool, dict]:
        """compute_step() straight after the step's evaluation, reusing the values it read."""
        return self.reward(), self.state.evaluator.is_done(), self.state.evaluator.info_after_update()

    def reward(self) -> Any:
        """The last frame's reward: a float, or one per player with ``multi_rewards``."""
        state = self.state
        if state.players > 1 and state.multi_rewards:
            return [state.evaluator.current_reward(p) for p in range(state.players)]
        return state.evaluator.current_reward()

    def _step_in_one_call(self, action: Any) -> np.ndarray | None:
        """The common step pressed, run and observed in one call into C, then evaluated; None where it does not
        apply (nothing run then)."""
        state = self.state
        if state.img is None or not self._flags_for_c(action):
            return None
        shape = self._screen_shape
        assert shape is not None  # step() checked
        obs = np.empty(shape, dtype=np.uint8)
        result = state.em.step_pressed(action, self._flag_table, obs)
        if result < 0:
            return None  # a flag other than 0 or 1, nothing run: the decoder names the problem
        state.img = obs if result == 0 else self.observer.get_screen(0, apply_rotation=True)
        state.evaluator.update_ram()
        return state.img

    # ---- buttons and frames ----

    def _flags_for_c(self, action: Any) -> bool:
        """Whether the action goes to C as it is: one player's 1-byte MultiBinary flags, and no movie
        that needs the decoded masks (C checks that each flag is 0 or 1)."""
        return (
            self._flag_table is not None and self.state.movie is None and type(action) is np.ndarray
            and action.shape == self._flag_shape and action.dtype.itemsize == 1 and action.dtype.kind in "biu"
            and action.flags.c_contiguous
        )

    def _press(self, action: Any) -> list[int] | None:
        """Holds the action's buttons; its per-player masks, or None from the fast path (no movie to tell)."""
        state = self.state
        if state.img is None and state.ram is None:
            raise RuntimeError("Please call env.reset() before env.step()")
        if self._flags_for_c(action) and state.em.press(action, self._flag_table):
            return None
        masks = state.evaluator.actions.decode(action, self.use_restricted_actions, state.players)
        self.hold(masks)
        return masks

    def hold(self, masks: list[int]) -> None:
        """Holds each player's button mask."""
        for player, mask in enumerate(masks):
            self.state.em.set_button_mask(mask, player)

    def held(self) -> list[int]:
        """Each player's buttons held now."""
        return [self.state.em.get_button_mask(player) for player in range(self.state.players)]

    def _frame(self, masks: list[int] | None) -> None:
        """One frame with the buttons held, recorded if a movie is, and its evaluation."""
        state = self.state
        movie = state.movie
        if movie is not None and masks is not None:
            buttons = self._flag_shape[0]
            for player, mask in enumerate(masks):
                for i in range(buttons):
                    movie.set_key(i, bool((mask >> i) & 1), player)
            movie.step()
        state.em.step()
        state.evaluator.update_ram()

    # ---- several frames a step ----

    def step_frames(self, action: Any, out: np.ndarray | None) -> tuple[np.ndarray, Any, bool, dict]:
        """The action held for ``frame_skip`` frames (see :mod:`emucore.env.frame_skip`)."""
        state = self.state
        skip, pools = state.preprocessing.frame_skip, state.preprocessing.pools
        held = self._sticky_masks()
        masks = self._press(action)
        switch = None  # with the previous buttons held for the first frame: the new ones, from the second on
        if held is not None:
            switch = self.held()
            self.hold(held)
        run = None
        multi = state.players > 1 and state.multi_rewards
        if state.movie is None:  # the frames in one call into C, where the scenario is compiled
            run = state.evaluator.update_frames(state.em.session, skip, state.plan if pools else None,
                                                state.players if multi else 1, switch)
        return self.frames_after(run, held, masks, switch, out)

    def frames_after(self, run: tuple[int, int, Any] | None, held: list[int] | None, masks: list[int] | None,
                     switch: list[int] | None, out: np.ndarray | None) -> tuple[np.ndarray, Any, bool, dict]:
        """The step's frames after those C ran and evaluated (``run``: as ``update_frames`` returns it, None if
        none), frame by frame, and its observation."""
        state = self.state
        skip, pools = state.preprocessing.frame_skip, state.preprocessing.pools
        data, plan, multi = state.evaluator, state.plan, state.players > 1 and state.multi_rewards
        total: Any = None
        start, pending = 0, False  # frames run and evaluated in C; whether one more ran unevaluated
        if run is not None:
            ran, start, sums = run
            pending = ran > start
            if ran > 1:
                switch = None
            if sums is not None:
                total = sums if multi else sums[0]
            if start == skip or start and data.done:
                return self.observer.observe(pools and start == skip, out), total, data.done, data.info_after_update()
        for index in range(start, skip):
            if pending:  # C stopped before evaluating it (memory may have moved)
                pending = False
                data.update_ram()
            elif held is not None and index == 0:
                self._frame(held if masks is not None else None)
            else:
                if switch is not None:
                    self.hold(switch)
                    switch = None
                self._frame(masks)
            reward = self.reward()
            total = reward if total is None else [a + b for a, b in zip(total, reward)] if isinstance(reward, list) \
                else total + reward
            if data.done:
                break
            if pools and index == skip - 2 and plan is not None:
                plan.hold()
        obs = self.observer.observe(pools and index == skip - 1, out)
        return obs, total, data.done, data.info_after_update()

    def _sticky_masks(self) -> list[int] | None:
        """The buttons held now if this step keeps them for its first frame (``sticky_prob``), else None."""
        state = self.state
        probability = state.preprocessing.sticky_prob
        if not probability:
            return None
        if not state.sticky_ready:  # an episode's first step has no previous action
            state.sticky_ready = True
            return None
        if self._random().random() > probability:
            return None
        return self.held()
