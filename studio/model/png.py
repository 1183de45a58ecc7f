"""PNG encoding and decoding of RGB images, for state thumbnails (no Qt, no Pillow)."""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PIXEL_BYTES = 64 << 20  # a thumbnail is far smaller; more is not a file the studio wrote


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray) -> bytes:
    """An (H, W, 3) uint8 image as PNG bytes (8-bit RGB, no filtering)."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    height, width = image.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), image.reshape(height, width * 3)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(rows.tobytes(), 6)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b"")


def decode_png(data: bytes) -> np.ndarray:
    """Decodes what :func:`encode_png` writes (8-bit RGB, filter type 0 only); ValueError for anything else."""
    try:
        return _decode_png(data)
    except (struct.error, zlib.error) as exc:
        raise ValueError(f"not a PNG the studio wrote ({exc})") from None


def _decode_png(data: bytes) -> np.ndarray:
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG")
    pos, idat, width, height = len(SIGNATURE), b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color != 2:
                raise ValueError("only 8-bit RGB PNGs are read here")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    inflater = zlib.decompressobj()
    pixels = inflater.decompress(idat, MAX_PIXEL_BYTES)
    if inflater.unconsumed_tail:
        raise ValueError(f"more than {MAX_PIXEL_BYTES} bytes of pixels")
    rows = np.frombuffer(pixels, dtype=np.uint8).reshape(height, 1 + width * 3)
    if rows[:, 0].any():
        raise ValueError("filtered PNG rows are not read here")
    return rows[:, 1:].reshape(height, width, 3).copy()


def thumbnail(frame: np.ndarray, width: int = 160) -> np.ndarray:
    """A nearest-neighbour reduction of a frame to about ``width`` pixels wide."""
    step = max(1, frame.shape[1] // width)
    return np.ascontiguousarray(frame[::step, ::step])
