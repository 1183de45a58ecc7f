"""Game sound: the Qt-free AudioBuffer (resampling, volume, dropping); its QtMultimedia output is
``tests/studio/qt/test_audio_output.py``'s."""

from __future__ import annotations

import numpy as np
import pytest

from studio.model.play.audio_buffer import AudioBuffer

AMPLITUDE = 10000
TONE = 440.0


def sine(rate: float, start: int, count: int, freq: float = TONE) -> np.ndarray:
    """Stereo int16 samples ``start .. start + count`` of a sine at ``rate`` (right = -left)."""
    left = np.rint(AMPLITUDE * np.sin(2 * np.pi * freq * np.arange(start, start + count) / rate))
    return np.stack([left, -left], axis=1).astype(np.int16)


def frame_sizes(rate: float, frames: int, fps: float = 59.92) -> list[int]:
    """Per-frame sample counts as a core makes them (735, 736, ... at 44100 Hz)."""
    edges = np.floor(np.arange(frames + 1) * rate / fps).astype(int)
    return list(np.diff(edges))


def pcm(data: bytes) -> np.ndarray:
    return np.frombuffer(data, "<i2").reshape(-1, 2)


def read_all(buffer: AudioBuffer) -> np.ndarray:
    return pcm(buffer.read(buffer.frames))


def feed_sine(buffer: AudioBuffer, sizes: list[int], freq: float = TONE) -> np.ndarray:
    """Pushes a continuous sine cut into chunks of ``sizes`` and returns all output so far."""
    out, at = [], 0
    for n in sizes:
        buffer.push(sine(buffer.source_rate, at, n, freq))
        at += n
        out.append(read_all(buffer))
    return np.concatenate(out)


@pytest.mark.parametrize(("source", "target"), [
    (44100.0, 48000), (32040.5, 48000), (31400.0, 44100), (48000.0, 48000), (53693.175, 48000),
])
def test_sine_comes_out_at_the_device_rate(source, target):
    buffer = AudioBuffer(source, target, max_latency=10.0)
    out = feed_sine(buffer, frame_sizes(source, 120))  # two seconds in per-frame chunks
    step = source / target
    # Output frame k is the input at sample position k * step - 1 (the first ones fade in from silence).
    position = np.arange(len(out)) * step - 1
    ideal = AMPLITUDE * np.sin(2 * np.pi * TONE * position / source)
    # Linear interpolation of a sine errs by at most A (pi f / rate)^2 / 2, plus rounding.
    tolerance = AMPLITUDE * (np.pi * TONE / source) ** 2 / 2 + 1.5
    settled = position >= 0
    assert np.abs(out[settled, 0] - ideal[settled]).max() < tolerance
    assert np.array_equal(out[:, 1], -out[:, 0]) or np.abs(out[:, 1] + out[:, 0]).max() <= 1
    # The count follows the rate ratio exactly, with no drift: input seconds == output seconds.
    assert abs(len(out) - sum(frame_sizes(source, 120)) / step) <= 2
    # And the frequency, from the spectrum's peak.
    spectrum = np.abs(np.fft.rfft(out[:, 0] * np.hanning(len(out))))
    peak = np.argmax(spectrum) * target / len(out)
    assert abs(peak - TONE) < target / len(out)


def test_chunk_boundaries_are_seamless():
    rng = np.random.default_rng(1)
    sizes = [int(n) for n in rng.integers(0, 900, size=200)]
    sizes[5:8] = [0, 1, 0]
    total = sum(sizes)
    whole = AudioBuffer(32040.5, 48000, max_latency=100.0)
    whole.push(sine(32040.5, 0, total))
    expected = read_all(whole)
    chunked = feed_sine(AudioBuffer(32040.5, 48000, max_latency=100.0), sizes)
    assert len(chunked) == len(expected)
    assert np.abs(chunked.astype(int) - expected).max() <= 1
    # No clicks: no step between neighbours beyond the sine's own steepest slope.
    max_step = AMPLITUDE * 2 * np.pi * TONE / 48000
    assert np.abs(np.diff(chunked[:, 0].astype(int))).max() <= max_step + 2


def test_fractional_rate_does_not_drift():
    buffer = AudioBuffer(32040.5, 48000, max_latency=1000.0)
    sizes = frame_sizes(32040.5, 60 * 60)  # a minute of frames
    produced = 0
    for n in sizes:
        buffer.push(np.zeros((n, 2), np.int16))
        produced += len(buffer.read(buffer.frames)) // 4
    assert abs(produced - sum(sizes) * 48000 / 32040.5) <= 2


def test_zero_length_chunks_change_nothing():
    a = AudioBuffer(44100, 48000)
    b = AudioBuffer(44100, 48000)
    a.push(np.zeros((0, 2), np.int16))
    a.push(np.empty((0, 2), np.int16))
    assert a.frames == 0 and a.read(100) == b""
    for buffer in (a, b):
        buffer.push(sine(44100, 0, 735))
        buffer.push(np.zeros((0, 2), np.int16))
        buffer.push(sine(44100, 735, 736))
    assert a.read(10_000) == b.read(10_000)


def test_volume_and_mute():
    chunk = sine(48000, 0, 480)
    buffer = AudioBuffer(48000, 48000)
    buffer.push(chunk)
    full = read_all(buffer)
    buffer.volume = 0.5
    buffer.push(sine(48000, 480, 480))
    half = read_all(buffer)
    reference = AudioBuffer(48000, 48000)
    reference.push(chunk)
    reference.push(sine(48000, 480, 480))
    reference.read(480)
    assert np.abs(half.astype(int) - read_all(reference) * 0.5).max() <= 1
    assert np.abs(full).max() > AMPLITUDE * 0.9

    buffer.muted = True
    buffer.push(sine(48000, 960, 480))
    silent = buffer.read(1000)
    assert len(silent) == 480 * 4 and not any(silent)  # consumed, as silence
    assert buffer.frames == 0
    buffer.muted = False
    buffer.volume = 0.0
    buffer.push(sine(48000, 1440, 480))
    assert not any(buffer.read(1000))

    for value, expected in ((1.7, 1.0), (-3, 0.0), (float("nan"), 0.0), (0.25, 0.25)):
        buffer.volume = value
        assert buffer.volume == expected


def test_the_oldest_sound_is_dropped_when_too_far_behind():
    buffer = AudioBuffer(48000, 48000, max_latency=0.1)
    for frame in range(18):  # 300 ms with nobody reading (fast-forward)
        buffer.push(np.full((800, 2), frame, np.int16))
    assert buffer.frames == 4800 and buffer.seconds == pytest.approx(0.1)
    assert buffer.dropped_frames == 18 * 800 - 4800
    kept = read_all(buffer)
    # The newest 100 ms (the resampler holds the very last sample back until more comes).
    assert kept[1, 0] == 12 and kept[-1, 0] == 17


def test_backlog_behind_a_full_device_is_dropped():
    buffer = AudioBuffer(48000, 48000, max_latency=0.1)
    buffer.push(np.zeros((4000, 2), np.int16))  # what a fast-forward left queued
    for _ in range(40):  # then 1x: the device takes exactly what the game makes
        buffer.push(np.zeros((800, 2), np.int16))
        buffer.read(800)
    assert buffer.frames < 0.02 * 48000
    # While the device keeps up, a normal queue is never touched.
    steady = AudioBuffer(48000, 48000)
    for _ in range(200):
        steady.push(np.zeros((800, 2), np.int16))
        steady.read(100_000)
    assert steady.dropped_frames == 0


def test_prebuffers_after_the_device_ran_dry():
    buffer = AudioBuffer(48000, 48000, prebuffer=0.04)
    buffer.push(np.ones((800, 2), np.int16))
    assert buffer.read(10_000, starved=True) == b""
    buffer.push(np.ones((800, 2), np.int16))
    buffer.push(np.ones((800, 2), np.int16))
    assert len(buffer.read(10_000, starved=True)) == 2400 * 4
    buffer.push(np.ones((800, 2), np.int16))
    assert len(buffer.read(500)) == 500 * 4  # not starved: whatever there is, up to what fits
    assert len(buffer.read(0)) == 0


def test_rate_changes_and_bad_rates():
    buffer = AudioBuffer(44100, 48000)
    buffer.push(sine(44100, 0, 735))
    buffer.set_source_rate(32040.5)
    buffer.push(sine(32040.5, 0, 534))
    assert buffer.frames > 0
    with pytest.raises(ValueError):
        buffer.set_source_rate(0)
    with pytest.raises(ValueError):
        AudioBuffer(44100, 0)
