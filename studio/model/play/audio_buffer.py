"""Game sound on its way to the speakers: resampled, queued, volume-scaled. No Qt.

The session keeps the sound of each emulated frame as an ``(N, 2)`` int16 chunk at the core's rate
(44100, 32040.5, ...; ``N`` varies from frame to frame and may be 0). :class:`AudioBuffer` takes those
chunks, resamples them to the output device's rate by linear interpolation, keeping the interpolation
state from one chunk to the next so chunk boundaries are seamless, and hands out interleaved 16-bit
stereo bytes for a sound device to play.

It never lets sound pile up. The queue holds at most ``max_latency`` seconds; beyond that the oldest
sound is dropped, which is what happens while the game runs faster than real time. Sound that keeps
waiting behind a full device read after read (the backlog a fast-forward leaves, since afterwards the
game makes sound exactly as fast as the device plays it) is dropped too. After the device has run dry
(start, pause, a stall) the buffer waits until ``prebuffer`` seconds are queued before it hands out
sound again, so playback restarts with some slack instead of stuttering on every frame.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

import numpy as np

BYTES_PER_FRAME = 4  # two int16 samples
BACKLOG_WINDOW = 0.5  # seconds of playback over which sound stuck behind a full device is judged
BACKLOG_SLACK = 0.02  # seconds of such backlog tolerated


class AudioBuffer:
    """Resamples per-frame stereo chunks to the device rate and queues them as 16-bit bytes.

    Args:
        source_rate: The core's sample rate in Hz; may be fractional (32040.5).
        target_rate: The device's sample rate in Hz.
        max_latency: Seconds of sound the queue may hold; older sound is dropped beyond it.
        prebuffer: Seconds to gather before handing out sound again once the device ran dry.
    """

    def __init__(self, source_rate: float, target_rate: int = 48000, *, max_latency: float = 0.1,
                 prebuffer: float = 0.04):
        if target_rate <= 0:
            raise ValueError(f"target_rate must be positive, not {target_rate}")
        self.target_rate = int(target_rate)
        self.max_frames = max(1, round(max_latency * self.target_rate))
        self.prebuffer_frames = min(self.max_frames, max(0, round(prebuffer * self.target_rate)))
        self._step = 1.0
        self.set_source_rate(source_rate)
        self._volume = 1.0
        self.muted = False
        self.dropped_frames = 0  # sound dropped for being too far behind, in device frames
        # Resampler state: the last input frame, and where the next output frame falls, in input frames
        # counted from that last one.
        self._prev = np.zeros(2, np.float32)
        self._pos = 0.0
        # The queue of resampled (M, 2) int16 arrays; the first one is consumed from ``_head``.
        self._chunks: deque[np.ndarray] = deque()
        self._head = 0
        self._frames = 0
        # Backlog watch: the least queued after any read, over a window of sound handed out.
        self._backlog_window = round(BACKLOG_WINDOW * self.target_rate)
        self._backlog_slack = round(BACKLOG_SLACK * self.target_rate)
        self._backlog_low = self.max_frames + 1
        self._backlog_clock = 0

    # ---- settings ----

    @property
    def source_rate(self) -> float:
        """The core's sample rate in Hz."""
        return self._source_rate

    def set_source_rate(self, rate: float) -> None:
        """Changes the core's rate (a core may change it on a reset), keeping the resampler's place."""
        if not (rate > 0 and math.isfinite(rate)):
            raise ValueError(f"source_rate must be a positive number, not {rate}")
        self._source_rate = float(rate)
        self._step = self._source_rate / self.target_rate

    @property
    def volume(self) -> float:
        """The linear gain applied on the way out, 0 (silent) to 1 (as the core made it)."""
        return self._volume

    @volume.setter
    def volume(self, volume: float) -> None:
        self._volume = min(1.0, max(0.0, float(volume))) if math.isfinite(volume) else 0.0

    @property
    def frames(self) -> int:
        """How many device frames are queued."""
        return self._frames

    @property
    def seconds(self) -> float:
        """How much sound is queued, in seconds."""
        return self._frames / self.target_rate

    # ---- in ----

    def push(self, chunk: np.ndarray) -> None:
        """Resamples one chunk of ``(N, 2)`` samples (int16, or anything numeric) and queues it.

        Empty chunks are fine and change nothing. When the queue then holds more than
        ``max_latency``, the oldest sound is dropped.
        """
        samples = np.asarray(chunk)
        if samples.size == 0:
            return
        samples = samples.reshape(-1, 2)
        out = self._resample(samples)
        if len(out):
            self._chunks.append(out)
            self._frames += len(out)
        if self._frames > self.max_frames:
            self._drop(self._frames - self.max_frames)

    def extend(self, chunks: Iterable[np.ndarray]) -> None:
        """Pushes each chunk in order."""
        for chunk in chunks:
            self.push(chunk)

    def _resample(self, samples: np.ndarray) -> np.ndarray:
        n = len(samples)
        x = np.empty((n + 1, 2), np.float32)
        x[0] = self._prev
        x[1:] = samples
        # Output frames fall at pos, pos + step, ... in x's index; each needs x[i] and x[i + 1], so
        # the last one must fall before index n. The rest wait for the next chunk.
        pos, step = self._pos, self._step
        count = max(0, math.ceil((n - pos) / step))
        while count and pos + (count - 1) * step >= n:  # float rounding at the edge
            count -= 1
        while pos + count * step < n:
            count += 1
        t = pos + step * np.arange(count, dtype=np.float64)
        i = t.astype(np.intp)
        frac = (t - i).astype(np.float32)[:, None]
        left = x[i]
        out = left + (x[i + 1] - left) * frac
        self._pos = pos + count * step - n
        self._prev = x[n].copy()
        return np.rint(out).astype(np.int16)

    # ---- out ----

    def read(self, max_frames: int, *, starved: bool = False) -> bytes:
        """Takes up to ``max_frames`` frames off the queue as interleaved little-endian int16 bytes.

        Args:
            max_frames: How many frames the device has room for now.
            starved: Whether the device has run dry (or not started). Then nothing is handed out
                until ``prebuffer`` seconds are queued, so playback restarts with some slack.

        Returns:
            ``4 * n`` bytes for some ``n <= max_frames``, possibly none. Muted or at volume 0 the
            frames are still consumed, as silence.
        """
        if starved and self._frames < self.prebuffer_frames:
            return b""
        n = min(max(0, int(max_frames)), self._frames)
        out = self._take(n) if n else None
        self._watch_backlog(n)
        if out is None:
            return b""
        gain = 0.0 if self.muted else self._volume
        if gain <= 0.0:
            return bytes(n * BYTES_PER_FRAME)
        if gain < 1.0:
            out = (out * np.float32(gain)).astype(np.int16)
        return out.astype("<i2", copy=False).tobytes()

    def _watch_backlog(self, handed_out: int) -> None:
        """Drops sound that has waited behind a full device for a whole window.

        While the device has room, every read empties the queue. What stays queued read after read
        is latency that would otherwise never go away once built up (after fast-forward the game
        makes sound exactly as fast as the device plays it), so it is dropped.
        """
        self._backlog_low = min(self._backlog_low, self._frames)
        self._backlog_clock += handed_out
        if self._backlog_clock < self._backlog_window:
            return
        if self._backlog_low > self._backlog_slack:
            self._drop(self._backlog_low)
        self._backlog_low = self._frames
        self._backlog_clock = 0

    def clear(self) -> None:
        """Forgets queued sound (not the resampler's place, so the next chunk still joins smoothly)."""
        self._chunks.clear()
        self._head = 0
        self._frames = 0

    def _take(self, n: int) -> np.ndarray:
        """Removes the oldest ``n`` frames (``n <= frames``) and returns them as one (n, 2) array."""
        parts = []
        need = n
        while need:
            first = self._chunks[0]
            available = len(first) - self._head
            if available <= need:
                parts.append(first[self._head:])
                self._chunks.popleft()
                self._head = 0
                need -= available
            else:
                parts.append(first[self._head:self._head + need])
                self._head += need
                need = 0
        self._frames -= n
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _drop(self, n: int) -> None:
        """Discards the oldest ``n`` frames (``n <= frames``)."""
        self.dropped_frames += n
        need = n
        while need:
            available = len(self._chunks[0]) - self._head
            if available <= need:
                self._chunks.popleft()
                self._head = 0
                need -= available
            else:
                self._head += need
                need = 0
        self._frames -= n
