"""Memory search: time of one refinement (snapshot included) over 2, 64 and 128 KiB, all 44 types.

Each refinement starts from the full candidate set (every address x every type), the worst
case: later refinements work on fewer candidates. Memory: the NES and Genesis homebrew games
played with random buttons (real cores), and synthetic memory with the Genesis overlay, where a
given share of the bytes changes between snapshots. Prints the median and the worst time (ms).

    python bench/bench_search.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from emucore import Emulator
from emucore.host.memory import AddressSpace, Block
from emucore.paths import integrations_dir
from emucore.search import DEFAULT_TYPES, MemorySearch

ROOT = Path(__file__).resolve().parent.parent
CASES = [("unchanged", None), ("changed", None), ("increased", None), ("decreased-by", 1),
         ("equal", 3), ("less-than", 1000)]


class Synthetic:
    """An emulator stand-in: one block of random bytes, a share of which changes per frame."""

    def __init__(self, size: int, changing: float, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.data = self.rng.integers(0, 256, size, dtype=np.uint8)
        self.memory = AddressSpace([Block(0xFF0000, self.data)], ("=", ">", 2))
        self.system = None
        self.changing = changing

    def advance(self) -> None:
        where = self.rng.integers(0, len(self.data), max(1, int(len(self.data) * self.changing)))
        self.data[where] += self.rng.integers(1, 4, len(where)).astype(np.uint8)


class Game:
    """A homebrew game played with random buttons for a few frames per step."""

    def __init__(self, rom: Path, frames: int = 10):
        self.emulator = Emulator(rom)
        self.emulator.run_frames(30)
        self.rng = np.random.default_rng(0)
        self.frames = frames
        self.memory, self.system = self.emulator.memory, self.emulator.system

    def advance(self) -> None:
        self.emulator.set_button_mask(int(self.rng.choice([0, 1, 1 << 6, 1 << 7, 1 << 8])))
        for _ in range(self.frames):
            self.emulator.step()


def time_refinement(source, op: str, value: int | None, repeat: int, advance: Callable[[], None]) -> list[float]:
    target = source.emulator if isinstance(source, Game) else source
    times = []
    for _ in range(repeat):
        search = MemorySearch(target, DEFAULT_TYPES)
        advance()
        began = time.perf_counter()
        search.refine(op, value)
        times.append((time.perf_counter() - began) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    sources = [
        ("NES homebrew (2 KiB RAM + 8 KiB WRAM blocks)", Game(integrations_dir() / "StudioDemo-Nes/rom.nes")),
        ("synthetic 2 KiB, 1% of bytes change", Synthetic(2 * 1024, 0.01)),
        ("Genesis homebrew (64 KiB)", Game(integrations_dir() / "StudioDemo-Genesis/rom.md")),
        ("synthetic 64 KiB, 1% change", Synthetic(64 * 1024, 0.01)),
        ("synthetic 128 KiB, 1% change", Synthetic(128 * 1024, 0.01)),
        ("synthetic 128 KiB, 10% change", Synthetic(128 * 1024, 0.10)),
        ("synthetic 128 KiB, every byte changes", Synthetic(128 * 1024, 1.0)),
    ]
    a = np.arange(128 * 1024, dtype=np.uint32)
    began = time.perf_counter()
    for _ in range(200):
        a * np.uint32(3) + a
    print(f"machine: a 128 Ki-element uint32 multiply-add takes {(time.perf_counter() - began) / 200 * 1e6:.0f} us")
    print(f"one refinement from every candidate, {len(DEFAULT_TYPES)} types; median / worst of {args.repeat}, ms")
    header = f"{'memory':46s}" + "".join(f"{op + ('' if v is None else f' {v}'):>17s}" for op, v in CASES)
    print(header)
    print("-" * len(header))
    for title, source in sources:
        cells = []
        for op, value in CASES:
            times = time_refinement(source, op, value, args.repeat, source.advance)
            cells.append(f"{statistics.median(times):7.2f} /{max(times):7.2f}")
        print(f"{title:46s}" + "".join(f"{c:>17s}" for c in cells))
        if isinstance(source, Game):
            source.emulator.close()


if __name__ == "__main__":
    main()
