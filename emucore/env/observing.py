"""RetroEnv's observations: the screen (cropped and rotated by stable-retro's rules), RAM, preprocessed
frames (:mod:`emucore.env.frame_skip`) and ``render()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from emucore.enums import Observations
from emucore.env.episode_state import EpisodeState
from emucore.env.frame_skip import rotate, visible_crop

if TYPE_CHECKING:
    from emucore.env.viewer import ImageViewer


class Observer:
    """One env's observations, over its :class:`EpisodeState` (``img`` and ``ram`` hold the last ones)."""

    def __init__(self, state: EpisodeState):
        self.state = state
        self.viewer: ImageViewer | None = None  # render_mode="human"'s window, opened by the first render()

    @property
    def plain_screen(self) -> bool:
        """True when the observation is the emulator's screen as it is (no crop, no rotation)."""
        state = self.state
        return state.evaluator.scenario.crop(0) == (0, 0, 0, 0) and state.em.get_rotation() % 4 == 0

    def observe(self, pool: bool, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of the current frame (pooled with the one before if ``pool``), into ``out`` if given."""
        state = self.state
        plan = state.plan
        if plan is None:
            obs = self.update()
            if out is not None:
                out[...] = obs
            return obs
        rotation = state.em.get_rotation() % 4
        target = out if out is not None and not rotation else np.empty(plan.shape, dtype=np.uint8)
        obs = plan.build(target, pool)
        if rotation:
            obs = rotate(obs, rotation)
            if out is not None:
                out[...] = obs
        state.img = obs
        return obs

    def update(self) -> np.ndarray:
        """The observation of the current frame, not preprocessed: the screen or RAM (kept as ``img`` or ``ram``)."""
        state = self.state
        if state.obs_type is Observations.RAM:
            state.ram = self.get_ram()
            return state.ram
        state.img = self.get_screen(0, apply_rotation=True)
        return state.img

    def get_screen(self, player: int = 0, apply_rotation: bool = False) -> np.ndarray:
        """The frame cropped by the player's crop (stable-retro's rules), optionally rotated."""
        em = self.state.em
        img = em.get_screen()
        height, width = img.shape[:2]
        x, y, w, h = visible_crop(self.state.evaluator.scenario.crop(player), (width, height))
        if x or y or w != width or h != height:
            img = img[y : y + h, x : x + w]
        if apply_rotation:
            img = rotate(img, em.get_rotation() % 4)
        return img

    def get_ram(self) -> np.ndarray:
        """All RAM blocks in address order, raw bytes."""
        return self.state.em.get_ram()

    def render(self, render_mode: str | None, title: str) -> np.ndarray | bool | None:
        """Gymnasium's ``render()``: the picture (``rgb_array``), or shown in a window titled ``title`` (``human``:
        whether the window is still open)."""
        state = self.state
        shown = state.img if state.plan is None else None  # a preprocessed observation is not the picture
        img = shown if shown is not None else self.get_screen(0, apply_rotation=True)
        if render_mode == "rgb_array":
            return img
        if render_mode == "human":
            if self.viewer is None:
                from emucore.env.viewer import ImageViewer

                self.viewer = ImageViewer(title, state.em.get_screen_rate())
            self.viewer.show(img)
            return self.viewer.is_open
        return None

    def close(self) -> None:
        """Closes the window, if one is open."""
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None
