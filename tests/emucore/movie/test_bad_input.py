"""Bad movies: each raises MovieError naming the file and the problem; the command reports it and goes on."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from emucore.cli.playback import main
from emucore.env import MoviePlayer
from emucore.movie import Movie, MovieError, bk2
from emucore.movie.trim import trim_bk2
from tests.emucore.movie import entries, record_with_env, write_zip

GEN_LOG = (
    b"[Input]\nP1 Z|P1 X|P1 Y|P1 C|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Mode|P1 A|P1 B|\n"
    b"|..|............|\n|..|.......U....|\n[/Input]"
)


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record_with_env("StudioDemo-Genesis", tmp_path_factory.mktemp("rec"), 20, keep_frames=False).path


def _rewrite(good: Path, path: Path, **changes: bytes | None) -> Path:
    """A copy of ``good`` with entries replaced (bytes) or dropped (None)."""
    items = []
    for name, data in entries(good).items():
        if name in changes:
            if changes[name] is None:
                continue
            data = changes[name]
        items.append((name, data))
    return write_zip(path, items)


def _error(path: Path, match: str, **kwargs) -> MovieError:
    with pytest.raises(MovieError, match=match) as caught:
        MoviePlayer(path, **kwargs).close()
    assert caught.value.path == path and str(path) in str(caught.value)
    return caught.value


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"", "empty file"),
        (b"hello, this is text", "not a movie"),
        (b"PK\x03\x04garbage that is not a zip", "not a valid ZIP"),
        (b"version 2\n|0|........|\n", "not an FCEUX movie version 3"),
    ],
)
def test_not_a_movie(tmp_path: Path, content: bytes, match: str) -> None:
    path = tmp_path / "bad.bk2"
    path.write_bytes(content)
    _error(path, match)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    _error(tmp_path / "nope.bk2", "no such file")
    with pytest.raises(MovieError, match="folder"):
        Movie(tmp_path)
    bad_fm2 = tmp_path / "x.fm2"
    bad_fm2.write_bytes(b"version 9\n")
    _error(bad_fm2, "version 3")


def test_truncated_and_corrupt_archives(tmp_path: Path, good: Path) -> None:
    data = good.read_bytes()
    truncated = tmp_path / "truncated.bk2"
    truncated.write_bytes(data[: len(data) // 2])
    _error(truncated, "ZIP")
    # flip bytes inside the deflated Input Log: a CRC or inflate error
    corrupt = tmp_path / "corrupt.bk2"
    with zipfile.ZipFile(good) as archive:
        info = archive.getinfo("Input Log.txt")
        start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    broken = bytearray(data)
    for i in range(start + 2, start + min(info.compress_size, 40)):
        broken[i] ^= 0x5A
    corrupt.write_bytes(bytes(broken))
    _error(corrupt, "'Input Log.txt' is corrupt")


def test_an_archive_of_a_newer_zip_version_is_a_movie_error(tmp_path: Path, good: Path) -> None:
    data = bytearray(good.read_bytes())
    central = struct.unpack_from("<I", data, data.rindex(b"PK\x05\x06") + 16)[0]  # the first directory entry
    assert data[central:central + 4] == b"PK\x01\x02"
    struct.pack_into("<H", data, central + 6, 99)  # version needed to extract: 9.9, past what zipfile reads
    newer = tmp_path / "newer.bk2"
    newer.write_bytes(bytes(data))
    for read in (Movie, MoviePlayer, lambda path: trim_bk2(path, 5)):
        with pytest.raises(MovieError, match=r"needs a newer ZIP version .*\(zip file version 9\.9\)") as caught:
            read(newer)
        assert caught.value.path == newer and str(newer) in str(caught.value)


def test_missing_entries(tmp_path: Path, good: Path) -> None:
    _error(_rewrite(good, tmp_path / "nolog.bk2", **{"Input Log.txt": None}), "no 'Input Log.txt' entry")
    headerless = _rewrite(good, tmp_path / "noheader.bk2", **{"Header.txt": None})
    assert Movie(headerless).get_game() == "?"  # the header is optional on read...
    _error(headerless, "names no game")  # ...but playback needs a game
    assert MoviePlayer(headerless, game="StudioDemo-Genesis").steps == 0
    coreless = _rewrite(good, tmp_path / "nocore.bk2", **{"Core.bin": None})
    assert Movie(coreless).get_state() == b""
    _error(coreless, "no usable start state .*no Core.bin.*--state")
    with MoviePlayer(coreless, state="Start") as player:
        assert sum(1 for _ in player) == 20


def test_unknown_game_and_other_system(tmp_path: Path, good: Path) -> None:
    header = entries(good)["Header.txt"]
    renamed = header.replace(b"StudioDemo-Genesis", b"NoSuch-Genesis")
    unknown = _rewrite(good, tmp_path / "unknown.bk2", **{"Header.txt": renamed})
    error = _error(unknown, "'NoSuch-Genesis', which is not an integration")
    assert "unknown.bk2" in str(error)
    nes = _rewrite(good, tmp_path / "nes.bk2", **{"Header.txt": header.replace(b"Platform GEN", b"Platform NES")})
    _error(nes, "recorded on Nes .*StudioDemo-Genesis is a Genesis game")
    odd = _rewrite(good, tmp_path / "odd.bk2", **{"Header.txt": header.replace(b"Platform GEN", b"Platform Amiga")})
    _error(odd, "platform 'Amiga' is not one emucore knows")


def test_bad_start_state_and_players(tmp_path: Path, good: Path) -> None:
    garbage = _rewrite(good, tmp_path / "garbage.bk2", **{"Core.bin": b"\x00" * 4096})
    _error(garbage, "start state does not load in StudioDemo-Genesis")
    _error(good, "no state 'NoSuchState'", state="NoSuchState")
    three = GEN_LOG.replace(b"P1 B|\n", b"P1 B|P3 B|\n")
    _error(_rewrite(good, tmp_path / "three.bk2", **{"Input Log.txt": three}), "3 players")
    _error(_rewrite(good, tmp_path / "empty.bk2", **{"Input Log.txt": b"[Input]\n[/Input]"}), "no frames")


def test_entry_size_caps(tmp_path: Path, good: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bk2, "MAX_OTHER_BYTES", 64)
    with pytest.raises(MovieError, match="'Header.txt' declares 112 bytes, more than the 64-byte cap"):
        Movie(good)
    monkeypatch.setattr(bk2, "MAX_OTHER_BYTES", 1 << 20)
    monkeypatch.setattr(bk2, "MAX_CORE_BYTES", 1000)
    with pytest.raises(MovieError, match="'Core.bin' declares"):
        Movie(good)
    monkeypatch.setattr(bk2, "MAX_CORE_BYTES", 256 << 20)
    # an entry that lies about its size (declares 10 bytes, inflates to much more): refused, never inflated whole
    items = [("Input Log.txt", GEN_LOG + b"\n" * 5000), ("Header.txt", b"Platform GEN\n")]
    path = write_zip(tmp_path / "liar.bk2", items)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("Input Log.txt")
    central = raw.index(b"PK\x01\x02")  # the first central-directory record: Input Log.txt
    struct.pack_into("<I", raw, central + 24, 10)  # central directory: uncompressed size
    struct.pack_into("<I", raw, info.header_offset + 22, 10)  # local header: uncompressed size
    path.write_bytes(bytes(raw))
    monkeypatch.setattr(bk2, "MAX_INPUT_LOG_BYTES", 20)
    with pytest.raises(MovieError, match="Input Log.txt"):
        Movie(path)


def test_the_command_reports_each_bad_movie_and_plays_the_others(
    tmp_path: Path, good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.bk2"
    bad.write_bytes(b"junk")
    assert main([str(bad), str(good), "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert f"emucore playback: movie {bad}: not a movie" in err
    assert "21 frames (20 steps)" in out
    assert main([str(good), str(good), "--video", str(bad), "--no-progress"]) == 2
    assert "must be a folder" in capsys.readouterr().err


def test_masks_never_exceed_16_bits(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "m.bk2", [("Header.txt", b"Platform N64\n"),
                                          ("Input Log.txt", b"[Input]\nP1 Z|\n|..|ZrlRLDUSBA|\n[/Input]")])
    masks = Movie(path).get_masks()
    assert masks.dtype == np.uint16 and int(masks[0, 0]) == sum(1 << i for i in (12, 11, 10, 7, 6, 5, 4, 3, 1, 0))
