"""Timing for the bench scripts: the median wall time of a call over a few rounds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(call: Callable[[], object], rounds: int) -> float:
    """The median of ``rounds`` timings of ``call()``, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
