"""RetroEnv's observations: the screen (cropped and rotated by stable-retro's rules), RAM, preprocessed
frames (:mod:`emucore.env.frame_skip`) and ``render()``."""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.enums import Observations
from emucore.env.frame_skip import rotate, visible_crop


class Observing:
    """RetroEnv's observation methods, over its ``em``, ``data``, ``_plan`` and ``_obs_type``."""

    em: Any
    evaluator: Any
    img: np.ndarray | None
    ram: np.ndarray | None
    render_mode: str | None
    viewer: Any
    gamename: str
    _plan: Any
    _obs_type: Observations

    @property
    def _plain_screen(self) -> bool:
        """True when the observation is the emulator's screen as it is (no crop, no rotation)."""
        return self.evaluator.scenario.crop(0) == (0, 0, 0, 0) and self.em.get_rotation() % 4 == 0

    def _observe(self, pool: bool, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of the current frame (pooled with the one before if ``pool``), into ``out`` if given."""
        plan = self._plan
        if plan is None:
            obs = self._update_obs()
            if out is not None:
                out[...] = obs
            return obs
        rotation = self.em.get_rotation() % 4
        target = out if out is not None and not rotation else np.empty(plan.shape, dtype=np.uint8)
        obs = plan.build(target, pool)
        if rotation:
            obs = rotate(obs, rotation)
            if out is not None:
                out[...] = obs
        self.img = obs
        return obs

    def _update_obs(self) -> np.ndarray:
        if self._obs_type is Observations.RAM:
            self.ram = self.get_ram()
            return self.ram
        self.img = self.get_screen(0, apply_rotation=True)
        return self.img

    def get_screen(self, player: int = 0, apply_rotation: bool = False) -> np.ndarray:
        """The frame cropped by the player's crop (stable-retro's rules), optionally rotated."""
        img = self.em.get_screen()
        height, width = img.shape[:2]
        x, y, w, h = visible_crop(self.evaluator.scenario.crop(player), (width, height))
        if x or y or w != width or h != height:
            img = img[y : y + h, x : x + w]
        if apply_rotation:
            img = rotate(img, self.em.get_rotation() % 4)
        return img

    def get_ram(self) -> np.ndarray:
        """All RAM blocks in address order, raw bytes."""
        return self.em.get_ram()

    def render(self):
        shown = self.img if self._plan is None else None  # a preprocessed observation is not the picture
        img = shown if shown is not None else self.get_screen(0, apply_rotation=True)
        if self.render_mode == "rgb_array":
            return img
        if self.render_mode == "human":
            if self.viewer is None:
                from emucore.env.viewer import ImageViewer

                self.viewer = ImageViewer(f"{self.gamename}", self.em.get_screen_rate())
            self.viewer.show(img)
            return self.viewer.is_open
        return None

