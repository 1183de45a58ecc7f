"""The Emulator on real cores: API, determinism, states, several instances, threads."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading

import numpy as np
import pytest

from emucore import Emulator, StateError
from tests.conftest import ROOT, require_core

START, LEFT, RIGHT, A_NES = 1 << 3, 1 << 6, 1 << 7, 1 << 8


def random_masks(seed: int, count: int, buttons: int = 12) -> list[int]:
    rng = np.random.default_rng(seed)
    return [int(m) for m in rng.integers(0, 1 << buttons, count)]


def trace(emu: Emulator, masks: list[int]) -> list[tuple[bytes, bytes]]:
    """Frames and the console's RAM after each step.

    SYSTEM_RAM rather than get_ram(): for a cartridge without WRAM, fceumm's memory map points
    0x6000-0x7FFF at heap memory holding pointers, which differs between instances.
    """
    out = []
    for mask in masks:
        emu.set_button_mask(mask)
        emu.step()
        out.append((emu.get_screen().tobytes(), emu.memory_regions()["system_ram"].tobytes()))
    return out


def test_airstriker_api(airstriker):
    with Emulator(airstriker / "rom.md") as emu:
        assert emu.system.name == "Genesis" and emu.core.lib == "genesis_plus_gx"
        assert emu.get_resolution() == (320, 224)
        assert emu.get_screen().shape == (224, 320, 3) and emu.get_screen().dtype == np.uint8
        assert emu.get_screen_rate() == pytest.approx(59.922743, abs=1e-5)
        assert emu.get_audio_rate() == 44100
        emu.load_state_file(airstriker / "Level1.state")
        emu.step()
        audio = emu.get_audio()
        assert audio.dtype == np.int16 and audio.shape[1] == 2 and 730 <= len(audio) <= 740
        assert emu.get_ram().shape == (65536,)
        assert emu.pixel_format == "RGB565"
        assert emu.frame_size == (320, 224)
        regions = emu.memory_regions()
        assert regions["system_ram"].size == 65536
        # get_ram() holds raw words; typed reads go through the byte-swap overlay
        ram = emu.get_ram()
        assert emu.read(0xFF0010, "|u1") == ram[0x11]
        assert emu.read(0xFF0010, ">u2") == int(ram[0x11]) << 8 | int(ram[0x10])


def test_memory_region_is_a_zero_copy_view(airstriker):
    with Emulator(airstriker / "rom.md") as emu:
        view = emu.memory_regions()["system_ram"]
        emu.write(0xFF0100, ">u2", 0xBEEF)
        assert view[0x100] == 0xEF and view[0x101] == 0xBE
        view[0x102] = 0x42
        assert emu.read(0xFF0103, "|u1") == 0x42


def test_determinism_in_process(airstriker):
    masks = random_masks(3, 120)
    with Emulator(airstriker / "rom.md") as emu:
        emu.load_state_file(airstriker / "Level1.state")
        start = emu.get_state()
        first = trace(emu, masks)
        emu.set_state(start)
        assert trace(emu, masks) == first


def test_state_round_trip_mid_run(nes_rom):
    with Emulator(nes_rom) as emu:
        trace(emu, random_masks(1, 60, 9))
        state = emu.get_state()
        masks = random_masks(2, 60, 9)
        expected = trace(emu, masks)
        emu.set_state(state)
        assert trace(emu, masks) == expected


# fceumm maps 0x6000-0x7FFF of a cartridge without WRAM onto heap memory that holds pointers,
# so only the console's own 2 KiB (SYSTEM_RAM) and the frames can be compared across processes.
TRACE_SCRIPT = """
import hashlib, sys
import numpy as np
from emucore import Emulator
emu = Emulator(sys.argv[1], core=sys.argv[2])
digest = hashlib.sha256()
for mask in np.random.default_rng(7).integers(0, 512, 200):
    emu.set_button_mask(int(mask)); emu.step()
    digest.update(emu.get_screen().tobytes())
    digest.update(emu.memory_regions()["system_ram"].tobytes())
print(digest.hexdigest())
"""


def test_determinism_across_processes(nes_rom):
    digests = {
        subprocess.run(
            [sys.executable, "-c", TRACE_SCRIPT, str(nes_rom), "fceumm"],
            capture_output=True, text=True, check=True, cwd=ROOT,
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(digests) == 1
    with Emulator(nes_rom, core="fceumm") as emu:
        digest = hashlib.sha256()
        for mask in np.random.default_rng(7).integers(0, 512, 200):
            emu.set_button_mask(int(mask))
            emu.step()
            digest.update(emu.get_screen().tobytes())
            digest.update(emu.memory_regions()["system_ram"].tobytes())
        assert digests == {digest.hexdigest()}


def in_game_state(airstriker, core: str) -> bytes:
    """A state inside Airstriker's gameplay: Level1, or past the title by pressing START."""
    with Emulator(airstriker / "rom.md", core=core) as emu:
        if core == "genesis_plus_gx":
            emu.load_state_file(airstriker / "Level1.state")
        else:
            for i in range(600):
                emu.set_button_mask(START if (i // 10) % 2 else 0)
                emu.step()
        return emu.get_state()


@pytest.mark.parametrize("core", ["genesis_plus_gx", "picodrive"])
def test_two_emulators_of_one_core_are_independent(airstriker, core):
    require_core(core)
    masks_a, masks_b = random_masks(10, 150), random_masks(11, 150)
    rom = airstriker / "rom.md"
    state = in_game_state(airstriker, core)
    alone = []
    for masks in (masks_a, masks_b):
        with Emulator(rom, core=core) as solo:
            solo.set_state(state)
            alone.append(trace(solo, masks))

    a, b = Emulator(rom, core=core), Emulator(rom, core=core)
    try:
        a.set_state(state)
        b.set_state(state)
        together_a, together_b = [], []
        for mask_a, mask_b in zip(masks_a, masks_b):
            together_a += trace(a, [mask_a])
            together_b += trace(b, [mask_b])
    finally:
        a.close()
        b.close()
    assert together_a == alone[0] and together_b == alone[1]
    assert together_a[-1][1] != together_b[-1][1]


def test_emulators_on_threads_match_sequential_runs(nes_rom):
    masks = [random_masks(seed, 300, 9) for seed in (20, 21, 22)]
    expected = []
    for m in masks:
        with Emulator(nes_rom) as emu:
            expected.append(trace(emu, m))
    emulators = [Emulator(nes_rom) for _ in masks]
    results: list[list] = [[] for _ in masks]

    def run(i: int) -> None:
        results[i] = trace(emulators[i], masks[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(masks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for emu in emulators:
        emu.close()
    assert results == expected


def test_button_mask_forms_agree(nes_rom):
    with Emulator(nes_rom) as a, Emulator(nes_rom) as b:
        flags = np.zeros(9, dtype=np.uint8)
        flags[7] = flags[8] = 1
        a.set_button_mask(flags)
        b.set_button_mask(RIGHT | A_NES)
        assert a.get_button_mask() == b.get_button_mask() == RIGHT | A_NES
        with pytest.raises(ValueError):
            a.set_button_mask(np.ones(17))
        with pytest.raises(ValueError):
            a.set_button_mask(0, player=2)


def test_close_twice_and_use_after_close(nes_rom):
    emu = Emulator(nes_rom)
    emu.close()
    emu.close()
    with pytest.raises(RuntimeError, match="closed"):
        emu.get_state()


def test_state_file_round_trip(tmp_path, nes_rom):
    with Emulator(nes_rom) as emu:
        trace(emu, random_masks(4, 30, 9))
        emu.save_state_file(tmp_path / "x.state")
        ram = emu.get_ram()
        trace(emu, random_masks(5, 30, 9))
        emu.load_state_file(tmp_path / "x.state")
        assert np.array_equal(emu.get_ram(), ram)


def test_reset_restarts_the_game(nes_rom):
    with Emulator(nes_rom) as emu:
        for _ in range(30):
            emu.step()
        assert emu.read(16, "<u2") > 0
        emu.reset()
        emu.step()
        assert emu.read(16, "<u2") == 0


def test_callback_exceptions_are_reraised_after_the_core_returns(nes_rom):
    from emucore.libretro.core_session import CoreSession

    class Boom(Exception):
        pass

    def sink(level: int, text: str) -> None:
        if "PRG ROM" in text:
            raise Boom(text)

    require_core("fceumm")
    from emucore.host.corefinder import find_core

    session = CoreSession(find_core("Nes", "fceumm").path, log_sink=sink)
    try:
        with pytest.raises(Boom):
            session.load_game(nes_rom, nes_rom.read_bytes())
        session.check()  # nothing left over
    finally:
        session.close()


def test_states_are_rejected_across_cores(nes_rom):
    require_core("nestopia")
    with Emulator(nes_rom, core="fceumm") as fceumm, Emulator(nes_rom, core="nestopia") as nestopia:
        with pytest.raises(StateError):
            nestopia.set_state(fceumm.get_state())
        with pytest.raises(StateError):
            fceumm.set_state(nestopia.get_state())


def test_core_options_follow_the_compat_table_then_declared_defaults(airstriker, nes_rom):
    with Emulator(airstriker / "rom.md") as emu:
        options = emu.session.options
        assert options.declared["genesis_plus_gx_addr_error"].default == "enabled"
        assert options.answer("genesis_plus_gx_addr_error") == "disabled"  # stable-retro parity
        assert len(options.declared) == 19 and all(options.answer(k) for k in options.declared)
    require_core("nestopia")
    with Emulator(nes_rom, core="nestopia") as emu:  # declares its options through v2 _INTL
        options = emu.session.options
        assert options.declared and all(o.values for o in options.declared.values())
        assert all(options.answer(k) == o.default for k, o in options.declared.items())


def test_user_option_override(nes_rom):
    with Emulator(nes_rom, options={"fceumm_palette": "nescap"}) as emu:
        assert emu.session.options.answer("fceumm_palette") == "nescap"
        with pytest.raises(ValueError, match="takes one of"):
            emu.session.options.set_override("fceumm_palette", "no-such-palette")
