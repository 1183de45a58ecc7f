"""Writes each homebrew integration's Start.state with emucore's own host.

The state is taken at the end of the last boot frame: the first frame after loading it
(stable-retro's reset frame) is the game's first frame, which already reads the pad.
Run from the repository root: ``python homebrew/make_start_states.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from emucore import Emulator
from emucore.paths import integrations_dir

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"StudioDemo-Genesis": ("rom.md", "genesis_plus_gx"), "StudioDemo-Nes": ("rom.nes", "fceumm")}


def main() -> None:
    for name, (rom, core) in GAMES.items():
        folder = integrations_dir() / name
        frame = json.loads((folder / "data.json").read_text())["info"]["frame"]
        with Emulator(folder / rom, core=core) as emu:
            for _ in range(60):
                before = emu.get_state()
                emu.step()
                if emu.read(frame["address"], frame["type"]) == 1:
                    emu.set_state(before)
                    break
            else:
                raise SystemExit(f"{name}: the game did not start within 60 frames")
            emu.save_state_file(folder / "Start.state")
            print(f"{name}: Start.state after power-on frame {emu.frame_count - 1} on {core}")


if __name__ == "__main__":
    main()
