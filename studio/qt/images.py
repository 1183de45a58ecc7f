"""numpy RGB arrays to QImage.

The pixels are copied into a QImage's own buffer. QImage's constructor that takes a Python buffer
is avoided: in PySide6 it mishandles reference counts (after enough frames the interpreter dies
with "deallocating None").
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage


def write_rgb(image: QImage, array: np.ndarray) -> None:
    """Copies an (H, W, 3) uint8 array into an RGB888 QImage of the same size."""
    height, width = array.shape[:2]
    stride = image.bytesPerLine()
    bits = np.frombuffer(image.bits(), dtype=np.uint8, count=stride * height).reshape(height, stride)
    bits[:, : width * 3] = array.reshape(height, width * 3)


def qimage_from_rgb(array: np.ndarray) -> QImage:
    height, width = array.shape[:2]
    image = QImage(width, height, QImage.Format.Format_RGB888)
    write_rgb(image, array)
    return image
