"""Frame skipping and observation preprocessing inside ``env.step()``.

``make(..., frame_skip=k)`` holds the action for ``k`` frames, sums their rewards and stops at the
first frame that is done, as Stable-Baselines3's ``MaxAndSkipEnv``; by default (``max_pool=True``)
the observation is the per-channel maximum of the last two frames. ``grayscale=True`` and
``obs_size=(h, w)`` then turn it gray and resample it as SB3's ``WarpFrame`` does (OpenCV's
RGB-to-gray and ``INTER_AREA``). ``sticky_prob=p`` is the Retro Contest's sticky frame skip (stable-retro's
``examples/ppo.py``, ``StochasticFrameSkip``): at a step's first frame the previous step's action is still held
with probability p (drawn from ``env.np_random``, seeded by ``reset(seed=)``, one draw a step but the first of
an episode), the new one from the second frame on. All of it is done in C on the frames that are observed; the frames
in between are never converted. Where the scenario is compiled and no movie is recording, the k frames,
their evaluations, the reward sum and the frame held for pooling are one call into C as well
(``Evaluator.update_frames``); the per-frame loop takes over after a frame that moved memory. Differences
from those wrappers, on purpose:

- An episode that ends before the k-th frame observes its last frame alone (the wrappers pool it
  with frames left over from the step before).
- A gray observation has shape (h, w, 1), as ``WarpFrame``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from emucore.libretro.observations import ObservationPlan

FRAME_SKIP_MAX = 2**31 - 1
"""The largest ``frame_skip``: the C code holds it in an int (int32)."""
STEP_LIMIT_MAX = 2**63 - 1
"""The largest ``max_episode_steps``: the vector env's C slots hold it in an int64."""


@dataclass(frozen=True)
class Preprocessing:
    """What ``make()`` was asked for, checked."""

    frame_skip: int = 1
    max_pool: bool = True
    obs_size: tuple[int, int] | None = None
    grayscale: bool = False
    sticky_prob: float = 0.0

    @classmethod
    def checked(cls, frame_skip: Any, max_pool: Any, obs_size: Any, grayscale: Any, image: bool,
                sticky_prob: Any = 0.0) -> Preprocessing:
        """ValueError naming the argument for a value outside what it can be."""
        if not _is_int(frame_skip) or not 1 <= frame_skip <= FRAME_SKIP_MAX:
            raise ValueError(f"frame_skip must be a whole number of frames from 1 to {FRAME_SKIP_MAX} "
                             f"(a C int), not {frame_skip!r}")
        if isinstance(sticky_prob, bool) or not isinstance(sticky_prob, (int, float, np.integer, np.floating)) \
                or not 0 <= sticky_prob <= 1:
            raise ValueError(f"sticky_prob must be a probability between 0 and 1, not {sticky_prob!r}")
        for name, value in (("max_pool", max_pool), ("grayscale", grayscale)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, not {value!r}")
        size = None
        if obs_size is not None:
            if not isinstance(obs_size, (tuple, list)) or len(obs_size) != 2 or not all(
                _is_int(n) and n >= 1 for n in obs_size
            ):
                raise ValueError(f"obs_size must be (height, width) in whole pixels, at least 1, not {obs_size!r}")
            size = (int(obs_size[0]), int(obs_size[1]))
        if not image and (size is not None or grayscale):
            raise ValueError("obs_size and grayscale shape image observations; obs_type=Observations.RAM has none")
        return cls(int(frame_skip), max_pool, size, grayscale, float(sticky_prob))

    @property
    def pools(self) -> bool:
        return self.max_pool and self.frame_skip > 1

    def plan(self, emulator: Any, crop: tuple[int, int, int, int]) -> ObservationPlan | None:
        """The C plan for image observations, or None when the observation is the screen as it is."""
        if not (self.pools or self.grayscale or self.obs_size is not None):
            return None
        screen = emulator.get_resolution()
        x, y, w, h = visible_crop(crop, screen)
        if w < 1 or h < 1:
            raise ValueError(f"the scenario's crop {crop} leaves nothing of the {screen[0]}x{screen[1]} screen")
        size = self.obs_size or (h, w)
        if size[0] > h or size[1] > w:
            raise ValueError(f"obs_size {size} is larger than the screen it resamples ({h}, {w}); "
                             "it can only shrink it")
        return ObservationPlan(lambda: emulator.session, screen, (x, y, w, h), size, self.grayscale)


def visible_crop(crop: tuple[int, int, int, int], screen: tuple[int, int]) -> tuple[int, int, int, int]:
    """(x, y, w, h) of the screen a scenario's crop keeps, by stable-retro's rules (0 or too far: to the edge)."""
    x, y, w, h = crop
    width, height = screen
    x2 = width if not w or x + w > width else x + w
    y2 = height if not h or y + h > height else y + h
    return x, y, x2 - x, y2 - y


def checked_step_limit(limit: Any) -> int | None:
    """``max_episode_steps`` checked: None, or a whole number of steps, at least 1 (ValueError naming it)."""
    if limit is None:
        return None
    if not _is_int(limit) or not 1 <= limit <= STEP_LIMIT_MAX:
        raise ValueError(f"max_episode_steps must be a whole number of steps from 1 to {STEP_LIMIT_MAX} "
                         f"(a 64-bit C integer), or None, not {limit!r}")
    return int(limit)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def rotate(image: np.ndarray, steps: int) -> np.ndarray:
    """The image turned by the core's rotation (quarter turns counter-clockwise), as stable-retro does."""
    if steps == 1:
        return np.flipud(np.swapaxes(image, 0, 1))
    if steps == 2:
        return np.flipud(np.fliplr(image))
    if steps == 3:
        return np.fliplr(np.swapaxes(image, 0, 1))
    return image
