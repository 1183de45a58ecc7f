"""The C observation builder (frames.c, resample.c) against OpenCV on real frames: Airstriker's RGB565
and Stella's XRGB8888, pooled or not, gray or RGB, cropped or not, with the AVX2 forms on and off."""

from __future__ import annotations

import numpy as np
import pytest

import emucore
from emucore.libretro._native import lib
from emucore.libretro.observations import ObservationPlan

cv2 = pytest.importorskip("cv2")


def gray14(frame: np.ndarray) -> np.ndarray:
    """COLOR_RGB2GRAY as frames.c computes it, (4899 R + 9617 G + 1868 B + 2^13) >> 14: OpenCV's tables.
    (OpenCV 5's cvtColor rounds a few colors the other way, with 15-bit weights; no game frame here has them.)"""
    r, g, b = (frame[..., i].astype(np.uint32) for i in range(3))
    return ((r * 4899 + g * 9617 + b * 1868 + (1 << 13)) >> 14).astype(np.uint8)


def reference(frame: np.ndarray, crop, size, gray: bool, cv_gray: bool = True) -> np.ndarray:
    x, y, w, h = crop
    frame = np.ascontiguousarray(frame[y:y + h, x:x + w])
    if gray:
        frame = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY) if cv_gray else gray14(frame)
    frame = cv2.resize(frame, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    return frame.reshape(size[0], size[1], -1)


def plans(em, gray_only: bool = False):
    width, height = em.get_resolution()
    crops = [(0, 0, width, height), (3, 5, width - 11, height - 17)]
    sizes = [(84, 84), (110, 84), (height // 2, width // 2), (61, 47)]
    for crop in crops:
        for size in sizes:
            if size[0] > crop[3] or size[1] > crop[2]:
                continue
            for gray in (True,) if gray_only else (True, False):
                yield crop, size, gray, ObservationPlan(lambda: em.session, (width, height), crop, size, gray)


def check_frames(env, steps: int, seed: int, bits: int, gray_only: bool = False):
    em = env.em
    all_plans = list(plans(em, gray_only))
    rng = np.random.default_rng(seed)
    for step in range(steps):
        em.set_button_mask(int(rng.integers(0, 1 << bits)))
        em.run_frames(int(rng.integers(1, 4)))
        held = em.get_screen().copy()
        for *_, plan in all_plans:
            plan.hold()
        em.step()
        current = em.get_screen().copy()
        pooled = np.maximum(held, current)
        for crop, size, gray, plan in all_plans:
            for pool, frame in ((True, pooled), (False, current)):
                want = reference(frame, crop, size, gray)
                for wide in (1, 0):
                    was = lib.emu_obs_vector_paths(wide)
                    try:
                        got = plan.build(np.empty(plan.shape, np.uint8), pool)
                    finally:
                        lib.emu_obs_vector_paths(was)
                    assert np.array_equal(got, want), f"step {step} crop {crop} size {size} gray {gray} pool {pool} " \
                                                      f"vector forms {wide}"


def test_airstriker_rgb565_frames(airstriker):
    env = emucore.make(str(airstriker))
    try:
        env.reset(seed=0)
        check_frames(env, 40, 1, 12)
    finally:
        env.close()


def test_stella_xrgb8888_frames(stable_atari):
    env = stable_atari("Breakout")
    env.reset(seed=0)
    check_frames(env, 60, 2, 8)


def as_rgb(pixels: np.ndarray, fmt: int) -> np.ndarray:
    """pixels.c's conversions: 0RGB1555 (0), XRGB8888 (1), RGB565 (2)."""
    v = pixels.astype(np.uint32)
    if fmt == 1:
        channels = (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF
    elif fmt == 2:
        channels = (v & 0xF800) >> 8, (v & 0x07E0) >> 3, (v & 0x001F) << 3
    else:
        channels = (v & 0x7C00) >> 7, (v & 0x03E0) >> 2, (v & 0x001F) << 3
    return np.stack(channels, axis=-1).astype(np.uint8)


class Frame:
    """A host whose frame is pixels of a format (random, every bit pattern), w x h, rows pitch bytes apart."""

    def __init__(self, rng, fmt: int, w: int, h: int, pad: int):
        from emucore.libretro._native import ffi

        dtype = np.uint32 if fmt == 1 else np.uint16
        self.pixels = rng.integers(0, np.iinfo(dtype).max, (h, w + pad), dtype=dtype, endpoint=True)
        self.host = ffi.new("emu_host *")
        self.host.frame = ffi.from_buffer(self.pixels)
        self.host.frame_width, self.host.frame_height = w, h
        self.host.frame_pitch = self.pixels.strides[0]
        self.host.frame_format = fmt

    def screen(self, width: int, height: int) -> np.ndarray:
        """The screen as get_screen gives it: what the frame lacks is black."""
        rgb = as_rgb(self.pixels, self.host.frame_format)
        out = np.zeros((height, width, 3), np.uint8)
        h, w = min(height, self.host.frame_height), min(width, self.host.frame_width)
        out[:h, :w] = rgb[:h, :w]
        return out


@pytest.mark.parametrize("fmt", [0, 1, 2])
@pytest.mark.parametrize(("screen", "crop", "size"), [
    ((160, 210), (0, 0, 160, 210), (84, 84)),
    ((320, 224), (0, 0, 320, 224), (84, 84)),
    ((320, 224), (7, 3, 301, 200), (84, 84)),
    ((256, 240), (0, 8, 256, 224), (112, 128)),
    ((160, 210), (1, 0, 157, 210), (105, 80)),
])
def test_random_pixels_of_every_format(fmt, screen, crop, size):
    from emucore.libretro._native import ffi

    rng = np.random.default_rng(fmt * 7 + crop[0])
    width, height = screen
    sizes = [(width, height, 0), (width, height, 5), (width - 9, height, 0), (width, height - 13, 3),
             (width - 40, height - 50, 0)]
    for gray in (True, False):
        plan = ffi.gc(lib.emu_obs_new(width, height, *crop, size[1], size[0], int(gray)), lib.emu_obs_free)
        shape = (size[0], size[1], 1 if gray else 3)
        for (hw, hh, hpad), (cw, ch, cpad) in [(s, s) for s in sizes] + list(zip(sizes, sizes[1:] + sizes[:1])):
            held, current = Frame(rng, fmt, hw, hh, hpad), Frame(rng, fmt, cw, ch, cpad)
            lib.emu_obs_hold(held.host, plan)
            pooled = np.maximum(held.screen(width, height), current.screen(width, height))
            for pool, frame in ((1, pooled), (0, current.screen(width, height))):
                want = reference(frame, crop, size, gray, cv_gray=False)
                for wide in (1, 0):
                    was = lib.emu_obs_vector_paths(wide)
                    got = np.empty(shape, np.uint8)
                    try:
                        lib.emu_obs_build(current.host, plan, pool, ffi.from_buffer(got))
                    finally:
                        lib.emu_obs_vector_paths(was)
                    assert np.array_equal(got, want), f"gray {gray} pool {pool} frames {hw}x{hh} {cw}x{ch} " \
                                                      f"vector forms {wide}"
