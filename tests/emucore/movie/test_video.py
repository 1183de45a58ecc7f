"""Video export with PyAV: one H.264 frame per env step at the core's rate, with the core's audio."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emucore.cli.playback import main
from emucore.env import replay
from emucore.movie.video import VideoWriter
from tests.emucore.movie import record_with_env

av = pytest.importorskip("av")


@pytest.fixture(scope="module")
def movie(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record_with_env("StudioDemo-Genesis", tmp_path_factory.mktemp("rec"), 180, seed=6, keep_frames=False).path


def _probe(path: Path) -> dict:
    with av.open(str(path)) as container:
        video = container.streams.video[0]
        frames = sum(1 for _ in container.decode(video=0))
        info = {"frames": frames, "rate": float(video.average_rate), "size": (video.width, video.height),
                "codec": video.codec_context.name, "duration": container.duration / 1e6}
    with av.open(str(path)) as container:
        audio = container.streams.audio
        if audio:
            samples = sum(frame.samples for frame in container.decode(audio=0))
            info["audio_seconds"] = samples / audio[0].codec_context.sample_rate
            info["audio_codec"] = audio[0].codec_context.name
    return info


def test_video_has_one_frame_per_step_and_audio(tmp_path: Path, movie: Path) -> None:
    out = tmp_path / "v.mp4"
    summary = replay(movie, video=out)
    assert summary.video == out and summary.video_frames == 180
    info = _probe(out)
    assert info["frames"] == 180 and info["codec"] == "h264" and info["size"] == (320, 224)
    assert info["rate"] == pytest.approx(59.92, abs=0.01)
    assert info["duration"] == pytest.approx(180 / info["rate"], abs=0.05)
    assert info["audio_codec"] == "aac"
    assert info["audio_seconds"] == pytest.approx(180 / info["rate"], abs=0.1)


def test_video_without_audio_and_with_a_negative_ending(tmp_path: Path, movie: Path) -> None:
    out = tmp_path / "sub" / "tail.mp4"
    assert main([str(movie), "--video", str(out), "--no-audio", "--ending", "-30", "--no-progress"]) == 0
    info = _probe(out)
    assert info["frames"] == 30 and "audio_codec" not in info


def test_video_writer_pads_odd_sizes_and_resamples_odd_rates(tmp_path: Path) -> None:
    out = tmp_path / "odd.mp4"
    writer = VideoWriter(out, 60.0, 31, 17, audio_rate=32040.5)
    for i in range(20):
        writer.add(np.full((17, 31, 3), i * 10, dtype=np.uint8), np.zeros((534, 2), dtype=np.int16))
    writer.close()
    writer.close()
    info = _probe(out)
    assert info["frames"] == 20 and info["size"] == (32, 18)
    assert info["audio_seconds"] == pytest.approx(20 / 60, abs=0.05)


def test_bad_video_settings_raise_video_errors(tmp_path: Path, movie: Path) -> None:
    from emucore.movie.video import VideoError

    with pytest.raises(VideoError, match="crf 60 is out of range"):
        VideoWriter(tmp_path / "a.mp4", 60.0, 32, 32, crf=60)
    with pytest.raises(VideoError, match="unknown x264 preset 'fastest'"):
        replay(movie, video=tmp_path / "b.mp4", preset="fastest")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(VideoError, match="cannot be created"):
        VideoWriter(blocker / "c.mp4", 60.0, 32, 32)
