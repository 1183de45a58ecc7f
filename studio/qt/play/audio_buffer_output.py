"""The game's sound through QtMultimedia: a push-mode ``QAudioSink`` fed from an :class:`AudioBuffer`.

:class:`AudioOutput` never blocks the emulation: on every window tick it writes at most what the
sink says it has room for, and the buffer keeps the sound ahead of the speaker under ~100 ms by
dropping the oldest (fast-forward) and dropping any backlog that a fast-forward leaves behind a
full device. Without a sound device (headless CI, no sound server), or without
QtMultimedia (PySide6-Addons not installed), it is a silent no-op that says so once in the log.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

from studio.model.play.audio_buffer import BYTES_PER_FRAME, AudioBuffer

try:
    from PySide6.QtCore import QCoreApplication, QIODevice
    from PySide6.QtMultimedia import QAudioDevice, QAudioFormat, QAudioSink, QMediaDevices

    try:
        from PySide6.QtMultimedia import QtAudio as _QtAudio  # Qt >= 6.7
    except ImportError:  # pragma: no cover - older Qt
        from PySide6.QtMultimedia import QAudio as _QtAudio  # type: ignore[assignment]  # the same enums
except ImportError as exc:  # PySide6-Addons missing
    _MULTIMEDIA_MISSING: str | None = f"QtMultimedia is not available ({exc}); install PySide6-Addons"
else:
    _MULTIMEDIA_MISSING = None

log = logging.getLogger(__name__)

PREFERRED_RATE = 48000
MAX_LATENCY = 0.1  # seconds of sound queued ahead of the device before the oldest is dropped
PREBUFFER = 0.04  # seconds gathered before (re)starting after the device ran dry
DEVICE_BUFFER = 0.08  # seconds the sink's own buffer is asked to hold (Qt's default is 250 ms)

_said: set[str] = set()


def _say_once(message: str) -> None:
    if message not in _said:
        _said.add(message)
        log.warning("%s", message)


class AudioOutput:
    """Plays the session's per-frame sound chunks on the default output device.

    Args:
        session_rate: The core's sample rate in Hz (``emulator.get_audio_rate()``); may be fractional.
        max_latency: Seconds of sound queued ahead of the device before the oldest is dropped.

    Attributes:
        available: Whether a device is open; when False every method is a cheap no-op.
        device_rate: The rate the device plays at (the buffer resamples to it).
    """

    def __init__(self, session_rate: float, *, max_latency: float = MAX_LATENCY):
        self.available = False
        self.device_rate = PREFERRED_RATE
        self._max_latency = max_latency
        self._volume = 1.0
        self._muted = False
        self._sink: QAudioSink | None = None
        self._io: QIODevice | None = None
        self._devices: QMediaDevices | None = None
        self._device_id: object = b""
        self.buffer = AudioBuffer(session_rate, self.device_rate, max_latency=max_latency, prebuffer=PREBUFFER)
        if _MULTIMEDIA_MISSING is not None:
            _say_once(f"Sound is off: {_MULTIMEDIA_MISSING}.")
            return
        if QCoreApplication.instance() is None:
            _say_once("Sound is off: AudioOutput needs a QApplication.")
            return
        try:
            self._devices = QMediaDevices()
            self._devices.audioOutputsChanged.connect(self._reopen)
            self._open()
        except Exception as exc:  # a broken backend must not take the studio down
            log.debug("audio output failed", exc_info=True)
            _say_once(f"Sound is off: the audio output could not be opened ({exc}).")
            self._close_sink()

    # ---- public ----

    @property
    def volume(self) -> float:
        """The linear volume, 0 to 1."""
        return self._volume

    @property
    def muted(self) -> bool:
        """Whether the sound is muted."""
        return self._muted

    def set_volume(self, volume: float) -> None:
        """Sets the linear volume, clamped to 0..1."""
        self.buffer.volume = volume
        self._volume = self.buffer.volume

    def set_muted(self, muted: bool) -> None:
        """Mutes or unmutes (the emulation's sound keeps flowing, as silence)."""
        self._muted = bool(muted)
        self.buffer.muted = self._muted

    def feed(self, chunks: Iterable[np.ndarray]) -> None:
        """Queues the frames' sound and tops up the device; call it on every tick, chunks or not.

        Args:
            chunks: ``(N, 2)`` int16 arrays at the session's rate, oldest first (``session.audio``).
        """
        sink, io = self._sink, self._io
        if not self.available or sink is None or io is None:  # available: both are open
            return
        self.buffer.extend(chunks)
        try:
            if sink.error() != _QtAudio.Error.NoError and sink.state() == _QtAudio.State.StoppedState:
                _say_once(f"Sound stopped: the audio device reported {sink.error().name}.")
                self._close_sink()
                return
            starved = sink.state() != _QtAudio.State.ActiveState  # idle: ran dry, or nothing written yet
            data = self.buffer.read(sink.bytesFree() // BYTES_PER_FRAME, starved=starved)
            if data:
                io.write(data)
        except Exception as exc:  # pragma: no cover - backend trouble: go quiet rather than crash the tick
            log.debug("audio write failed", exc_info=True)
            _say_once(f"Sound stopped: writing to the audio device failed ({exc}).")
            self._close_sink()

    def set_session_rate(self, rate: float) -> None:
        """Follows a change of the core's sample rate."""
        self.buffer.set_source_rate(rate)

    def close(self) -> None:
        """Stops the sound and releases the device; the object stays usable as a no-op."""
        if self._devices is not None:
            try:
                self._devices.audioOutputsChanged.disconnect(self._reopen)
            except (RuntimeError, TypeError):  # pragma: no cover - already gone
                pass
            self._devices = None
        self._close_sink()
        self.buffer.clear()

    # ---- device ----

    def _open(self) -> None:
        device = QMediaDevices.defaultAudioOutput()
        if device.isNull():
            _say_once("Sound is off: there is no audio output device.")
            return
        fmt = _pick_format(device)
        if fmt is None:
            _say_once(f"Sound is off: {device.description()!r} plays no 16-bit stereo format.")
            return
        sink = QAudioSink(device, fmt)
        sink.setBufferSize(round(DEVICE_BUFFER * fmt.sampleRate()) * BYTES_PER_FRAME)
        io: QIODevice | None = sink.start()
        if io is None or sink.error() != _QtAudio.Error.NoError:
            _say_once(f"Sound is off: {device.description()!r} could not be started ({sink.error().name}).")
            sink.stop()
            sink.deleteLater()
            return
        if fmt.sampleRate() != self.buffer.target_rate:
            self._rebuild_buffer(fmt.sampleRate())
        self.device_rate = fmt.sampleRate()
        self._sink, self._io = sink, io
        self._device_id = device.id()
        self.available = True
        log.info("sound: %s at %d Hz (core %.1f Hz)", device.description(), self.device_rate,
                 self.buffer.source_rate)

    def _rebuild_buffer(self, rate: int) -> None:
        old = self.buffer
        self.buffer = AudioBuffer(old.source_rate, rate, max_latency=self._max_latency, prebuffer=PREBUFFER)
        self.buffer.volume = self._volume
        self.buffer.muted = self._muted

    def _reopen(self) -> None:
        """The system's outputs changed (headphones, a USB device): move to the current default."""
        if self._devices is None:
            return
        if self.available and QMediaDevices.defaultAudioOutput().id() == self._device_id:
            return  # some other device came or went; ours is still the default
        self._close_sink()
        try:
            self._open()
        except Exception as exc:  # pragma: no cover
            log.debug("audio reopen failed", exc_info=True)
            _say_once(f"Sound is off: the audio output could not be reopened ({exc}).")
            self._close_sink()

    def _close_sink(self) -> None:
        self.available = False
        sink, self._sink, self._io = self._sink, None, None
        if sink is not None:
            try:
                sink.stop()
                sink.deleteLater()
            except RuntimeError:  # pragma: no cover - Qt object already deleted
                pass


def _pick_format(device: QAudioDevice) -> QAudioFormat | None:
    """16-bit stereo at the device's preferred rate if it has a sane one, else 48000 or 44100 Hz."""
    preferred = device.preferredFormat().sampleRate()
    rates = [preferred] if 22050 <= preferred <= 192000 else []
    rates += [r for r in (PREFERRED_RATE, 44100) if r not in rates]
    fmt = QAudioFormat()
    fmt.setChannelCount(2)
    fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
    for rate in rates:
        fmt.setSampleRate(rate)
        if device.isFormatSupported(fmt):
            return fmt
    return None
