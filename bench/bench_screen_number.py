"""ScreenNumber on real games: how often it reads the score right, and how fast.

Each game is played with a seeded random policy (``env.action_space.seed(0)``, each action held 4 frames,
SELECT/RESET/START/MODE never pressed, the fire button pressed half the time; Freeway presses UP most of
the time), a new episode started whenever one ends. Every other frame is kept and read. The ground truth is
the score variable of the game's data.json, read from RAM through the env's ``info`` each step.

- 3 examples are picked automatically among the frames kept: in each third of the play, the frame whose
  score is steady (unchanged over the HUD's lag window and 2 frames after) with the most distinct digits.
  ``ScreenNumber.locate`` on them (Airstriker: ``ScreenNumber.learn`` with a box around the score only, as
  its Hi score draws the same value in a first game); a ScreenNumberError is reported in the table.
- A read is right when it equals the RAM score of any of the last K frames (the HUD draws the score a frame
  or more late: K is given per game), wrong when it is another number, unreadable when ``read`` gives None.
  Frames where the game does not draw the number (the NES demo's blinking score, told from its frame
  counter) are counted apart, and a number read there is counted wrong.
- The second row of a game: after asking "which digit is this?" once for each shape ``reader.unseen``
  lists, answered from the RAM score as a person reading the screen would (the number's drawn cells, left
  to right, are the score's digits; no answer when the score is changing in the lag window or the drawn
  cells do not match its digits). ``asked`` counts the questions, ``taught`` the answers the reader took.
  The shapes are taken from the same frames that are then read again.
- Times: ``locate`` (or ``learn``) in milliseconds and ``read`` in microseconds per frame, medians of
  ``--rounds`` rounds over all the frames kept.

    python bench/bench_screen_number.py [--frames 3000] [--games nes,airstriker,Breakout,...] [--rounds 3]

Atari games are ale-py's ROMs with stable-retro's integrations (bench/atari_games.py); Airstriker is
stable-retro's Genesis game. Games whose files are missing are skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from atari_games import open_game  # this folder's scripts run with it on sys.path
from timing import median_seconds

import emucore
from emucore.assist import ScreenNumber, ScreenNumberError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.conftest, for Airstriker's folder

HOLD, FIRE_P = 4, 0.5
BANNED = ("SELECT", "RESET", "START", "MODE")
FIRE = ("BUTTON", "B", "A")


@dataclass
class Game:
    name: str
    open: Callable[[], Any]
    score: Callable[[dict], int] = lambda info: int(info["score"])
    shown: Callable[[int], str] = str  # the score as the HUD draws it
    lag: int = 4  # K: a read is right if it is the score of one of the last K frames
    box: tuple[int, int, int, int] | None = None  # learn() with this box instead of locate()
    drawn: Callable[[dict], bool] | None = None  # False where the game draws no number (if we can tell)
    up: float = 0.0  # probability of pressing UP (Freeway)
    draws_after: int | None = None  # the HUD draws the score exactly this many frames late (when known)
    note: str = ""


def _nes() -> Any:
    return emucore.make("StudioDemo-Nes", inttype=emucore.data.Integrations.ALL)


def _airstriker() -> Any:
    from tests.conftest import airstriker_folder

    folder = airstriker_folder()
    return None if folder is None else emucore.make(str(folder), inttype=emucore.data.Integrations.ALL)


def _atari(name: str) -> Callable[[], Any]:
    return lambda: open_game(name)


GAMES = {
    "nes": Game("StudioDemo-Nes", _nes, shown=lambda s: f"{s:05d}", draws_after=1,
                drawn=lambda info: (info["frame"] - 1) & 31 < 26, note="blinks; TOP copy below"),
    "airstriker": Game("Airstriker-Genesis", _airstriker, lag=30, box=(150, 10, 40, 14), note="learn(box)"),
    "Breakout": Game("Breakout", _atari("Breakout"), shown=lambda s: f"{s:03d}"),
    "Seaquest": Game("Seaquest", _atari("Seaquest")),
    "MsPacman": Game("MsPacman", _atari("MsPacman")),
    "Asteroids": Game("Asteroids", _atari("Asteroids"), shown=lambda s: f"{s}0" if s else "0",
                      note="RAM holds score/10"),
    "SpaceInvaders": Game("SpaceInvaders", _atari("SpaceInvaders"),
                          score=lambda info: int(info["scoreHi"]) * 100 + int(info["scoreLo"]),
                          shown=lambda s: f"{s:04d}"),
    "Freeway": Game("Freeway", _atari("Freeway"), up=0.9),
}


@dataclass
class Play:
    frames: list[np.ndarray] = field(default_factory=list)  # every other frame
    at: list[int] = field(default_factory=list)  # the step of each frame kept
    scores: list[int] = field(default_factory=list)  # every step's RAM score
    reset_scores: dict[int, int] = field(default_factory=dict)  # step -> the score of the reset before it
    drawn: list[bool | None] = field(default_factory=list)  # per frame kept
    episodes: int = 1


def play(game: Game, env: Any, steps: int) -> Play:
    out = Play()
    env.reset(seed=0)
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    banned = [i for i, b in enumerate(env.buttons) if b in BANNED]
    fire = [i for i, b in enumerate(env.buttons) if b in FIRE][:1]
    up = [i for i, b in enumerate(env.buttons) if b == "UP"]
    action = None
    for step in range(steps):
        if step % HOLD == 0:
            action = env.action_space.sample()
            action[banned] = 0
            action[fire] = rng.random() < FIRE_P
            if game.up:
                action[up] = rng.random() < game.up
        obs, _, terminated, truncated, info = env.step(action)
        out.scores.append(game.score(info))
        if step % 2:
            out.frames.append(obs.copy())
            out.at.append(step)
            out.drawn.append(None if game.drawn is None else bool(game.drawn(info)))
        if terminated or truncated:
            _, info = env.reset()
            try:
                out.reset_scores[step + 1] = game.score(info)
            except KeyError:  # reset's info carries no variables: a new game starts at 0
                out.reset_scores[step + 1] = 0
            out.episodes += 1
    return out


def window(game: Game, p: Play, step: int, after: int = 0) -> list[int]:
    """The scores the HUD may draw at ``step``: those of the last K frames (and of a reset among them)."""
    start = max(0, step - game.lag + 1)
    resets = [p.reset_scores[s] for s in range(start, step + 1) if s in p.reset_scores]
    return resets + p.scores[start:step + 1 + after]


def examples(game: Game, p: Play) -> list[int]:
    """Indices (into p.frames) of 3 frames with a steady score and the most distinct digits, one per third."""
    chosen = []
    n = len(p.frames)
    for third in range(3):
        best, key = None, None
        for i in range(third * n // 3, (third + 1) * n // 3):
            w = window(game, p, p.at[i], after=2)
            if len(set(w)) != 1 or p.drawn[i] is False:
                continue
            text = game.shown(w[0])
            k = (len(set(text)), w[0])
            if key is None or k > key:
                best, key = i, k
        if best is not None:
            chosen.append(best)
    return chosen


def tally(game: Game, reader: ScreenNumber, p: Play) -> dict[str, int]:
    counts = dict(right=0, unreadable=0, wrong=0, blank=0)
    for i, frame in enumerate(p.frames):
        got = reader.read(frame)
        if p.drawn[i] is False:
            counts["blank"] += 1
            counts["wrong"] += got is not None
            continue
        if got is None:
            counts["unreadable"] += 1
        elif got in {game.shown(s) for s in window(game, p, p.at[i])}:
            counts["right"] += 1
        else:
            counts["wrong"] += 1
    return counts


def answer(game: Game, reader: ScreenNumber, p: Play, index: int, cell: int) -> str | None:
    """The digit a person reading the screen would give for ``cell`` of frame ``index`` (from RAM)."""
    if p.drawn[index] is False:
        return None
    step = p.at[index]
    if game.draws_after is not None and step >= game.draws_after and step not in p.reset_scores:
        w = [p.scores[step - game.draws_after]]
    else:
        w = window(game, p, step)
    if len(set(w)) != 1:
        return None
    text = game.shown(w[0])
    drawn = [c for c, char in enumerate(reader.cells_read(p.frames[index])) if char != " "]
    if len(drawn) != len(text) or drawn != list(range(drawn[0], drawn[0] + len(drawn))) or cell not in drawn:
        return None
    return text[drawn.index(cell)]


def bench(key: str, steps: int, rounds: int) -> list[dict[str, Any]]:
    game = GAMES[key]
    env = game.open()
    if env is None:
        return [dict(game=game.name, error="files missing: skipped")]
    try:
        p = play(game, env, steps)
    finally:
        env.close()
    picked = examples(game, p)
    shown = [game.shown(p.scores[p.at[i]]) for i in picked]
    base = dict(game=game.name, lag=game.lag, frames=len(p.frames), episodes=p.episodes,
                examples=" ".join(shown), note=game.note)
    pairs = [(p.frames[i], s) for i, s in zip(picked, shown)]

    def make() -> ScreenNumber:
        return ScreenNumber.learn(pairs, game.box) if game.box else ScreenNumber.locate(pairs)

    try:
        reader = make()
    except ScreenNumberError as error:
        if not error.boxes:
            return [dict(base, error=f"ScreenNumberError: {str(error).splitlines()[0][:120]}")]
        # drawn alike in several places (a top score, a second player's): in the studio the person then
        # draws a box around theirs; here, the first place offered (the top left one)
        box = error.boxes[0]
        base["note"] = (base["note"] + "; " if base["note"] else "") + f"{len(error.boxes)} places alike: box {box}"

        def make() -> ScreenNumber:
            return ScreenNumber.learn(pairs, box)

        reader = make()
    locate_ms = median_seconds(make, rounds) * 1e3
    read_us = median_seconds(lambda: [reader.read(f) for f in p.frames], rounds) * 1e6 / len(p.frames)
    first = dict(base, stage="3 examples", glyphs=reader.glyphs, box=reader.box, locate_ms=locate_ms,
                 read_us=read_us, asked=0, taught=0, **tally(game, reader, p))
    asked = taught = 0
    for unseen in reader.unseen(p.frames, limit=1000):
        asked += 1
        # a person answers looking at the frame; here, at the first place the score held still
        digit = next((d for d in (answer(game, reader, p, i, c) for i, c in unseen.seen) if d is not None), None)
        if digit is None or not digit.isdigit():
            continue
        try:
            reader.teach(p.frames[unseen.frame], unseen.cell, digit)
            taught += 1
        except ScreenNumberError:
            pass
    second = dict(base, stage="+ taught", glyphs=reader.glyphs, box=reader.box, locate_ms=locate_ms,
                  read_us=read_us, asked=asked, taught=taught, **tally(game, reader, p))
    return [first, second]


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table(rows: list[dict[str, Any]]) -> str:
    head = ("| game | K | frames read | stage | examples | glyphs | right | unreadable | wrong | not drawn"
            " | asked / taught | locate ms | read µs/frame |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['game']} | {r.get('lag', '')} | {r.get('frames', '')} | - | {r.get('examples', '')}"
                         f" | {r['error']} | | | | | | | |")
            continue
        shown = r["frames"] - r["blank"]
        lines.append(
            f"| {r['game']} | {r['lag']} | {r['frames']} | {r['stage']} | {r['examples']} | {r['glyphs']}"
            f" | {pct(r['right'], shown)} ({r['right']}) | {pct(r['unreadable'], shown)} ({r['unreadable']})"
            f" | {pct(r['wrong'], r['frames'])} ({r['wrong']}) | {r['blank'] or '-'}"
            f" | {r['asked']} / {r['taught']} | {r['locate_ms']:.2f} | {r['read_us']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=3000, help="frames played per game (every other one is read)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, of {','.join(GAMES)}")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (medians)")
    args = parser.parse_args()
    rows = []
    for key in args.games.split(","):
        start = time.perf_counter()
        got = bench(key.strip(), args.frames, args.rounds)
        rows += got
        extra = "; ".join(f"{r['stage']}: box {r['box']}" for r in got if "box" in r)
        print(f"{key}: {time.perf_counter() - start:.1f}s, {got[0].get('episodes', '?')} episodes; {extra}",
              file=sys.stderr)
    print(table(rows))
    print("\nright and unreadable: of the frames where the number is drawn; wrong: of all frames read.")


if __name__ == "__main__":
    main()
