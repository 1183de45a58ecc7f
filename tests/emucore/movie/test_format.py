"""The .bk2 writer (stable-retro's dialect, byte for byte) and the tolerant reader, without an env."""

from __future__ import annotations

import gc
import zipfile
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.host.emulator import Emulator
from emucore.movie import Movie, MovieError
from emucore.movie.columns import columns_for
from emucore.movie.header import resolve_platform
from emucore.systems import get_system
from tests.conftest import GENESIS_ROM, NES_ROM
from tests.emucore.movie import entries, write_zip

# movie-format.md §3.3: the columns (chars, left to right) stable-retro writes per system
SPEC_COLUMNS = {
    "Genesis": "Z X Y C R L D U S M A B",
    "32x": "Z X Y C R L D U S M A B",
    "SCD": "Z X Y C R L D U S M A B",
    "Saturn": "Z X Y C R L D U S M A B",
    "FBNeo": "Z X Y C R L D U S M A B",
    "Snes": "r l X A R L D U S s Y B",
    "Nes": "A R L D U S s B",
    "GameBoy": "A R L D U S s B",
    "GbColor": "A R L D U S s B",
    "GameGear": "A R L D U S B",
    "Sms": "A R L D U B",
    "GbAdvance": "r l A R L D U S s B",
    "Atari2600": "R L D U s B",
    "PCEngine": "R L D U s",
    "N64": "Z r l R L D U S B A",
    "NintendoDs": "r l X A R L D U S s Y B",
}
GENESIS_KEY_LINE = "P1 Z|P1 X|P1 Y|P1 C|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Mode|P1 A|P1 B|"


@pytest.mark.parametrize("system", sorted(SPEC_COLUMNS))
def test_column_order_matches_the_spec_table(system: str) -> None:
    assert " ".join(c.char for c in columns_for(get_system(system))) == SPEC_COLUMNS[system]


def test_written_archive_is_stable_retros_dialect(tmp_path: Path) -> None:
    path = tmp_path / "m.bk2"
    movie = Movie(path, True, 2)
    movie.configure("Test-Genesis", get_system("Genesis"))
    movie.set_state(b"STATE" * 10)
    for i in range(3):
        movie.set_key(i, True, 0)
        movie.set_key(11 - i, True, 1)
        assert movie.get_key(i, 0)
        assert movie.step()
        assert not movie.get_key(i, 0)  # step() clears the keys
    assert not path.exists()  # nothing on disk before close()
    movie.close()
    movie.close()  # idempotent
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == ["Input Log.txt", "Header.txt", "Core.bin"]
    assert all(i.compress_type == zipfile.ZIP_DEFLATED and i.create_system == 3 for i in infos)
    files = entries(path)
    key_line = GENESIS_KEY_LINE + GENESIS_KEY_LINE.replace("P1", "P2")
    assert files["Input Log.txt"].decode() == (
        f"[Input]\n{key_line}\n"
        "|..|...........B|Z...........|\n"
        "|..|..........A.|.X..........|\n"
        "|..|.........M..|..Y.........|\n"
        "[/Input]"
    )
    assert files["Header.txt"].decode() == (
        "MovieVersion Retro\nAuthor ?\nemuVersion ?\nPlatform GEN\nGameName Test-Genesis\n"
        "SHA1 ?\nCore ?\nrerecordCount 1\n"
    )
    assert files["Core.bin"] == b"STATE" * 10
    assert [p.name for p in tmp_path.iterdir()] == ["m.bk2"]  # no temp file left behind


@pytest.mark.parametrize(
    ("system", "platform", "line"),
    [
        ("Snes", "SNES", "P1 R|P1 L|P1 X|P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 Y|P1 B|"),
        ("Nes", "NES", "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|"),
        ("Atari2600", "A26", "P1 Right|P1 Left|P1 Down|P1 Up|P1 Select|P1 Button|"),
        ("GameBoy", "GameBoy", "P1 A|"),
        ("32x", "32x", "P1 Z|"),
        ("PCEngine", "PCEngine", "P1 Right|P1 Left|P1 Down|P1 Up|P1 Select|"),
    ],
)
def test_platform_and_key_line_per_system(tmp_path: Path, system: str, platform: str, line: str) -> None:
    path = tmp_path / "m.bk2"
    with Movie(path, True, 1) as movie:
        movie.configure(f"X-{system}", get_system(system))
        movie.step()
    files = entries(path)
    assert f"\nPlatform {platform}\n".encode() in files["Header.txt"]
    log = files["Input Log.txt"].decode().split("\n")
    assert log[1].startswith(line)
    assert log[2] == "|..|" + "." * len(columns_for(get_system(system))) + "|"


def test_round_trip_of_every_button_by_char(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    for system in ("Genesis", "Snes", "Nes", "GbAdvance", "Atari2600", "N64"):
        columns = columns_for(get_system(system))
        recordable = sum(1 << c.index for c in columns)
        masks = rng.integers(0, 1 << 16, size=(40, 2)) & recordable
        path = tmp_path / f"{system}.bk2"
        with Movie(path, True, 2) as movie:
            movie.configure(f"Game-{system}", get_system(system))
            for row in masks:
                for p in range(2):
                    movie.set_mask(int(row[p]), p)
                movie.step()
        back = Movie(path)
        assert back.players == 2 and back.get_game() == f"Game-{system}"
        assert back.get_state() == b""  # configured with a System: no emulator state to keep
        assert np.array_equal(back.get_masks(), masks)
        for row in masks:
            assert back.step()
            assert [back.get_key(i, p) for p in range(2) for i in range(16)] == [
                bool(row[p] >> i & 1) for p in range(2) for i in range(16)
            ]
        assert not back.step()
        assert [back.get_key(i, 0) for i in range(16)] == [bool(masks[-1][0] >> i & 1) for i in range(16)]


def test_reader_tolerates_crlf_blank_lines_logkey_and_missing_input_line(tmp_path: Path) -> None:
    log = (
        "P1 Z|P1 X|P1 Y|P1 C|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Mode|P1 A|P1 B|\r\n"
        "|..|............|\r\n"
        "\r\n"
        "|r.|....R......B|\r\n"
        "|..|....R..?...B|\r\n"  # an unknown char is ignored
        "[/Input]\r\n"
        "|..|...........B|\r\n"  # after [/Input]: ignored
    )
    header = "MovieVersion Retro\r\nPlatform GEN\r\nGameName Some-Genesis\r\n"
    path = write_zip(tmp_path / "m.bk2", [("Input Log.txt", log.encode()), ("Header.txt", header.encode())])
    movie = Movie(path)
    assert movie.players == 1 and movie.get_game() == "Some-Genesis" and movie.frame_count == 3
    assert movie.get_state() == b""
    assert movie.get_masks()[:, 0].tolist() == [0, (1 << 7) | 1, (1 << 7) | 1]


def test_reader_without_key_line_or_header(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "m.bk2", [("Input Log.txt", b"[Input]\n|..|A.......|B.......|\n[/Input]")])
    movie = Movie(path)
    assert movie.get_game() == "?" and movie.players == 2 and movie.frame_count == 1
    assert movie.system is None  # no Platform, no GameName: chars cannot be mapped
    assert movie.get_masks().tolist() == [[0, 0]]


@pytest.mark.parametrize(
    ("platform", "system"),
    [("GEN", "Genesis"), ("SNES", "Snes"), ("NES", "Nes"), ("A26", "Atari2600"), ("GB", "GameBoy"),
     ("GBC", "GbColor"), ("GBA", "GbAdvance"), ("SMS", "Sms"), ("GG", "GameGear"), ("32X", "32x"),
     ("PCE", "PCEngine"), ("SAT", "Saturn"), ("N64", "N64"), ("NDS", "NintendoDs"), ("Genesis", "Genesis"),
     ("GbAdvance", "GbAdvance"), ("Banana", None), ("", None)],
)
def test_platform_aliases(platform: str, system: str | None) -> None:
    assert resolve_platform(platform) == system


def test_platform_code_selects_the_char_table(tmp_path: Path) -> None:
    log = "[Input]\nP1 A|P1 Right|\n|..|A......B|\n[/Input]"
    path = write_zip(tmp_path / "m.bk2", [("Input Log.txt", log.encode()), ("Header.txt", b"Platform GB\n")])
    movie = Movie(path)
    assert movie.system is not None and movie.system.name == "GameBoy"
    assert movie.get_masks().tolist() == [[(1 << 8) | 1]]
    # no Platform: the system the GameName declares
    path = write_zip(tmp_path / "n.bk2", [("Input Log.txt", log.encode()), ("Header.txt", b"GameName Foo-Nes\n")])
    assert Movie(path).get_masks().tolist() == [[(1 << 8) | 1]]


def test_fm2_is_read_like_stable_retro(tmp_path: Path) -> None:
    text = (
        "version 3\r\nemuVersion 22020\r\nromFilename demo\r\nport0 1\r\nport1 1\r\nport2 0\r\n"
        "|0|R.......|.......A|\r\n"
        "|0|...UT...|......B.|\r\n"
        "|1|....TSBA||\r\n"
    )
    path = tmp_path / "m.fm2"
    path.write_text(text, newline="")
    movie = Movie(path)
    nes = get_system("Nes").buttons
    bit = {name: 1 << nes.index(name) for name in ("A", "B", "UP", "RIGHT", "START", "SELECT")}
    assert movie.players == 2 and movie.get_game() == "?" and movie.get_state() == b""
    assert movie.get_masks().tolist() == [
        [bit["RIGHT"], bit["A"]],
        [bit["UP"] | bit["START"], bit["B"]],
        [bit["START"] | bit["SELECT"] | bit["B"] | bit["A"], 0],
    ]


def test_key_access_edges(tmp_path: Path) -> None:
    movie = Movie(tmp_path / "m.bk2", True, 1)
    assert not movie.get_key(16, 0) and not movie.get_key(0, 5) and not movie.get_key(-1, 0)
    with pytest.raises(ValueError):
        movie.set_key(16, True, 0)
    with pytest.raises(ValueError):
        movie.set_key(0, True, 1)
    movie.set_key(3, True, 0)
    movie.set_key(3, False, 0)
    assert not movie.get_key(3, 0)
    assert movie.get_game() == "?"
    movie.discard()
    assert not (tmp_path / "m.bk2").exists()
    with pytest.raises(ValueError):
        Movie(tmp_path / "x.bk2", True, 0)


def test_read_keys_keep_their_last_values_at_the_end(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "m.bk2", [
        ("Header.txt", b"Platform NES\n"), ("Input Log.txt", b"[Input]\nP1 A|\n|..|A.......|\n[/Input]"),
    ])
    movie = Movie(path)
    assert movie.step() and movie.get_key(8, 0)
    assert not movie.step() and movie.get_key(8, 0) and not movie.step()


def test_configure_keeps_the_emulator_state_when_none_is_set(tmp_path: Path) -> None:
    with Emulator(NES_ROM) as emu:
        state = emu.get_state()
        with Movie(tmp_path / "m.bk2", True) as movie:
            movie.configure("StudioDemo-Nes", emu)
            movie.step()
        assert entries(tmp_path / "m.bk2")["Core.bin"] == state
        with Movie(tmp_path / "n.bk2", True) as movie:
            movie.configure("StudioDemo-Nes", emu)
            movie.set_state(b"mine")
            movie.step()
        assert entries(tmp_path / "n.bk2")["Core.bin"] == b"mine"


def test_a_dropped_movie_is_written_and_an_existing_file_replaced(tmp_path: Path) -> None:
    path = tmp_path / "m.bk2"
    path.write_bytes(b"old content")
    movie = Movie(path, True)
    movie.configure("A-Genesis", get_system("Genesis"))
    movie.step()
    del movie
    gc.collect()
    assert Movie(path).frame_count == 1


def test_env_auto_record_writes_every_episode(tmp_path: Path) -> None:
    env = emucore.make("StudioDemo-Genesis", record=str(tmp_path))
    try:
        for _ in range(3):
            env.reset()
            for _ in range(5):
                env.step(env.action_space.sample())
    finally:
        env.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"StudioDemo-Genesis-Start-{i:06d}.bk2" for i in range(3)]
    for name in names:
        movie = Movie(tmp_path / name)
        assert movie.frame_count == 6 and len(movie.get_state()) > 0


def test_movie_is_exported_lazily_and_raises_movie_errors() -> None:
    assert emucore.Movie is Movie
    assert issubclass(MovieError, RuntimeError) and issubclass(MovieError, emucore.EmucoreError)
    with Emulator(GENESIS_ROM) as emu:
        assert emu.system.name == "Genesis"


@pytest.mark.parametrize("seed", range(6))
def test_fast_and_line_by_line_decoders_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from emucore.movie import input_log

    rng = np.random.default_rng(seed)
    chars = list("ZXYCRLDUSMAB.?*| ,")
    lines = ["[Input]", GENESIS_KEY_LINE if seed % 2 else "LogKey:#Reset|Power|#" + GENESIS_KEY_LINE]
    for _ in range(200):
        fields = ["".join(rng.choice(chars[:-3], 12)) for _ in range(2)]
        line = "|..|" + "|".join(fields) + "|"
        if seed >= 4 and rng.random() < 0.05:
            line = "|..|" + "".join(rng.choice(chars, 14)) + "|"  # irregular: the fast path must give up
        lines.append(line + ("\r" if seed == 3 else ""))
        if seed == 2 and rng.random() < 0.05:
            lines.append("")
    lines.append("[/Input]")
    text = "\n".join(lines)
    fast = input_log.parse_input_log(text, "Genesis")
    monkeypatch.setattr(input_log, "_fast_parse", lambda *args: None)
    slow = input_log.parse_input_log(text, "Genesis")
    assert fast.players == slow.players and fast.by_name == slow.by_name
    assert np.array_equal(fast.masks, slow.masks) and len(fast.masks) == 200
