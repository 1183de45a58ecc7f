"""One seeded random run of an env, as per-step digests, for stable-retro (in a subprocess) and emucore.

``python -m tests.emucore.retro.stable_retro_trace ROOT GAME MODE STEPS SEED`` prints the JSON trace of
stable-retro's env: stable-retro allows one emulator per process. Both sides build the same actions
from the same seed and digest the same things, so traces compare as lists.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

# ROM extension -> (system, an address in the system's RAM for the one data.json variable)
SYSTEMS = {
    ".md": ("Genesis", 0xFF0000), ".nes": ("Nes", 0), ".sfc": ("Snes", 0x7E0000), ".32x": ("32x", 0),
    ".gba": ("GbAdvance", 0x2000000), ".a26": ("Atari2600", 0x80), ".gg": ("GameGear", 0xC000),
    ".sms": ("Sms", 0xC000), ".pce": ("PCEngine", 0xF80000), ".gb": ("GameBoy", 0xC000),
}
# The PC Engine demo keeps what pads 3-5 read in these console RAM bytes. stable-retro answers the
# core's reads of ports 2-4 from past the end of its 2-player button array (its own pointers and
# padding), which differs from run to run; emucore answers 0 (README, differences).
PCE_PAD_BYTES = [0x1F3, 0x1F5, 0x1F7, 0x22A, 0x22B, 0x22C, 0x22F, 0x230, 0x231, 0x234, 0x235, 0x236,
                 0x683, 0x684, 0x685, 0x688, 0x689, 0x68A, 0x68D, 0x68E, 0x68F]
NES_CONSOLE_RAM = 2048
# picodrive renders 224 rows of the 32X's 240: stable-retro's rows 232-239 read past the core's frame
# buffer and change from run to run; emucore's rows 224-239 are zero.
RENDERED_32X_ROWS = 224


def game_name(rom: Path) -> str:
    return "".join(c for c in rom.stem if c.isalnum()) + "-" + SYSTEMS[rom.suffix][0]


def build_integrations(roms: Path, root: Path) -> list[str]:
    """One integration per test ROM under ``root`` (rom, rom.sha, data, scenario, metadata)."""
    games = []
    for rom in sorted(p for p in roms.iterdir() if p.suffix in SYSTEMS):
        folder = root / game_name(rom)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(rom, folder / f"rom{rom.suffix}")
        (folder / "rom.sha").write_text(hashlib.sha1(rom.read_bytes()).hexdigest())
        address = SYSTEMS[rom.suffix][1]
        (folder / "data.json").write_text(json.dumps({"info": {"v": {"address": address, "type": "|u1"}}}))
        (folder / "scenario.json").write_text(json.dumps({"reward": {"variables": {"v": {"reward": 1.0}}}}))
        (folder / "metadata.json").write_text("{}")
        games.append(folder.name)
    return games


def comparable_ram(game: str, ram: np.ndarray) -> bytes:
    """The RAM bytes both sides can agree on (NES: console RAM; PCE: all but the pads 3-5 bytes)."""
    if game.endswith("-Nes"):
        return ram[:NES_CONSOLE_RAM].tobytes()
    if game.endswith("-PCEngine"):
        return np.delete(ram, PCE_PAD_BYTES).tobytes()
    return ram.tobytes()


def comparable_obs(game: str, obs: np.ndarray) -> bytes:
    return (obs[:RENDERED_32X_ROWS] if game.endswith("-32x") else obs).tobytes()


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def trace(retro: ModuleType, root: str, game: str, mode: str, steps: int, seed: int) -> list[list]:
    """[obs digest, RAM digest, reward, info, terminated, truncated] for the reset and every step."""
    retro.data.Integrations.add_custom_path(root)
    extra = {"render_mode": None} if retro.__name__ == "stable_retro" else {}
    env = retro.make(game, inttype=retro.data.Integrations.ALL,
                     use_restricted_actions=getattr(retro.Actions, mode), **extra)
    try:
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        rows = [[_digest(comparable_obs(game, obs)), _digest(comparable_ram(game, env.get_ram())), 0.0, info,
                 False, False]]
        for _ in range(steps):
            obs, reward, terminated, truncated, info = env.step(rng.integers(0, 2, env.action_space.n))
            rows.append([_digest(comparable_obs(game, obs)), _digest(comparable_ram(game, env.get_ram())),
                         float(reward), info, bool(terminated), bool(truncated)])
        return rows
    finally:
        env.close()


if __name__ == "__main__":
    import stable_retro

    root_arg, game_arg, mode_arg, steps_arg, seed_arg = sys.argv[1:6]
    print(json.dumps(trace(stable_retro, root_arg, game_arg, mode_arg, int(steps_arg), int(seed_arg))))
