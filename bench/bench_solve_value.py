"""solve_value: time for 4 checkpoints over 64 KiB of Genesis work RAM, every type, side by side
with the manual way it replaces (a MemorySearch with one ``equal`` refinement per checkpoint
over the system's 15 search types, which finds no scale, bias or width evidence).

Both start from the same four snapshots (the homebrew Genesis game, score at four moments), so
the figures are the search work alone; "with states" adds loading the four states, which
is what a call with state bytes costs on this core. Prints medians in ms and the ratio.

    python bench/bench_solve_value.py [--repeat 21]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from timing import median_seconds  # this folder's scripts run with it on sys.path

from emucore import Emulator
from emucore.assist import solve_value
from emucore.paths import integrations_dir
from emucore.search import MemorySearch
from emucore.search.ops import refine_set
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import snapshots_of

ROOT = Path(__file__).resolve().parent.parent
GENESIS_ROM = integrations_dir() / "StudioDemo-Genesis" / "rom.md"
B, C = 1 << 0, 1 << 8


def checkpoints(emulator: Emulator) -> list[tuple[bytes, int]]:
    out = []
    for mask, frames in ((B, 12), (C, 30), (B | C, 20), (C, 400)):
        emulator.set_button_mask(mask)
        for _ in range(frames):
            emulator.step()
        out.append((emulator.get_state(), emulator.read(0xFF0000, ">u4")))
    emulator.set_button_mask(0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    emulator = Emulator(GENESIS_ROM)
    pairs = checkpoints(emulator)
    snaps = list(snapshots_of(emulator, [s for s, _ in pairs], "checkpoint"))
    given = [(snap, f"{v:08d}") for snap, (_, v) in zip(snaps, pairs)]

    def manual() -> None:
        search = MemorySearch(emulator)
        cset = search.candidates_set
        for (snap, _), (_, value) in zip(fresh(), pairs):
            cset = refine_set(cset, search.search_types, "equal", value, snap)

    def fresh() -> list[tuple[Snapshot, str]]:  # new buffers: decodes are cached per buffer
        return [(Snapshot(snap.layout, snap.buf.copy()), shown) for snap, shown in given]

    found = solve_value(emulator, given)
    print(f"scores {[v for _, v in pairs]}; best {found[0].describe()}; {len(found)} candidates")
    solve = 1000 * median_seconds(lambda: solve_value(emulator, fresh()), args.repeat)
    with_states = 1000 * median_seconds(lambda: solve_value(emulator, [(s, f"{v:08d}") for s, v in pairs]), args.repeat)
    equal = 1000 * median_seconds(manual, args.repeat)
    flat = [(Snapshot(snap.layout, snap.buf.copy()), 0) for snap, _ in given]
    worst = 1000 * median_seconds(lambda: solve_value(emulator, flat), max(3, args.repeat // 4))
    print(f"solve_value, 4 snapshots, 64 KiB, all types: {solve:.1f} ms")
    print(f"solve_value, 4 states (loaded and restored):  {with_states:.1f} ms")
    print(f"MemorySearch, 4 'equal' refinements, 15 types: {equal:.1f} ms")
    print(f"ratio solve_value / manual refinements: {solve / equal:.2f}")
    print(f"worst case, shown 0 at every checkpoint (most of RAM fits): {worst:.1f} ms")
    emulator.close()


if __name__ == "__main__":
    main()
