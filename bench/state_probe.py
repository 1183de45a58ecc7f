"""What the state probe costs: the first load of a state from outside, versus a plain ``set_state``.

    .venv/bin/python bench/state_probe.py [--ballast-mb 1024]

Per core (Genesis, NES on fceumm and nestopia, Atari 2600 on stella), the median of:
- plain: ``set_state`` with the probe switched off (``EMUCORE_STATE_PROBE=0``);
- first load: ``set_state`` of a state never seen (a fork, the load and ``FRAMES`` frames in the child);
- known copy: a state probed before, as a new bytes object (hashed, found in the cache);
- same object: the state last loaded again (``env.reset``'s case: not even hashed);
- get_state: with the probe on (it hashes what it returns, to trust it) and off.
``--ballast-mb`` touches that much memory first: fork copies the page tables, so a big process (the
studio, a Ray worker) forks slower.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from atari_games import ale_rom  # this folder's scripts run with it on sys.path
from timing import median_seconds

from emucore import Emulator
from emucore.host import state_probe
from emucore.host.corefinder import find_library
from emucore.integration import read_state_file
from emucore.paths import integrations_dir

ROOT = Path(__file__).resolve().parent.parent


def cases(scratch: Path) -> list[tuple[str, Path, str, bytes | None]]:
    found = [
        ("Genesis", integrations_dir() / "StudioDemo-Genesis/rom.md", "genesis_plus_gx",
         read_state_file(integrations_dir() / "StudioDemo-Genesis/Start.state")),
        ("NES", integrations_dir() / "StudioDemo-Nes/rom.nes", "fceumm",
         read_state_file(integrations_dir() / "StudioDemo-Nes/Start.state")),
        ("NES", integrations_dir() / "StudioDemo-Nes/rom.nes", "nestopia", None),
    ]
    qbert = ale_rom("Qbert")
    if qbert is not None:
        found.append(("Atari 2600", Path(shutil.copy(qbert, scratch / "Qbert.a26")), "stella", None))
    return [case for case in found if find_library(case[2])]


def own_state(emulator: Emulator) -> bytes:
    """A state 300 frames in, as a file from outside would bring it (a copy, not get_state's object)."""
    emulator.run_frames(300)
    return bytes(bytearray(emulator.get_state()))


def measure(rom: Path, core: str, given: bytes | None) -> dict[str, float]:
    os.environ[state_probe.ENV_SWITCH] = "0"
    off = Emulator(rom, core=core)
    del os.environ[state_probe.ENV_SWITCH]
    on = Emulator(rom, core=core)
    try:
        assert on._probe.enabled and not off._probe.enabled
        state = given if given is not None else own_state(off)
        copies = [bytes(bytearray(state)) for _ in range(state_probe.RECENT + 4)]  # more than the identity memo
        fresh = [bytes(bytearray(state)) for _ in range(20)]  # new objects: the identity memo knows none
        turn = iter(range(10**9))

        def first_load() -> None:
            state_probe.forget_verdicts()
            on.set_state(fresh.pop())

        def known_copy() -> None:
            on.set_state(copies[next(turn) % len(copies)])

        on.set_state(copies[0])
        started = state_probe.probes_run
        figures = {
            "plain": 1e6 * median_seconds(lambda: off.set_state(state), 300),
            "first load": 1e6 * median_seconds(first_load, 20),
            "known copy": 1e6 * median_seconds(known_copy, 100),
            "same object": 1e6 * median_seconds(lambda: on.set_state(state), 300),
            "get_state off": 1e6 * median_seconds(off.get_state, 100),
            "get_state on": 1e6 * median_seconds(on.get_state, 100),
            "bytes": len(state),
        }
        assert state_probe.probes_run - started == 20, "only the first loads fork"
        return figures
    finally:
        on.close()
        off.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ballast-mb", type=int, default=0, help="memory to touch first (a bigger process)")
    args = parser.parse_args()
    ballast = bytearray(os.urandom(1 << 20) * args.ballast_mb) if args.ballast_mb else None
    print(f"probe: load + {state_probe.FRAMES} frames in a forked child; process "
          f"{state_probe._mapped_bytes() >> 20} MiB mapped, ballast {args.ballast_mb} MiB")
    print(f"{'system':<11}{'core':<17}{'state':>9}{'plain':>9}{'first load':>12}{'ratio':>7}"
          f"{'known copy':>12}{'same obj':>10}{'get_state off/on':>18}")
    with tempfile.TemporaryDirectory() as scratch:
        for system, rom, core, given in cases(Path(scratch)):
            f = measure(rom, core, given)
            print(f"{system:<11}{core:<17}{int(f['bytes']):>9}{f['plain']:>7.0f}us{f['first load']:>10.0f}us"
                  f"{f['first load'] / f['plain']:>6.0f}x{f['known copy']:>10.0f}us{f['same object']:>8.0f}us"
                  f"{f['get_state off']:>9.0f}/{f['get_state on']:.0f}us")
    del ballast


if __name__ == "__main__":
    main()
