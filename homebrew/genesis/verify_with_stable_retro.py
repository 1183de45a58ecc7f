#!/usr/bin/env python3
"""Check StudioDemo-Genesis against the real game running in stable-retro.

A developer tool (not a unit test): it boots the ROM in stable-retro's
genesis_plus_gx core through ``emucore/resources/integrations/StudioDemo-Genesis`` and asserts
that every data.json variable behaves as documented in README.md, then prints
OK.  It also checks the traps for the assisted tools every frame: the
one-digit-per-byte tallies p1_tally/p2_tally (A held; they are not in
data.json) and their HUD text.  Run it from the project venv:

    .venv/bin/python homebrew/genesis/verify_with_stable_retro.py [--screenshots DIR]

With --screenshots, PNGs of a few moments (playing, B held, game over,
saturated score) are written to DIR so a person can look at them.  With
--wrap it also runs past 65535 frames to check the frame counter wraps.

Frame numbering: stable-retro with ``state=retro.State.NONE`` runs one frame
when the env is made and one in ``reset()`` (there is no save state to load),
so the first ``env.step()`` is the 3rd frame after power-on.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import zlib
from pathlib import Path

import numpy as np
import stable_retro as retro

HERE = Path(__file__).resolve().parent
INTEGRATIONS = HERE.parent.parent / "emucore" / "resources" / "integrations"
GAME = "StudioDemo-Genesis"

BUTTONS = ["B", "A", "MODE", "START", "UP", "DOWN", "LEFT", "RIGHT", "C", "Y", "X", "Z"]
FRAMES_BEFORE_FIRST_STEP = 2  # env constructor + reset(), see module docstring
FIRST_GAME_FRAME = 5  # power-on frame in which the game first runs
LIFE_FRAMES = 300
X_START, Y_START, X_MAX, Y_MAX = 152, 104, 304, 208
PAD_BITS = {"UP": 0, "DOWN": 1, "LEFT": 2, "RIGHT": 3, "B": 4, "C": 5, "A": 6, "START": 7}
BLUE, RED, GREEN = "blue", "red", "green"  # backdrop colours, see classify()
P1_TALLY, P2_TALLY = 0x20, 0x26  # offsets in work RAM of the two 6-digit tallies (traps)
TALLY_MAX = 999_999

# The RAM map of README.md: name -> (68k address, data.json type)
RAM_MAP = {
    "score": (0xFF0000, ">u4"),
    "score_bcd": (0xFF0004, ">d4"),
    "frame": (0xFF0008, ">u2"),
    "x": (0xFF000A, ">u2"),
    "y": (0xFF000C, ">u2"),
    "dx": (0xFF000E, ">i2"),
    "timer": (0xFF0010, ">u2"),
    "lives": (0xFF0012, "|u1"),
    "game_over": (0xFF0013, "|u1"),
}


def write_png(path: Path, rgb: np.ndarray) -> None:
    """Minimal PNG writer (8-bit RGB, no filtering) using zlib."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[row].astype(np.uint8).tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    path.write_bytes(png)


def classify(pixel: np.ndarray) -> str:
    r, g, b = (int(c) for c in pixel[:3])
    if b > 2 * max(r, g, 20):
        return BLUE
    if r > 2 * max(g, b, 20):
        return RED
    if g > 2 * max(r, b, 20):
        return GREEN
    return f"other{(r, g, b)}"


class Runner:
    def __init__(self, env):
        self.env = env
        self.power_on_frame = FRAMES_BEFORE_FIRST_STEP
        self.obs = None
        self.info = None
        self.terminated = False
        self.life_events = []  # (frame, lives) each time the lives byte changes
        self.glyphs = {}  # digit -> 8x8 on-screen mask, learnt from the HUD
        self.tallies = (0, 0)  # p1_tally, p2_tally after the last step

    def step(self, *pressed: str):
        action = np.zeros(len(BUTTONS), np.uint8)
        for name in pressed:
            action[BUTTONS.index(name)] = 1
        prev_lives = None if self.info is None else self.info["lives"]
        prev_game_over = 0 if self.info is None else self.info["game_over"]
        obs, rew, term, trunc, info = self.env.step(action)
        if prev_lives is not None and info["lives"] != prev_lives:
            self.life_events.append((info["frame"], info["lives"]))
        self.power_on_frame += 1
        self.obs, self.info, self.terminated = obs, info, term
        # the frame counter advances by exactly one per emulated frame once running
        if self.power_on_frame >= FIRST_GAME_FRAME:
            expected = (self.power_on_frame - FIRST_GAME_FRAME + 1) & 0xFFFF
            assert info["frame"] == expected, (self.power_on_frame, info["frame"], expected)
        self.check_invariants()
        if self.power_on_frame >= FIRST_GAME_FRAME:
            # internal pad byte $FF0014: 1 = pressed, bits S A C B R L D U
            expected_pad = sum(1 << PAD_BITS[name] for name in pressed if name in PAD_BITS)
            assert self.logical_ram()[0x14] == expected_pad, (pressed, self.logical_ram()[0x14])
            # genesis_plus_gx hands over the picture after the VBlank handler
            # ran, so the observation of a step already shows that step's state
            self.check_hud(info)
            self.check_tallies("A" in pressed, prev_game_over)
        return rew, info

    def tally(self, offset: int) -> list[int]:
        return [int(b) for b in self.logical_ram()[offset : offset + 6]]

    def check_tallies(self, a_held: bool, prev_game_over: int):
        """p1_tally: one decimal digit per byte, +1 per play frame with A held, frozen in game
        over, 0 after a restart; p2_tally (pad 2) stays 0 here, stable-retro drives pad 1 only.
        The HUD shows each as its 6 digits and a fixed trailing 0."""
        p1, p2 = self.tally(P1_TALLY), self.tally(P2_TALLY)
        assert all(0 <= d <= 9 for d in p1 + p2), (p1, p2)
        value = int("".join(map(str, p1)))
        before = self.tallies[0]
        if prev_game_over == 0:
            expected = min(TALLY_MAX, before + a_held)
        else:
            expected = 0 if self.info["game_over"] == 0 else before  # restart / frozen
        assert value == expected and p2 == [0] * 6, (value, expected, p2)
        self.tallies = (value, 0)
        for col, digit in zip(range(5, 12), p1 + [0], strict=True):
            mask = self.cell_mask(col, 3)
            assert self.glyphs.setdefault(digit, mask) == mask, f"1P digit {digit} at cell {col},3"
        for col, digit in zip(range(30, 37), p2 + [0], strict=True):
            mask = self.cell_mask(col, 3)
            assert self.glyphs.setdefault(digit, mask) == mask, f"2P digit {digit} at cell {col},3"

    def cell_mask(self, col: int, row: int) -> bytes:
        cell = self.obs[row * 8 : row * 8 + 8, col * 8 : col * 8 + 8]
        return (cell.min(axis=2) > 200).astype(np.uint8).tobytes()  # white pixels

    def check_hud(self, shown):
        """The 8 score digits (cells 8-15 of row 1) and the lives digit (cell 36)
        must show the BCD score and lives; each digit must always look the same."""
        digits = [int(c) for c in f"{shown['score_bcd']:08d}"] + [shown["lives"]]
        cells = [(col, 1) for col in range(8, 16)] + [(36, 1)]
        for digit, (col, row) in zip(digits, cells, strict=True):
            mask = self.cell_mask(col, row)
            assert sum(mask) > 0, (col, row, digit)
            known = self.glyphs.setdefault(digit, mask)
            assert known == mask, f"digit {digit} at cell {col},{row} drawn differently"

    def hold(self, n: int, *pressed: str):
        rewards = [self.step(*pressed)[0] for _ in range(n)]
        return rewards

    def check_invariants(self):
        i = self.info
        assert 0 <= i["x"] <= X_MAX and 0 <= i["y"] <= Y_MAX, i
        assert i["dx"] in (-1, 0, 1), i
        assert i["score_bcd"] == i["score"], i
        if self.power_on_frame >= FIRST_GAME_FRAME:
            assert i["lives"] in (0, 1, 2, 3), i
            assert i["game_over"] == (1 if i["lives"] == 0 else 0), i
            assert 1 <= i["timer"] <= LIFE_FRAMES, i
            assert self.terminated == (i["lives"] == 0), i
        self.check_raw_ram()

    def logical_ram(self) -> np.ndarray:
        ram = self.env.get_ram()
        assert len(ram) == 0x10000, len(ram)
        # stable-retro exposes the genesis RAM with the XOR-1 overlay applied
        # when reading variables; get_ram() returns the core's raw buffer, in
        # which each 16-bit word is stored in host (little-endian) order.
        return ram.reshape(-1, 2)[:, ::-1].reshape(-1)

    def check_raw_ram(self):
        """Decode the RAM block by hand (logical 68k byte order) and compare."""
        logical = self.logical_ram()
        (score,) = struct.unpack(">I", logical[0:4].tobytes())
        bcd = logical[4:8].tobytes()
        frame, x, y, dx, timer = struct.unpack(">HHHhH", logical[8:18].tobytes())
        lives, game_over = int(logical[0x12]), int(logical[0x13])
        i = self.info
        assert (score, frame, x, y, dx, timer, lives, game_over) == (
            i["score"],
            i["frame"],
            i["x"],
            i["y"],
            i["dx"],
            i["timer"],
            i["lives"],
            i["game_over"],
        ), (score, frame, x, y, dx, timer, lives, game_over, i)
        assert bcd.hex() == f"{score:08d}", (bcd.hex(), score)

    def backdrop(self) -> str:
        # a screen corner away from the sprite: only the backdrop shows there
        # (row 0 of the HUD is empty, the text is on cell row 1)
        px = 317 if self.info["x"] < X_START else 2
        py = 221 if self.info["y"] < Y_START else 2
        return classify(self.obs[py, px])

    def game_over_text_shown(self) -> bool:
        # "G" of GAME OVER at cell (15, 12), "P" of PRESS START at (14, 14)
        shown = [sum(self.cell_mask(15, 12)) > 0, sum(self.cell_mask(14, 14)) > 0]
        assert shown[0] == shown[1], shown
        return shown[0]

    def screenshot(self, directory: Path | None, name: str):
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            write_png(directory / f"{name}.png", self.obs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", type=Path, help="directory for PNG screenshots")
    parser.add_argument(
        "--wrap", action="store_true", help="also run until the 16-bit frame counter wraps (~65k frames)"
    )
    args = parser.parse_args(argv)
    shots = args.screenshots

    info = json.loads((INTEGRATIONS / GAME / "data.json").read_text())["info"]
    assert {k: (v["address"], v["type"]) for k, v in info.items()} == RAM_MAP, info

    retro.data.Integrations.add_custom_path(str(INTEGRATIONS))
    env = retro.make(
        GAME,
        state=retro.State.NONE,
        inttype=retro.data.Integrations.ALL,
        use_restricted_actions=retro.Actions.ALL,
        render_mode="rgb_array",
    )
    try:
        assert list(env.buttons) == BUTTONS, env.buttons
        env.reset()
        run = Runner(env)

        # --- boot: B is held from the very first step, but the game only
        # starts reading the pad in power-on frame FIRST_GAME_FRAME.
        while run.power_on_frame < FIRST_GAME_FRAME - 1:
            run.step("B")
            assert run.info["score"] == 0 and run.info["frame"] == 0, run.info
        assert run.info["lives"] == 3 and run.info["timer"] == LIFE_FRAMES, run.info
        assert (run.info["x"], run.info["y"], run.info["dx"]) == (X_START, Y_START, 0)
        run.step("B")
        assert run.power_on_frame == FIRST_GAME_FRAME
        assert run.info["frame"] == 1 and run.info["score"] == 1, run.info
        assert run.info["timer"] == LIFE_FRAMES - 1, run.info

        # --- idle frames: backdrop blue, nothing changes but frame/timer
        run.hold(3)
        assert run.info["score"] == 1 and run.info["dx"] == 0
        assert run.backdrop() == BLUE, run.backdrop()
        assert not run.game_over_text_shown()
        # a single frame with B is a single green frame
        run.step("B")
        assert run.info["score"] == 2 and run.backdrop() == GREEN, run.backdrop()
        run.step()
        assert run.info["score"] == 2 and run.backdrop() == BLUE, run.backdrop()

        # --- B: +1 per frame, reward 1.0 per frame, BCD shows the same number
        before = run.info["score"]
        rewards = run.hold(95, "B")
        assert run.info["score"] == before + 95, run.info
        assert rewards == [1.0] * 95, set(rewards)
        assert run.info["score"] == 97 and run.info["score_bcd"] == 97
        assert run.backdrop() == GREEN, run.backdrop()
        run.screenshot(shots, "b_held_green")

        # --- C: +10 per frame (the BCD carries from 97 into 3 digits)
        rewards = run.hold(20, "C")
        assert rewards == [10.0] * 20 and run.info["score"] == 297, run.info
        assert run.backdrop() == BLUE, run.backdrop()
        # --- B+C: +11 per frame
        rewards = run.hold(4, "B", "C")
        assert rewards == [11.0] * 4 and run.info["score"] == 341, run.info

        # --- A (a trap): p1_tally keeps one decimal digit per byte, +1 per frame
        rewards = run.hold(16, "A")
        assert run.tally(P1_TALLY) == [0, 0, 0, 0, 1, 6], run.tally(P1_TALLY)
        assert rewards == [0.0] * 16 and run.info["score"] == 341, run.info
        run.screenshot(shots, "tally_1p_0000160")

        # --- D-pad: 1 px per frame, dx = -1/0/+1
        x0, y0 = run.info["x"], run.info["y"]
        for _ in range(10):
            px = run.info["x"]
            run.step("RIGHT")
            assert run.info["x"] == px + 1 and run.info["dx"] == 1, run.info
        for _ in range(4):
            px = run.info["x"]
            run.step("LEFT")
            assert run.info["x"] == px - 1 and run.info["dx"] == -1, run.info
        run.step()
        assert run.info["dx"] == 0 and run.info["x"] == x0 + 6, run.info
        run.step("LEFT", "RIGHT")
        assert run.info["dx"] == 0 and run.info["x"] == x0 + 6, run.info
        run.hold(7, "DOWN")
        assert run.info["y"] == y0 + 7 and run.info["dx"] == 0, run.info
        run.hold(3, "UP")
        assert run.info["y"] == y0 + 4, run.info
        run.hold(2, "UP", "RIGHT")
        assert (run.info["x"], run.info["y"], run.info["dx"]) == (x0 + 8, y0 + 2, 1), run.info
        run.screenshot(shots, "playing_blue")

        # --- life timer: a life every 300 frames of play, game over at 0
        lost_at = []
        lives = run.info["lives"]
        assert lives == 3, run.info
        while not run.info["game_over"]:
            t = run.info["timer"]
            run.step("START")  # START does nothing while playing
            if run.info["lives"] != lives:
                assert t == 1 and run.info["timer"] == LIFE_FRAMES, (t, run.info)
                lives = run.info["lives"]
                lost_at.append(run.info["frame"])
            else:
                assert run.info["timer"] == t - 1, (t, run.info)
        assert lost_at == [300, 600, 900], lost_at
        assert run.info["lives"] == 0 and run.terminated, run.info
        assert run.backdrop() == RED and run.game_over_text_shown()
        score_at_end = run.info["score"]

        # --- game over: sprite and score frozen, backdrop red, frame still runs.
        # START was held when the game ended, so it must be released first.
        x, y = run.info["x"], run.info["y"]
        rewards = run.hold(30, "START", "B", "C", "RIGHT", "DOWN")
        assert rewards == [0.0] * 30, rewards
        assert run.info["game_over"] == 1 and run.info["score"] == score_at_end, run.info
        assert (run.info["x"], run.info["y"], run.info["dx"]) == (x, y, 0), run.info
        assert run.info["timer"] == LIFE_FRAMES, run.info
        assert run.backdrop() == RED, run.backdrop()
        run.screenshot(shots, "game_over_red")
        run.hold(2)
        assert run.info["game_over"] == 1, run.info

        # --- START (a new press) restarts
        run.step("START")
        i = run.info
        assert (i["game_over"], i["lives"], i["score"], i["score_bcd"], i["timer"]) == (
            0,
            3,
            0,
            0,
            LIFE_FRAMES,
        ), i
        assert (i["x"], i["y"], i["dx"]) == (X_START, Y_START, 0), i
        assert not run.terminated
        assert run.backdrop() == BLUE and not run.game_over_text_shown()
        run.step("START", "B")  # still held: no effect, play has resumed
        assert run.info["score"] == 1 and run.info["timer"] == LIFE_FRAMES - 1, run.info
        run.step()
        assert run.backdrop() == BLUE, run.backdrop()
        restart_frame = run.info["frame"] - 2

        # --- clamping to the screen (in the second game)
        run.hold(160, "LEFT", "UP")
        assert (run.info["x"], run.info["y"], run.info["dx"]) == (0, 0, -1), run.info
        run.hold(X_MAX + 6, "RIGHT", "DOWN")
        assert (run.info["x"], run.info["y"], run.info["dx"]) == (X_MAX, Y_MAX, 1), run.info

        # --- the restart reset the life timer: lives drop 300/600/900 frames later
        a_frames = 0
        while not run.info["game_over"]:
            run.step("A")  # A only counts the p1_tally trap (checked in step())
            a_frames += 1
        second_game = [(f - restart_frame, n) for f, n in run.life_events if f >= restart_frame]
        assert second_game == [(0, 3), (300, 2), (600, 1), (900, 0)], second_game
        assert run.info["score"] == 1 and run.terminated, run.info
        assert run.tallies == (a_frames, 0), (run.tallies, a_frames)  # the game-over frame counts

        # --- every digit 0-9 appeared on screen, each with its own glyph
        assert sorted(run.glyphs) == list(range(10)), sorted(run.glyphs)
        assert len(set(run.glyphs.values())) == 10, "two digits share a glyph"

        # --- saturation at 99,999,999 (poked into RAM: playing there takes ~10M frames)
        run.step("START")
        assert run.info["game_over"] == 0 and run.info["lives"] == 3, run.info
        env.data.set_value("score", 99_999_990)
        env.data.set_value("score_bcd", 99_999_990)
        run.step()
        assert run.info["score"] == 99_999_990 and run.info["score_bcd"] == 99_999_990, run.info
        assert run.hold(3, "C") == [9.0, 0.0, 0.0]
        assert run.info["score"] == 99_999_999 and run.info["score_bcd"] == 99_999_999, run.info
        assert run.hold(2, "B", "C") == [0.0, 0.0] and run.info["score"] == 99_999_999
        run.screenshot(shots, "score_saturated")

        if args.wrap:  # step() checks frame == power-on frame - 4 (mod 65536)
            while run.info["frame"] != 3:
                # tap START every other frame: each game over restarts at once
                run.step(*(["START"] if run.info["frame"] % 2 else []))
            assert run.power_on_frame == 65536 + 3 + 4, run.power_on_frame
    finally:
        env.close()

    print(f"OK: {GAME} verified in stable-retro ({run.power_on_frame} frames after power-on)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
