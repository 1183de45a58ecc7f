"""The ROM probe: a ROM that crashes its core is a GameLoadError in a process that goes on.

What could crash the test process (the damaged 32X ROM on picodrive) runs in a subprocess with a timeout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from emucore import Emulator
from emucore.errors import GameLoadError, RomError
from emucore.host import probe_seal, rom_probe
from emucore.host.corefinder import find_library
from tests.conftest import GENESIS_ROM, NES_ROM, ROOT, play, require_core

ROMS = ROOT.parent / "shared" / "stable-retro-test-roms"
PALETTE_TECH = ROMS / "Palette-Tech-1-Demo.32x"

pytestmark = pytest.mark.skipif(not rom_probe.fork_probe.available(rom_probe.ENV_SWITCH),
                                reason="no os.fork: ROMs are not probed")


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    """Cache and config folders of the test's own, no verdict in memory (before and after) and no
    key warning given yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(rom_probe.ENV_SWITCH, raising=False)
    probe_seal._warned.clear()
    rom_probe.forget_verdicts()
    yield
    rom_probe.forget_verdicts()


def verdict_files(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "cache" / "emucore" / "rom-probe"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def damaged_32x(tmp_path: Path) -> Path:
    """The fuzzer's find: the 32X demo with its first 512 bytes replaced by one zero byte."""
    if not PALETTE_TECH.is_file():
        pytest.skip(f"stable-retro's 32X test ROM is not in {ROMS}")
    require_core("picodrive")
    path = tmp_path / "damaged.32x"
    path.write_bytes(b"\x00" + PALETTE_TECH.read_bytes()[0x200:])
    return path


def run_python(script: str, tmp_path: Path, *args: str) -> dict:
    """``script`` in a new process with the test's cache folder and a temp folder of its own; its JSON line."""
    temp = tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "TMPDIR": str(temp)}
    env.pop(rom_probe.ENV_SWITCH, None)
    done = subprocess.run(["timeout", "120", sys.executable, "-c", textwrap.dedent(script), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"the process died ({done.returncode}): {done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


OPEN_WITHOUT_STRUCTURE_CHECK = """
    import json, os, sys, tempfile
    from emucore import Emulator
    from emucore.errors import GameLoadError
    from emucore.host import rom_probe
    from emucore.host.rom import ROM_CHECKS
    ROM_CHECKS.pop("sega")  # the probe's case: a damage no structure check of ours knows
    found = {}
    for attempt in range(2):
        try:
            Emulator(sys.argv[1]).run_frames(10)
            found[attempt] = "opened"
        except GameLoadError as exc:
            found[attempt] = [type(exc).__name__, str(exc.path), exc.problem]
    left = sorted(os.listdir(tempfile.gettempdir()))
    print(json.dumps({"found": found, "probes": rom_probe.probes_run, "left": left}))
"""


def test_a_rom_that_crashes_its_core_is_a_game_load_error_and_the_process_goes_on(tmp_path):
    rom = damaged_32x(tmp_path)
    first = run_python(OPEN_WITHOUT_STRUCTURE_CHECK, tmp_path, str(rom))
    kind, path, problem = first["found"]["0"]
    assert (kind, path) == ("GameLoadError", str(rom))
    assert "picodrive core crashed" in problem and "SIGSEGV" in problem
    assert first["found"]["1"] == first["found"]["0"] and first["probes"] == 1, "the bad verdict is kept"
    assert first["left"] == [], "the probe process left files behind"
    assert len(verdict_files(tmp_path)) == 1

    again = run_python(OPEN_WITHOUT_STRUCTURE_CHECK, tmp_path, str(rom))
    assert again["found"] == first["found"] and again["probes"] == 0, "a new process reads the verdict on disk"


def test_the_damaged_32x_rom_is_a_rom_error_before_any_core_sees_it(tmp_path):
    rom = damaged_32x(tmp_path)
    before = rom_probe.probes_run
    with pytest.raises(RomError, match="no 'SEGA' at 0x100") as caught:
        Emulator(rom)
    assert caught.value.path == rom and rom_probe.probes_run == before


def test_the_32x_test_rom_itself_opens(tmp_path):
    if not PALETTE_TECH.is_file():
        pytest.skip(f"stable-retro's 32X test ROM is not in {ROMS}")
    require_core("picodrive")
    with Emulator(PALETTE_TECH) as emu:
        emu.run_frames(30)


def _good_roms(tmp_path: Path) -> list[tuple[Path, str]]:
    roms = [(NES_ROM, "fceumm"), (GENESIS_ROM, "genesis_plus_gx")]
    try:
        import ale_py.roms

        qbert = Path(ale_py.roms.__file__).parent / "qbert.bin"
        if qbert.is_file():
            (tmp_path / "Qbert.a26").write_bytes(qbert.read_bytes())
            roms.append((tmp_path / "Qbert.a26", "stella"))
    except ImportError:
        pass
    return [(rom, core) for rom, core in roms if find_library(core)]


def _trace(rom: Path, core: str) -> tuple[bytes, ...]:
    """Screen and RAM after some play, and after 60 more frames from the state saved then.

    A state's bytes hold pointers into the core's image (the spec's section 6), which lies elsewhere
    whenever the process's mappings changed between two loads: the state is compared by what it plays.
    """
    with Emulator(rom, core=core) as emu:
        for frame in range(8):
            play(emu, 1 << (frame % 8), 15)
        state = emu.get_state()
        played = emu.get_screen().tobytes(), emu.get_ram().tobytes()
    with Emulator(rom, core=core) as emu:
        emu.set_state(state)
        play(emu, 1 << 7, 60)
        return (*played, emu.get_screen().tobytes(), emu.get_ram().tobytes())


def test_good_roms_open_and_play_the_same_with_the_probe(tmp_path, monkeypatch):
    cases = _good_roms(tmp_path)
    if not cases:
        pytest.skip("no core for the good ROMs")
    for rom, core in cases:
        before = rom_probe.probes_run
        probed = _trace(rom, core)
        assert rom_probe.probes_run == before + 1, f"{rom.name} on {core} was not probed"
        monkeypatch.setenv(rom_probe.ENV_SWITCH, "0")
        plain = _trace(rom, core)
        monkeypatch.delenv(rom_probe.ENV_SWITCH)
        assert rom_probe.probes_run == before + 1
        for mine, theirs in zip(probed, plain):
            assert np.array_equal(np.frombuffer(mine, np.uint8), np.frombuffer(theirs, np.uint8)), rom.name


def test_a_verdict_is_kept_in_memory_and_on_disk(tmp_path):
    require_core("fceumm")
    before = rom_probe.probes_run
    Emulator(NES_ROM, core="fceumm").close()
    Emulator(NES_ROM, core="fceumm").close()
    assert rom_probe.probes_run == before + 1, "the second open forked again"
    (verdict,) = verdict_files(tmp_path)
    key = (tmp_path / "config" / "emucore" / "rom-probe.key").read_bytes()
    assert rom_probe.probe_seal.unseal(key, verdict.name, verdict.read_bytes()) == rom_probe.GOOD

    rom_probe.forget_verdicts()
    Emulator(NES_ROM, core="fceumm").close()
    assert rom_probe.probes_run == before + 1, "the verdict on disk was not read"
    Emulator(NES_ROM, core="fceumm", options={"fceumm_region": "PAL"}).close()
    assert rom_probe.probes_run == before + 2, "other options are another verdict"


def test_a_new_process_uses_the_verdict_on_disk(tmp_path):
    require_core("fceumm")
    script = """
        import json, sys
        from emucore import Emulator
        from emucore.host import rom_probe
        Emulator(sys.argv[1], core="fceumm").close()
        print(json.dumps({"probes": rom_probe.probes_run}))
    """
    assert run_python(script, tmp_path, str(NES_ROM)) == {"probes": 1}
    assert run_python(script, tmp_path, str(NES_ROM)) == {"probes": 0}


def test_the_probe_can_be_switched_off(tmp_path, monkeypatch):
    require_core("fceumm")
    monkeypatch.setenv(rom_probe.ENV_SWITCH, "0")
    before = rom_probe.probes_run
    Emulator(NES_ROM, core="fceumm").close()
    assert rom_probe.probes_run == before and verdict_files(tmp_path) == []


def test_a_cache_folder_that_cannot_be_written_is_ignored(tmp_path, monkeypatch):
    require_core("fceumm")
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    before = rom_probe.probes_run
    Emulator(NES_ROM, core="fceumm").close()
    assert rom_probe.probes_run == before + 1


def test_a_probe_past_its_time_is_a_game_load_error_kept_nowhere(tmp_path, monkeypatch):
    require_core("fceumm")
    with monkeypatch.context() as stalled:  # the machine stalls during this probe
        stalled.setattr(rom_probe, "FRAMES", 10**8)
        stalled.setattr(rom_probe, "TIMEOUT_S", 0.5)
        with pytest.raises(GameLoadError, match="did not finish") as caught:
            Emulator(NES_ROM, core="fceumm")
    assert caught.value.path == NES_ROM and verdict_files(tmp_path) == []
    before = rom_probe.probes_run
    Emulator(NES_ROM, core="fceumm").close()  # recovered: probed again, and good
    assert rom_probe.probes_run == before + 1 and len(verdict_files(tmp_path)) == 1


def _fake_check(tmp_path: Path, open_session) -> None:
    core = find_library("fceumm")[0].path
    rom_probe.check_rom(open_session, tmp_path / "x.nes", b"rom", "fceumm", core, {},
                        cache_dir=tmp_path / "verdicts", key_path=tmp_path / "probe.key",
                        write=lambda path, data: (path.parent.mkdir(exist_ok=True), path.write_bytes(data)))


def test_a_clean_refusal_in_the_probe_is_left_to_the_emulator(tmp_path):
    require_core("fceumm")

    def refuse():
        raise GameLoadError("x.nes", "refused")

    before = rom_probe.probes_run
    _fake_check(tmp_path, refuse)
    _fake_check(tmp_path, refuse)
    assert rom_probe.probes_run == before + 2 and not (tmp_path / "verdicts").exists(), "no verdict is kept"


def test_a_core_that_kills_its_process_is_a_game_load_error(tmp_path):
    require_core("fceumm")

    def crash():
        os.kill(os.getpid(), signal.SIGSEGV)

    with pytest.raises(GameLoadError, match="SIGSEGV in a probe process"):
        _fake_check(tmp_path, crash)
    assert len(list((tmp_path / "verdicts").iterdir())) == 1
