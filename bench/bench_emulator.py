"""Emulator.step() against stable-retro's RetroEmulator.step(), and emulators on threads.

Airstriker-Genesis-v0 from state Level1 with random buttons; the two hosts alternate in
chunks within one run so that machine noise hits both alike. Prints frames/s and the ratio.

    python bench/bench_emulator.py [--rounds 30] [--chunk 500]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import threading
import time
from pathlib import Path

import numpy as np

from emucore import Emulator
from emucore.host.corefinder import stable_retro_cores_dir


def airstriker() -> Path:
    cores = stable_retro_cores_dir()
    if cores is None:
        raise SystemExit("stable-retro is not installed (pip install stable-retro)")
    return cores.parent / "data" / "stable" / "Airstriker-Genesis-v0"


def timed_steps(emu, masks: np.ndarray) -> float:
    start = time.perf_counter()
    for mask in masks:
        emu.set_button_mask(mask)
        emu.step()
    return len(masks) / (time.perf_counter() - start)


def single(rounds: int, chunk: int) -> None:
    import stable_retro

    folder = airstriker()
    state = gzip.decompress((folder / "Level1.state").read_bytes())
    theirs = stable_retro.RetroEmulator(str(folder / "rom.md"))
    theirs.set_state(state)
    ours = Emulator(folder / "rom.md")
    ours.set_state(state)
    rng = np.random.default_rng(0)
    rates: dict[str, list[float]] = {"stable-retro": [], "emucore": []}
    hosts = [("stable-retro", theirs), ("emucore", ours)]
    for round_index in range(rounds):
        masks = rng.integers(0, 2, (chunk, 12), dtype=np.uint8)
        for name, emu in hosts if round_index % 2 == 0 else hosts[::-1]:  # ABBA order cancels drift
            rates[name].append(timed_steps(emu, masks))
    sr, us = statistics.median(rates["stable-retro"]), statistics.median(rates["emucore"])
    print(f"step() frames/s, median of {rounds} x {chunk}: stable-retro {sr:.0f}, emucore {us:.0f}, "
          f"ratio {us / sr:.3f}")
    ours.close()


def threaded(counts: list[int], frames: int) -> None:
    folder = airstriker()
    for count in counts:
        emulators = [Emulator(folder / "rom.md") for _ in range(count)]
        for emu in emulators:
            emu.load_state_file(folder / "Level1.state")
        masks = np.random.default_rng(1).integers(0, 2, (frames, 12), dtype=np.uint8)
        threads = [threading.Thread(target=timed_steps, args=(emu, masks)) for emu in emulators]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        print(f"{count} emulator(s) on threads: {count * frames / elapsed:.0f} frames/s in aggregate")
        for emu in emulators:
            emu.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--thread-frames", type=int, default=3000)
    args = parser.parse_args()
    single(args.rounds, args.chunk)
    threaded([1, 2, 4], args.thread_frames)


if __name__ == "__main__":
    main()
