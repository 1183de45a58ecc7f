"""Pixel formats convert to RGB888 exactly as stable-retro does (no low-bit replication)."""

import numpy as np

from emucore.libretro._native import ffi, lib


def convert(src: np.ndarray, fmt: int, width: int, height: int, pitch: int, out_w: int, out_h: int):
    out = np.full((out_h, out_w, 3), 0xEE, dtype=np.uint8)
    lib.emu_convert_pixels(
        ffi.from_buffer(src), width, height, pitch, fmt, ffi.from_buffer("uint8_t[]", out), out_w, out_h
    )
    return out


def test_rgb565():
    pixels = np.array([[0xFFFF, 0xF800, 0x07E0, 0x001F, 0x0000, 0x8410]], dtype="<u2")
    out = convert(pixels, 2, 6, 1, 12, 6, 1)
    assert out[0].tolist() == [[248, 252, 248], [248, 0, 0], [0, 252, 0], [0, 0, 248], [0, 0, 0], [128, 128, 128]]


def test_xrgb8888():
    pixels = np.array([[0x00123456, 0xFFABCDEF]], dtype="<u4")
    out = convert(pixels, 1, 2, 1, 8, 2, 1)
    assert out[0].tolist() == [[0x12, 0x34, 0x56], [0xAB, 0xCD, 0xEF]]


def test_0rgb1555():
    pixels = np.array([[0x7FFF, 0x7C00, 0x03E0, 0x001F]], dtype="<u2")
    out = convert(pixels, 0, 4, 1, 8, 4, 1)
    assert out[0].tolist() == [[248, 248, 248], [248, 0, 0], [0, 248, 0], [0, 0, 248]]


def test_pitch_is_honoured_and_missing_rows_are_zero():
    rows = np.zeros((2, 8), dtype="<u2")  # pitch 16 bytes, 3 pixels used
    rows[0, :3] = 0xF800
    rows[1, :3] = 0x001F
    out = convert(rows, 2, 3, 2, 16, 4, 3)
    assert out[0, :3].tolist() == [[248, 0, 0]] * 3
    assert out[1, :3].tolist() == [[0, 0, 248]] * 3
    assert not out[:, 3].any() and not out[2].any()


def reference_rgb565(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.uint32)
    return np.stack([(v & 0xF800) >> 8, (v & 0x07E0) >> 3, (v & 0x001F) << 3], axis=-1).astype(np.uint8)


def test_vector_paths_match_the_reference_at_every_width():
    rng = np.random.default_rng(0)
    for width in [*range(1, 41), 47, 48, 49, 63, 64, 65, 95, 96, 97, 320]:  # every tail of 8/16/32 px steps
        height = 3
        pitch_px = width + 5
        src16 = rng.integers(0, 1 << 16, (height, pitch_px), dtype=np.uint16)
        out = convert(src16, 2, width, height, pitch_px * 2, width, height)
        assert np.array_equal(out, reference_rgb565(src16[:, :width])), width
        src32 = rng.integers(0, 1 << 32, (height, pitch_px), dtype=np.uint32)
        out = convert(src32, 1, width, height, pitch_px * 4, width, height)
        expected = src32[:, :width].view(np.uint8).reshape(height, width, 4)[..., 2::-1]
        assert np.array_equal(out, expected), width


def test_no_write_past_the_destination():
    rng = np.random.default_rng(1)
    for fmt, dtype in ((2, np.uint16), (1, np.uint32)):
        for width in (4, 5, 8, 9, 16, 17, 31, 32, 33, 48, 64, 65):
            src = rng.integers(0, 1 << 16, (2, width), dtype=dtype)
            guard = np.full(2 * width * 3 + 64, 0xAB, dtype=np.uint8)
            lib.emu_convert_pixels(
                ffi.from_buffer(src), width, 2, width * np.dtype(dtype).itemsize, fmt,
                ffi.from_buffer("uint8_t[]", guard), width, 2,
            )
            assert (guard[2 * width * 3:] == 0xAB).all(), (fmt, width)
