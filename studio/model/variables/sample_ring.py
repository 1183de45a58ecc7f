"""A ring buffer of ``(frame, value)`` samples for the live plots. No Qt."""

from __future__ import annotations

import numpy as np


class SampleRing:
    """A fixed-capacity ring of ``(frame, value)`` samples with frames in increasing order.

    Args:
        capacity: How many samples it keeps; the oldest go first.
    """

    def __init__(self, capacity: int):
        self.capacity = max(1, int(capacity))
        self._frames = np.zeros(self.capacity, dtype=np.int64)
        self._values = np.zeros(self.capacity, dtype=np.int64)
        self._next = 0  # where the next sample goes
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def append(self, frame: int, value: int) -> None:
        """Adds a sample (the frame must be newer than the last one; see :meth:`drop_after`)."""
        self._frames[self._next] = frame
        self._values[self._next] = value
        self._next = (self._next + 1) % self.capacity
        self._count = min(self._count + 1, self.capacity)

    @property
    def last_frame(self) -> int | None:
        """The frame of the newest sample, None when empty."""
        return int(self._frames[self._next - 1]) if self._count else None

    def drop_after(self, frame: int) -> None:
        """Drops the samples whose frame is greater than ``frame`` (the newest ones)."""
        last = self.last_frame
        if last is None or last <= frame:
            return
        frames, _ = self.arrays()
        keep = int(np.searchsorted(frames, frame, side="right"))
        drop = self._count - keep
        if drop > 0:
            self._count = keep
            self._next = (self._next - drop) % self.capacity

    def clear(self) -> None:
        self._count = 0
        self._next = 0

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(frames, values)``, oldest first, as new int64 arrays."""
        start = (self._next - self._count) % self.capacity
        index = (np.arange(self._count) + start) % self.capacity
        return self._frames[index], self._values[index]
