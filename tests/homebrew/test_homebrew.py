"""Our homebrew games on every core that runs them: each documented RAM variable, read
through emucore's typed reads, follows the documented rules (homebrew/*/README.md)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emucore import Emulator
from tests.conftest import GENESIS_ROM, NES_ROM, require_core

UP, DOWN, LEFT, RIGHT, START = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 3
GAMES = {
    # name: (ROM, +1 button, +10 button, cores)
    "nes": (NES_ROM, 1 << 8, 1 << 0, ["fceumm", "nestopia"]),
    "genesis": (GENESIS_ROM, 1 << 0, 1 << 8, ["genesis_plus_gx", "picodrive"]),
}
CASES = [(game, core) for game, (_, _, _, cores) in GAMES.items() for core in cores]


class Game:
    """Reads the game's variables by their data.json names."""

    def __init__(self, emu: Emulator, rom):
        self.emu = emu
        self.variables = json.loads((rom.parent / "data.json").read_text())["info"]

    def __getitem__(self, name: str) -> int:
        v = self.variables[name]
        return self.emu.read(v["address"], v["type"])

    def hold(self, mask: int, frames: int) -> None:
        self.emu.set_button_mask(mask)
        for _ in range(frames):
            self.emu.step()
        self.emu.set_button_mask(0)

    def boot(self) -> None:
        """Runs until the game has processed its first frame (the count differs per core)."""
        for _ in range(30):
            if self["frame"] == 1:
                return
            self.emu.step()
        raise AssertionError("the game did not start within 30 frames")


@pytest.mark.parametrize("game, core", CASES)
def test_documented_rules(game, core):
    rom, plus_one, plus_ten, _ = GAMES[game]
    require_core(core)
    with Emulator(rom, core=core) as emu:
        g = Game(emu, rom)
        g.boot()
        assert (g["lives"], g["score"], g["game_over"], g["timer"]) == (3, 0, 0, 299)

        g.hold(plus_one, 10)
        score_text = "score_bcd" if game == "genesis" else "score_digits"
        assert g["score"] == 10 and g[score_text] == 10 and g["frame"] == 11
        g.hold(plus_ten, 5)
        assert g["score"] == 60 and g[score_text] == 60
        g.hold(plus_one | plus_ten, 2)
        assert g["score"] == 82 and g[score_text] == 82

        x, y = g["x"], g["y"]
        g.hold(LEFT, 3)
        assert g["x"] == x - 3 and g["dx"] == -1
        g.hold(RIGHT | DOWN, 5)
        assert g["x"] == x + 2 and g["y"] == y + 5 and g["dx"] == 1
        g.hold(0, 1)
        assert g["dx"] == 0

        while g["frame"] < 299:
            g.hold(0, 1)
        assert g["lives"] == 3
        g.hold(0, 1)
        assert g["frame"] == 300 and g["lives"] == 2 and g["timer"] == 300
        while g["frame"] < 900:
            g.hold(0, 1)
        assert g["lives"] == 0 and g["game_over"] == 1
        score = g["score"]
        g.hold(plus_one, 5)
        assert g["score"] == score  # frozen in game over
        g.hold(START, 1)
        assert (g["lives"], g["score"], g["game_over"]) == (3, 0, 0)


def test_genesis_raw_ram_holds_byte_swapped_words():
    with Emulator(GENESIS_ROM) as emu:
        g = Game(emu, GENESIS_ROM)
        g.boot()
        emu.write(0xFF0000, ">u4", 0x01234567)
        assert emu.get_ram()[:4].tolist() == [0x23, 0x01, 0x67, 0x45]
        assert emu.read(0xFF0000, "<>u4") == 0x45670123
        g.hold(0, 1)
        assert g["score"] == 0x01234567  # the game keeps a score written from outside


def test_genesis_bcd_score_tracks_binary():
    with Emulator(GENESIS_ROM) as emu:
        g = Game(emu, GENESIS_ROM)
        g.boot()
        rng = np.random.default_rng(5)
        for mask in rng.choice([0, 1, 1 << 8, 1 | 1 << 8], 200):
            g.hold(int(mask), 1)
            assert g["score_bcd"] == g["score"]
        raw = bytes(emu.read(0xFF0004 + i, "|u1") for i in range(4))
        assert int(raw.hex()) == g["score"]


@pytest.mark.parametrize("game", ["nes", "genesis"])
def test_start_state_is_the_end_of_boot(game):
    rom = GAMES[game][0]
    with Emulator(rom) as emu:
        emu.load_state_file(rom.parent / "Start.state")
        g = Game(emu, rom)
        assert (g["frame"], g["lives"], g["score"]) == (0, 3, 0)
        g.hold(GAMES[game][1], 1)  # the reset frame already reads the pad
        assert (g["frame"], g["score"]) == (1, 1)


@pytest.mark.parametrize("game", ["nes", "genesis"])
def test_backdrop_changes_with_the_state(game):
    rom, plus_one, _, _ = GAMES[game]
    with Emulator(rom) as emu:
        g = Game(emu, rom)
        g.boot()
        g.hold(0, 2)
        playing = emu.get_screen()[-1, 0].tolist()
        g.hold(plus_one, 2)
        held = emu.get_screen()[-1, 0].tolist()
        while g["game_over"] == 0:
            g.hold(0, 1)
        g.hold(0, 2)
        over = emu.get_screen()[-1, 0].tolist()
        assert len({tuple(playing), tuple(held), tuple(over)}) == 3
        assert over[0] > over[2] and held[1] > held[0] and playing[2] > playing[0]
