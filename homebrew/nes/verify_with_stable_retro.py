#!/usr/bin/env python3
"""Dev tool: play StudioDemo-Nes through stable-retro and assert the RAM map.

Run from the repository root with the project's venv:
    .venv/bin/python homebrew/nes/verify_with_stable_retro.py [--shots DIR]

It uses emucore/resources/integrations/StudioDemo-Nes (found relative to this file) with
state=retro.State.NONE, i.e. from power-on, and checks the behaviour
documented in homebrew/nes/README.md: boot timing, score (+1 per A frame,
+10 per B frame, digits agree, saturation at 65535), movement and clamping,
dx, the 300-frame life timer, game over, START restart (edge-triggered), the
frame counter and the backdrop colours, and every frame the traps for the
assisted tools (bonus, hud_buf, rest, dying; read from RAM, they are not in
data.json). Screenshots are written as PNG files (tiny stdlib PNG writer, no
Pillow needed).

This is a developer check, not part of the test suite.
"""

from __future__ import annotations

import argparse
import struct
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import stable_retro as retro

HERE = Path(__file__).resolve().parent
INTEGRATIONS = HERE.parent.parent / "emucore" / "resources" / "integrations"
GAME = "StudioDemo-Nes"

# stable-retro NES button order (MultiBinary(9))
B, NULL, SELECT, START, UP, DOWN, LEFT, RIGHT, A = range(9)

START_X, START_Y = 120, 112
XMIN, XMAX, YMIN, YMAX = 8, 232, 8, 216
LIFE_FRAMES = 300

# traps for the assisted tools (README "Traps for the assisted tools"), not in data.json
BONUS, REST, DYING, HUD_BUF = 0x30, 0x33, 0x34, 0x40
BONUS_MAX, DYING_START, DYING_LAST = 9999, 0x9E, 0x81


def traps(ram: np.ndarray) -> dict:
    """The trap bytes decoded from a RAM dump: bonus <u2, rest |u1, dying |u1, hud_buf >d3."""
    return {
        "bonus": int(ram[BONUS]) | int(ram[BONUS + 1]) << 8,
        "rest": int(ram[REST]),
        "dying": int(ram[DYING]),
        "hud_buf": int(bytes(ram[HUD_BUF : HUD_BUF + 3]).hex()),
    }


def write_png(path: Path, rgb: np.ndarray) -> None:
    """Write an HxWx3 uint8 array as an 8-bit RGB PNG."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    path.write_bytes(png)


def backdrop_colour(obs: np.ndarray) -> tuple[int, int, int]:
    """Most common pixel colour of the frame = the backdrop."""
    counts = Counter(map(tuple, obs.reshape(-1, 3).tolist()))
    return counts.most_common(1)[0][0]


def colour_name(rgb: tuple[int, int, int]) -> str:
    r, g, b = rgb
    if b > r + 40 and b > g:
        return "blue"
    if g > r + 40 and g > b + 40:
        return "green"
    if r > g + 40 and r > b + 40:
        return "red"
    return f"other{rgb}"


class Runner:
    def __init__(self, shots: Path) -> None:
        retro.data.Integrations.add_custom_path(str(INTEGRATIONS))
        self.env = retro.make(
            GAME,
            state=retro.State.NONE,
            inttype=retro.data.Integrations.ALL,
            use_restricted_actions=retro.Actions.ALL,
            render_mode="rgb_array",
        )
        self.shots = shots
        self.obs, _ = self.env.reset()  # runs the first emulator frame
        self.runs = 1  # emulator frames since power-on
        self.info: dict = {}
        self.prev: dict | None = None
        self.terminated = False
        self.prev_terminated = False
        self.reward = 0.0
        self.lives_lost_at: list[tuple[int, int]] = []  # (frame counter, lives left)
        self.traps = traps(self.env.get_ram())
        self.prev_traps = self.traps

    def step(self, *buttons: int, check: bool = True) -> dict:
        action = np.zeros(9, np.uint8)
        for b in buttons:
            action[b] = 1
        self.prev = self.info
        self.prev_terminated = self.terminated
        self.obs, self.reward, self.terminated, _, self.info = self.env.step(action)
        self.runs += 1
        self.prev_traps, self.traps = self.traps, traps(self.env.get_ram())
        if check and self.prev.get("frame", 0) >= 1:
            self.check_invariants(set(buttons))
        return self.info

    def hold(self, n: int, *buttons: int) -> dict:
        for _ in range(n):
            self.step(*buttons)
        return self.info

    def check_invariants(self, held: set[int]) -> None:
        p, i = self.prev, self.info
        # frame counter: +1 every frame, also in game over
        assert i["frame"] == (p["frame"] + 1) & 0xFFFF, (p, i)
        # digits always equal the binary score (score <= 65535 < 100000)
        assert i["score_digits"] == i["score"], i
        # reward = delta of score (stable-retro reports 0 on the step that leaves
        # a finished episode, so only check while the episode is running)
        if not self.prev_terminated:
            assert self.reward == i["score"] - p["score"], (self.reward, p, i)
        if i["lives"] < p["lives"]:
            self.lives_lost_at.append((i["frame"], i["lives"]))
        # done exactly when lives == 0
        assert self.terminated == (i["lives"] == 0), (self.terminated, i)
        assert i["game_over"] == (1 if i["lives"] == 0 else 0), i
        assert i["dx"] in (-1, 0, 1), i
        if p["game_over"] == 0:
            # a play frame: timer counts down 300..1, a life is lost when it hits 0
            if p["timer"] == 1:
                assert i["timer"] == LIFE_FRAMES and i["lives"] == p["lives"] - 1, (p, i)
            else:
                assert i["timer"] == p["timer"] - 1 and i["lives"] == p["lives"], (p, i)
            expected = min(65535, p["score"] + (1 if A in held else 0) + (10 if B in held else 0))
            assert i["score"] == expected, (held, p, i)
        else:
            restarted = i["game_over"] == 0
            if not restarted:
                for key in ("score", "lives", "timer", "x", "y"):
                    assert i[key] == p[key], (key, p, i)
                assert i["dx"] == 0, i
        self.check_traps(held)

    def check_traps(self, held: set[int]) -> None:
        p, i, pt, t = self.prev, self.info, self.prev_traps, self.traps
        # hud_buf: the score in BCD when frame & 3 != 0, the timer on the other frames
        assert t["hud_buf"] == (i["score"] if i["frame"] & 3 else i["timer"]), (i, t)
        assert t["rest"] == max(i["lives"] - 1, 0), (i, t)
        if p["game_over"] == 0:
            assert t["bonus"] == min(BONUS_MAX, pt["bonus"] + (SELECT in held)), (held, pt, t)
            if i["lives"] < p["lives"]:
                dying = DYING_START  # every death, the last one too
            elif pt["dying"] >= DYING_LAST + 1:
                dying = pt["dying"] - 1
            else:
                dying = 0
            assert t["dying"] == dying, (pt, t, i)
        elif i["game_over"] == 0:  # restarted
            assert (t["bonus"], t["dying"]) == (0, 0), t
        else:  # game over freezes both
            assert (t["bonus"], t["dying"]) == (pt["bonus"], DYING_START), (pt, t)

    def shot(self, name: str) -> tuple[int, int, int]:
        path = self.shots / f"{name}.png"
        write_png(path, self.obs)
        colour = backdrop_colour(self.obs)
        print(f"  screenshot {path} backdrop={colour} ({colour_name(colour)})")
        return colour

    def close(self) -> None:
        self.env.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, default=None, help="directory for PNG screenshots")
    args = parser.parse_args()
    shots = args.shots or Path(tempfile.mkdtemp(prefix="studio_demo_nes_shots_"))
    shots.mkdir(parents=True, exist_ok=True)

    r = Runner(shots)
    print(f"observation shape {r.obs.shape}")

    # ---- boot --------------------------------------------------------------
    ram = r.env.get_ram()
    assert ram[0x13] == 3, "lives must be initialised during the first frame"
    while True:
        info = r.step(A, check=False)  # A held from power-on: ignored until the game runs
        if info["frame"] != 0:
            break
        assert info["score"] == 0 and info["lives"] == 3 and info["timer"] == LIFE_FRAMES, info
        assert not r.terminated
        assert r.runs < 20, "game never started"
    first_frame_run = r.runs
    print(f"boot: first NMI/game frame is emulator frame {first_frame_run} after power-on "
          f"(env.reset() + {first_frame_run - 1} steps); frame counter = {info['frame']}")
    assert info["frame"] == 1 and info["timer"] == LIFE_FRAMES - 1 and info["score"] == 1, info
    assert (info["x"], info["y"], info["dx"], info["lives"], info["game_over"]) == (START_X, START_Y, 0, 3, 0), info

    r.step()
    assert colour_name(r.shot("01_boot_green_after_A")) == "green"  # picture lags RAM by one frame
    r.step()
    assert colour_name(r.shot("02_playing_blue")) == "blue"

    # ---- score -------------------------------------------------------------
    s0 = r.info["score"]
    r.hold(50, A)
    assert r.info["score"] == s0 + 50, r.info
    assert colour_name(r.shot("03_A_held_green")) == "green"
    r.hold(20, B)
    assert r.info["score"] == s0 + 50 + 200, r.info
    assert colour_name(r.shot("04_B_held_blue")) == "blue"
    r.hold(5, A, B)
    assert r.info["score"] == s0 + 50 + 200 + 55, r.info
    print(f"score: A +1/frame, B +10/frame, A+B +11/frame ok (score={r.info['score']}, digits={r.info['score_digits']})")

    # ---- traps: bonus (SELECT) is a binary count of hundreds --------------------
    assert r.traps["bonus"] == 0 and r.traps["rest"] == 2 and r.traps["dying"] == 0, r.traps
    s1 = r.info["score"]
    r.hold(16, SELECT)
    assert list(r.env.get_ram()[BONUS : BONUS + 2]) == [0x10, 0x00] and r.info["score"] == s1, r.traps
    r.step()
    r.shot("04b_bonus_001600")
    print("traps: 16 SELECT frames -> bonus bytes $10 $00 (shown 001600); hud_buf/rest/dying checked every frame")

    # ---- movement and clamping ---------------------------------------------
    def move(button: int, key: str, step_sign: int, limit: int, dx_expected: int | None) -> None:
        start = r.info[key]
        distance = abs(limit - start)
        for n in range(1, distance + 1):
            r.step(button)
            assert r.info[key] == start + step_sign * n, (button, n, r.info)
            if dx_expected is not None:
                assert r.info["dx"] == dx_expected, r.info
        for _ in range(5):  # pushing against the edge
            r.step(button)
            assert r.info[key] == limit, r.info
            assert r.info["dx"] == 0, r.info

    move(RIGHT, "x", +1, XMAX, +1)
    r.step(LEFT)
    assert r.info["dx"] == -1 and r.info["x"] == XMAX - 1, r.info
    r.step()
    assert r.info["dx"] == 0 and r.info["x"] == XMAX - 1, r.info
    r.step(LEFT, RIGHT)
    assert r.info["dx"] == 0 and r.info["x"] == XMAX - 1, r.info  # opposite directions cancel
    move(UP, "y", -1, YMIN, 0)
    assert r.info["lives"] == 2 and r.info["frame"] >= LIFE_FRAMES, r.info
    r.shot("05_top_right_corner")
    move(LEFT, "x", -1, XMIN, -1)
    move(DOWN, "y", +1, YMAX, 0)
    r.shot("06_bottom_left_corner")
    print(f"movement: 1 px/frame, x clamped to {XMIN}..{XMAX}, y to {YMIN}..{YMAX}, dx -1/0/+1 ok")

    # ---- lives and game over -------------------------------------------------
    while not r.terminated:
        r.step()
        assert r.info["frame"] < 2000
    assert r.info["game_over"] == 1 and r.info["lives"] == 0, r.info
    game_over_frame = r.info["frame"]
    print(f"lives: (frame counter, lives left) {r.lives_lost_at}; game over at frame {game_over_frame}")
    assert r.lives_lost_at == [(300, 2), (600, 1), (900, 0)], r.lives_lost_at
    assert r.traps["dying"] == DYING_START and r.traps["rest"] == 0 and r.traps["bonus"] == 16, r.traps
    assert game_over_frame == 3 * LIFE_FRAMES, game_over_frame
    r.step()
    assert colour_name(r.shot("07_game_over_red")) == "red"

    frozen = dict(r.info)
    for buttons in ((A,), (B,), (LEFT,), (RIGHT, DOWN), (SELECT,)):
        r.hold(10, *buttons)
    for key in ("score", "score_digits", "lives", "timer", "x", "y", "game_over"):
        assert r.info[key] == frozen[key], (key, frozen, r.info)
    assert r.traps["bonus"] == 16 and r.traps["dying"] == DYING_START, r.traps
    assert r.info["frame"] == frozen["frame"] + 50
    assert r.terminated

    # ---- restart -------------------------------------------------------------
    r.step(START)
    restart_frame = r.info["frame"]
    assert (r.info["score"], r.info["lives"], r.info["timer"], r.info["x"], r.info["y"], r.info["dx"], r.info["game_over"]) == (
        0, 3, LIFE_FRAMES, START_X, START_Y, 0, 0), r.info
    assert not r.terminated
    r.hold(3, START)  # held START does nothing while playing
    assert r.info["game_over"] == 0 and r.info["timer"] == LIFE_FRAMES - 3, r.info
    r.step()
    r.shot("08_after_restart")
    print(f"restart: START in game over restarts at frame {restart_frame} ok")

    # next life lost exactly 300 frames after the restart frame; hold START into game over
    while r.info["lives"] == 3:
        r.step()
    assert r.info["frame"] == restart_frame + LIFE_FRAMES, (restart_frame, r.info)
    while not r.terminated:
        r.step(START)
    r.hold(5, START)  # START still held from before: edge-triggered, no restart
    assert r.info["game_over"] == 1, r.info
    r.step()
    r.step(START)
    assert r.info["game_over"] == 0 and r.info["lives"] == 3, r.info
    print("restart is edge-triggered (START held into game over does not restart) ok")

    # ---- saturation (poke RAM through stable-retro, then hold B) --------------
    r.env.data.set_value("score", 65500)
    r.step(B, check=False)  # the poke itself shows up in this step's reward
    assert r.info["score"] == 65510 and r.info["score_digits"] == 65510, r.info
    r.hold(9, B)
    assert r.info["score"] == 65535 and r.info["score_digits"] == 65535, r.info
    ram = r.env.get_ram()
    assert list(ram[0x22:0x27]) == [6, 5, 5, 3, 5], list(ram[0x22:0x27])
    r.step()
    r.shot("09_score_65535")
    print("score saturates at 65535, digits bytes [6,5,5,3,5] ok")

    r.close()
    print(f"ALL CHECKS PASSED ({r.runs} emulator frames). Screenshots in {shots}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
