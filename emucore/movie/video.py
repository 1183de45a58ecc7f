"""Videos of play: :class:`VideoWriter` encodes frames and the core's audio with PyAV as they come.

H.264 (libx264, yuv420p; ``crf`` and ``preset`` choose quality and speed) at the core's frame
rate, with the core's audio as AAC, resampled to 48 kHz when the core's rate is not an AAC rate
(:data:`AAC_RATES`). An odd frame size is padded by one black row/column for yuv420p.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from emucore.errors import FileProblem, MissingExtraError

#: Sample rates FFmpeg's AAC encoder accepts; other core rates are resampled to 48 kHz.
AAC_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)


class VideoError(FileProblem):
    """A video that cannot be written (bad encoder settings, unwritable path, encoder failure)."""

    what = "video"


#: libx264's presets, fastest first.
X264_PRESETS = ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
                "placebo")


class VideoWriter:
    """Encodes frames (and audio) to a video file with PyAV as they come.

    Args:
        path: The output (``.mp4``; ``.mkv``/``.mov`` work too).
        fps: Frames per second (the core's rate, e.g. 59.92).
        width: The frame width (an odd width is padded by one column for yuv420p).
        height: The frame height (likewise).
        audio_rate: The core's sample rate; None or 0 for no audio track.
        crf: libx264's quality, 0 (lossless) to 51.
        preset: libx264's speed preset (:data:`X264_PRESETS`).

    Raises:
        VideoError: the settings are invalid or the file cannot be created.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        fps: float,
        width: int,
        height: int,
        audio_rate: float | None = None,
        *,
        crf: int = 17,
        preset: str = "veryfast",
    ):
        self.path = Path(path)
        if preset not in X264_PRESETS:
            raise VideoError(self.path, f"unknown x264 preset {preset!r} (one of {', '.join(X264_PRESETS)})")
        if not 0 <= crf <= 51:
            raise VideoError(self.path, f"crf {crf} is out of range (0..51)")
        try:
            import av
        except ImportError as exc:
            raise VideoError(self.path, str(MissingExtraError("video export", "PyAV", "video"))) from exc
        self._av = av
        self.frames = 0
        self.samples = 0
        self._failed = False
        self._closed = False
        self._width, self._height = width + width % 2, height + height % 2
        self._pad = (height % 2, width % 2)
        self.fps = Fraction(fps).limit_denominator(100000) if fps > 0 else Fraction(60)
        self.audio = None
        self._resampler = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.container = av.open(str(self.path), "w")
        except (OSError, av.FFmpegError) as exc:
            raise VideoError(self.path, f"cannot be created: {getattr(exc, 'strerror', None) or exc}") from exc
        try:
            codec = "libx264" if "libx264" in av.codecs_available else "h264"
            video = self.container.add_stream(codec, rate=self.fps)
            assert isinstance(video, av.VideoStream)  # a video codec gives a video stream
            self.video = video
            self.video.width, self.video.height = self._width, self._height
            self.video.pix_fmt = "yuv420p"
            self.video.options = {"crf": str(crf), "preset": preset}
            if audio_rate and audio_rate > 0:
                self.in_rate = int(round(audio_rate))
                out_rate = self.in_rate if self.in_rate in AAC_RATES and audio_rate == self.in_rate else 48000
                self.audio = self.container.add_stream("aac", rate=out_rate, layout="stereo")
                self.audio.bit_rate = 128000
                if out_rate != self.in_rate:
                    self._resampler = av.AudioResampler(format="fltp", layout="stereo", rate=out_rate)
        except (OSError, ValueError, av.FFmpegError) as exc:
            self.container.close()
            raise VideoError(self.path, f"cannot set up the encoders: {exc}") from exc

    def add(self, frame: np.ndarray, audio: np.ndarray | None = None) -> None:
        """Adds one video frame ((H, W, 3) uint8 RGB) and the audio samples ((N, 2) int16) of that frame.

        Raises:
            VideoError: the encoder or the file failed.
        """
        av = self._av
        if self._pad != (0, 0):
            frame = np.pad(frame, ((0, self._pad[0]), (0, self._pad[1]), (0, 0)))
        try:
            picture = av.VideoFrame.from_ndarray(np.ascontiguousarray(frame), format="rgb24")
            picture.pts = self.frames
            for packet in self.video.encode(picture):
                self.container.mux(packet)
            self.frames += 1
            if self.audio is not None and audio is not None and len(audio):
                samples = av.AudioFrame.from_ndarray(
                    np.ascontiguousarray(audio, dtype=np.int16).reshape(1, -1), format="s16", layout="stereo"
                )
                samples.sample_rate = self.in_rate
                samples.pts = self.samples
                self.samples += len(audio)
                frames = self._resampler.resample(samples) if self._resampler is not None else [samples]
                for item in frames:
                    for packet in self.audio.encode(item):
                        self.container.mux(packet)
        except (OSError, ValueError, av.FFmpegError) as exc:
            self._failed = True
            raise VideoError(self.path, f"encoding failed at frame {self.frames}: {exc}") from exc

    def close(self) -> None:
        """Flushes the encoders and finishes the file. Safe to call twice.

        Raises:
            VideoError: the encoder or the file failed.
        """
        if self._closed:
            return
        self._closed, container = True, self.container
        av = self._av
        try:
            if not self._failed:
                for packet in self.video.encode():
                    container.mux(packet)
                if self.audio is not None:
                    pending = self._resampler.resample(None) if self._resampler is not None else []
                    for item in [*pending, None]:
                        for packet in self.audio.encode(item):
                            container.mux(packet)
        except (OSError, ValueError, av.FFmpegError) as exc:
            raise VideoError(self.path, f"cannot be finished: {exc}") from exc
        finally:
            try:
                container.close()
            except (OSError, av.FFmpegError):
                pass
