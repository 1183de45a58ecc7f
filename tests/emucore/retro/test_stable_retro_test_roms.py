"""stable-retro's ten homebrew test ROMs run identical in emucore and stable-retro: observation, RAM,
reward, info and flags at every one of 2,000 seeded random steps, with FILTERED and with ALL actions.

stable-retro runs in a subprocess (one emulator per process) while emucore runs here; the sides
exchange per-step digests. The ROMs are read from ``../shared/stable-retro-test-roms`` (never part
of this repository). Left out, as the README's differences explain: the NES cartridge's uninitialized
work RAM (emucore zeroes it, stable-retro shows heap bytes), the PC Engine demo's copies of pads 3-5
(stable-retro reads them past the end of its button array) and the 32X rows picodrive does not render.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import emucore
from emucore.host.emulator import Emulator
from tests.conftest import NES_ROM, ROOT
from tests.emucore.retro.stable_retro_trace import (
    PCE_PAD_BYTES,
    build_integrations,
    comparable_ram,
    game_name,
    trace,
)

pytestmark = pytest.mark.slow  # stable-retro parity: the test ROMs played in both

ROMS = ROOT.parent / "shared" / "stable-retro-test-roms"
STEPS = 2000
FIELDS = ["observation", "RAM", "reward", "info", "terminated", "truncated"]


@pytest.fixture(scope="module")
def integrations(tmp_path_factory) -> str:
    if not ROMS.is_dir():
        pytest.skip(f"stable-retro's test ROMs are not in {ROMS}")
    pytest.importorskip("stable_retro", reason="stable-retro is not installed")
    root = tmp_path_factory.mktemp("test-rom-integrations")
    build_integrations(ROMS, root)
    return str(root)


def _games() -> list[str]:
    if not ROMS.is_dir():
        return ["absent"]
    return [game_name(rom) for rom in sorted(ROMS.iterdir()) if rom.suffix != ".md" or rom.stem != "README"]


@pytest.mark.parametrize("mode", ["FILTERED", "ALL"])
@pytest.mark.parametrize("game", _games())
def test_identical_to_stable_retro(integrations, game, mode):
    seed = 7 + len(game) + len(mode)
    theirs_run = subprocess.Popen(
        ["timeout", "300", sys.executable, "-m", "tests.emucore.retro.stable_retro_trace",
         integrations, game, mode, str(STEPS), str(seed)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    ours = json.loads(json.dumps(trace(emucore, integrations, game, mode, STEPS, seed)))
    out, err = theirs_run.communicate()
    assert theirs_run.returncode == 0, f"stable-retro's run failed: {err[-2000:]}"
    theirs = json.loads(out)
    assert len(theirs) == len(ours) == STEPS + 1
    for step, (a, b) in enumerate(zip(theirs, ours)):
        differing = [name for name, x, y in zip(FIELDS, a, b) if x != y]
        assert not differing, f"{game} {mode}: {differing} differ at step {step}: {a} != {b}"


def test_nes_cartridge_ram_is_zeroed_and_deterministic():
    """fceumm's NROM board leaves its 8 KiB of work RAM as malloc returned it: emucore zeroes it."""
    rams = []
    for _ in range(2):
        with Emulator(NES_ROM) as emu:
            for _ in range(30):
                emu.step()
            rams.append(emu.get_ram().copy())
    assert rams[0].size == 2048 + 8192
    assert not rams[0][2048:].any()
    assert np.array_equal(rams[0], rams[1])


def test_pc_engine_pads_3_to_5_read_nothing(integrations):
    """The PC Engine demo copies pads 3-5 into RAM: with emucore they read no button, on every run."""
    game = next(g for g in _games() if g.endswith("-PCEngine"))
    rams = []
    for _ in range(2):
        emucore.data.Integrations.add_custom_path(integrations)
        env = emucore.make(game, inttype=emucore.data.Integrations.ALL)
        try:
            env.reset(seed=0)
            for _ in range(10):
                env.step(np.zeros(env.action_space.n, np.uint8))
            rams.append(env.get_ram().copy())
        finally:
            env.close()
    assert np.array_equal(rams[0], rams[1])
    assert not rams[0][PCE_PAD_BYTES[3:]].any()  # the first three are stack bytes
    assert len(comparable_ram(game, rams[0])) == rams[0].size - len(PCE_PAD_BYTES)
