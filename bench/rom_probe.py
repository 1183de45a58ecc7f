"""What the ROM probe costs: the first open of a ROM, and a cached open in a new process, versus a plain one.

    .venv/bin/python -m bench.rom_probe [--repeat 10]

Per ROM (NES on fceumm, Genesis on genesis_plus_gx, Atari 2600 Qbert on stella), the median of
``Emulator(rom).close()`` in fresh processes (each timed inside its process, imports excluded), with:
- plain: the probe switched off (``EMUCORE_ROM_PROBE=0``);
- first open: an empty verdict cache (a fork, the load and ``FRAMES`` frames in the child);
- cached: the verdict on disk from an earlier process (a hash of the ROM and one small file read);
and, in one process, later opens (the verdict in memory) versus later plain opens.
Verdicts go to a scratch ``XDG_CACHE_HOME``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.atari_games import ale_rom
from emucore.host import rom_probe
from emucore.host.corefinder import find_library
from emucore.paths import integrations_dir

ROOT = Path(__file__).resolve().parent.parent

ONE_OPEN = """
import json, sys, time
from emucore import Emulator
from emucore.host import rom_probe
times = []
for _ in range(int(sys.argv[3])):
    start = time.perf_counter()
    Emulator(sys.argv[1], core=sys.argv[2]).close()
    times.append(time.perf_counter() - start)
print(json.dumps({"seconds": times, "probes": rom_probe.probes_run}))
"""


def open_in_new_process(rom: Path, core: str, cache: Path, probe: bool, opens: int = 1) -> tuple[list[float], int]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env[rom_probe.ENV_SWITCH] = "1" if probe else "0"
    done = subprocess.run([sys.executable, "-c", ONE_OPEN, str(rom), core, str(opens)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["seconds"], result["probes"]


def cases(scratch: Path) -> list[tuple[str, Path, str]]:
    found = [
        ("NES", integrations_dir() / "StudioDemo-Nes/rom.nes", "fceumm"),
        ("Genesis", integrations_dir() / "StudioDemo-Genesis/rom.md", "genesis_plus_gx"),
    ]
    qbert = ale_rom("Qbert")
    if qbert is not None:
        found.append(("Atari 2600", Path(shutil.copy(qbert, scratch / "Qbert.a26")), "stella"))
    return [case for case in found if find_library(case[2])]


def measure(rom: Path, core: str, scratch: Path, repeat: int) -> dict[str, float]:
    plain, first, cached = [], [], []
    for turn in range(repeat):
        cache = scratch / f"cache-{rom.stem}-{turn}"
        plain += open_in_new_process(rom, core, cache, probe=False)[0]
        seconds, probes = open_in_new_process(rom, core, cache, probe=True)
        assert probes == 1, "an empty cache: the first open forks"
        first += seconds
        seconds, probes = open_in_new_process(rom, core, cache, probe=True)
        assert probes == 0, "the verdict on disk: no fork"
        cached += seconds
    seconds, probes = open_in_new_process(rom, core, scratch / f"cache-{rom.stem}-memory", True, repeat + 1)
    assert probes == 1, "the verdict in memory: one fork in the process"
    again = open_in_new_process(rom, core, scratch / "unused", False, repeat + 1)[0]
    return {name: statistics.median(times) * 1e3 for name, times in
            (("plain", plain), ("first", first), ("cached", cached), ("memory", seconds[1:]), ("again", again[1:]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="processes per figure")
    args = parser.parse_args()
    print(f"probe: open + {rom_probe.FRAMES} frames in a forked child; median of {args.repeat} processes")
    print(f"{'system':<11}{'core':<17}{'plain':>9}{'first open':>12}{'ratio':>7}{'cached':>10}{'ratio':>7}"
          f"{'plain again':>13}{'in memory':>11}{'ratio':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        for system, rom, core in cases(Path(scratch)):
            f = measure(rom, core, Path(scratch), args.repeat)
            print(f"{system:<11}{core:<17}{f['plain']:>7.1f}ms{f['first']:>10.1f}ms{f['first'] / f['plain']:>6.2f}x"
                  f"{f['cached']:>8.1f}ms{f['cached'] / f['plain']:>6.2f}x"
                  f"{f['again']:>11.1f}ms{f['memory']:>9.1f}ms{f['memory'] / f['again']:>6.2f}x")


if __name__ == "__main__":
    main()
