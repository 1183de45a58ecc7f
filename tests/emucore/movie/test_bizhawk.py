"""BizHawk .bk2 files (written here from BizHawk's documented format): read by name, played with --state."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emucore.cli.playback import main
from emucore.env import MoviePlayer
from emucore.integration import rom_sha1
from emucore.movie import Movie, MovieError
from tests.conftest import GENESIS_ROM
from tests.emucore.movie import bizhawk_genesis_log, bizhawk_header, record_with_env, write_bizhawk

SHA1 = rom_sha1(GENESIS_ROM)


def test_bizhawk_columns_are_mapped_by_name(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    masks = rng.integers(0, 1 << 12, size=(50, 2))
    path = write_bizhawk(
        tmp_path / "bh.bk2", bizhawk_genesis_log(masks, players=2, crlf=True), bizhawk_header("Whatever", SHA1)
    )
    movie = Movie(path)
    assert movie.is_bizhawk and movie.data is not None and movie.data.by_name
    assert movie.players == 2 and movie.system is not None and movie.system.name == "Genesis"
    assert np.array_equal(movie.get_masks(), masks)
    assert movie.get_state() == b"" and movie.raw_state == b"BizHawk-state\x00\x01"
    assert movie.data.sha1 == SHA1 and "Comments.txt" in movie.data.extra_entries
    # by name, any char but '.' is a press (BizHawk's rule); by char, '*' would mean nothing
    starred = "\n".join(
        line if not line.startswith("|") else "".join(c if c in "|." else "*" for c in line)
        for line in bizhawk_genesis_log(masks, players=2).split("\n")
    )
    path = write_bizhawk(tmp_path / "star.bk2", starred, bizhawk_header("Whatever", SHA1))
    assert np.array_equal(Movie(path).get_masks(), masks)


def test_bizhawk_movie_plays_with_a_state_from_the_integration(tmp_path: Path) -> None:
    rec = record_with_env("StudioDemo-Genesis", tmp_path / "rec", 200, seed=9, keep_frames=False)
    masks = Movie(rec.path).get_masks()
    # a BizHawk GameName is the ROM's title, not an integration: the SHA-1 finds the game
    path = write_bizhawk(tmp_path / "bh.bk2", bizhawk_genesis_log(masks), bizhawk_header("Studio Demo (W)", SHA1))
    with pytest.raises(MovieError, match=r"no usable start state .*BizHawk core state.*--state"):
        MoviePlayer(path)
    with MoviePlayer(path, state="Start") as player:
        assert player.game == "StudioDemo-Genesis"
        total = sum(float(step.reward) for step in player)
        assert np.array_equal(player.env.get_ram(), rec.rams[-1])
    assert total == rec.total_reward
    assert main([str(path), "--state", "Start", "--no-progress"]) == 0
    assert main([str(path), "--no-progress"]) == 2


def test_bizhawk_movie_with_a_state_file(tmp_path: Path) -> None:
    rec = record_with_env("StudioDemo-Genesis", tmp_path / "rec", 60, seed=2, keep_frames=False)
    masks = Movie(rec.path).get_masks()
    path = write_bizhawk(tmp_path / "bh.bk2", bizhawk_genesis_log(masks), bizhawk_header("StudioDemo-Genesis", SHA1),
                         core=None)
    state_file = GENESIS_ROM.parent / "Start.state"
    with MoviePlayer(path, state=str(state_file)) as player:
        for _ in player:
            pass
        assert np.array_equal(player.env.get_ram(), rec.rams[-1])


def test_bizhawk_movie_for_another_rom_is_refused(tmp_path: Path) -> None:
    log = bizhawk_genesis_log(np.zeros((3, 1), dtype=np.uint16))
    path = write_bizhawk(tmp_path / "bh.bk2", log, bizhawk_header("StudioDemo-Genesis", "ab" * 20))
    with pytest.raises(MovieError, match="ROM SHA-1 " + "ab" * 20):
        MoviePlayer(path, state="Start")
    path = write_bizhawk(tmp_path / "gg.bk2", log, bizhawk_header("Unknown Game (J)", "cd" * 20))
    with pytest.raises(MovieError, match=r"'Unknown Game \(J\)'.*not an integration.*(cd){20}"):
        MoviePlayer(path, state="Start")
