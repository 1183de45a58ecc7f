"""States from outside are probed in a forked copy of the process first (emucore.host.state_probe).

Scenarios where the probe failing would take the process down run in a subprocess with a timeout.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from emucore import Emulator
from emucore.errors import EmulatorBusyError, StateError
from emucore.host import state_probe
from emucore.host.corefinder import find_library
from emucore.integration import read_state_file
from emucore.libretro._native import lib
from emucore.paths import integrations_dir
from tests.conftest import GENESIS_ROM, NES_ROM, ROOT, require_core

GENESIS_STATE = integrations_dir() / "StudioDemo-Genesis" / "Start.state"
NES_STATE = integrations_dir() / "StudioDemo-Nes" / "Start.state"
CRASHING_SEEDS = (0, 2, 3)  # random bodies genesis_plus_gx segfaults on (the rel-07 repro's)
REL08_STATE = (  # 64-byte blocks of a real Qbert state, shuffled: stella asks for 1.6 GB on it
    "H4sIADzNCGsC/8tMSU818f4HAv///68HYRSOPQMBMAUIgYAdBPaDOFM4pzCyQqWAgJeFhZsVxOrdxvCCiYELWS8jI4hkBuIQT0eY"
    "YMRLBgZZDQaG20C2LhCDXMHwn4EJSRtUI9h4IDYwNrA0MDQwKC5JLEnlBgo4JxaVFGWCfcYG5AZXFpek5saDlIIc5mtmamC0A2hw"
    "25FtjCAAdQuYBbTtP8gGIJjMUMEQw+DIoAbmomMGFoi2f0DIyKjfJg80+vA2BoiDUQDUTmMjhik7wAHEBAyODVCIEhpAAAt3uA85"
    "IKETnF+al4JQC/flhimoUQGE/0GkoykQMjDsBbFN0ePsP0IDALCN21YAAgAA"
)

pytestmark = pytest.mark.skipif(not state_probe.probe_available(), reason="no os.fork: states are not probed")


def random_body(state: bytes, seed: int) -> bytes:
    """The state's 32-byte header (its GENPLUS-GX signature) and a random body of the right size."""
    rng = random.Random(seed)
    return state[:32] + bytes(rng.getrandbits(8) for _ in range(len(state) - 32))


def run_python(code: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(state_probe.ENV_SWITCH, None)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def last_json(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, f"rc {result.returncode}: {result.stderr[-3000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(autouse=True)
def fresh_verdicts():
    state_probe.forget_verdicts()
    yield
    state_probe.forget_verdicts()


def test_genesis_states_with_a_random_body_are_refused_and_the_emulator_goes_on():
    require_core("genesis_plus_gx")
    result = run_python(
        f"""
        import json, random, sys
        import numpy as np
        from emucore import Emulator
        from emucore.errors import StateError
        from emucore.integration import read_state_file
        from emucore.host import state_probe

        good = read_state_file({str(GENESIS_STATE)!r})
        def frames(emu):
            emu.set_state(good)
            shots = []
            for _ in range(20):
                emu.step()
                shots.append(emu.get_screen().copy())
            return np.stack(shots)

        with Emulator({str(GENESIS_ROM)!r}) as emu:
            before = frames(emu)
            errors = []
            for seed in {CRASHING_SEEDS!r}:
                rng = random.Random(seed)
                bad = good[:32] + bytes(rng.getrandbits(8) for _ in range(len(good) - 32))
                try:
                    emu.set_state(bad, source=f"bad{{seed}}.state")
                    errors.append(None)
                except StateError as exc:
                    errors.append(str(exc))
            probes = state_probe.probes_run
            try:
                emu.set_state(bad)  # the last one again: its verdict is kept
                again = None
            except StateError as exc:
                again = str(exc)
            after = frames(emu)
            print(json.dumps({{"errors": errors, "again": again, "same": bool(np.array_equal(before, after)),
                              "probes_again": state_probe.probes_run - probes}}))
        """
    )
    seen = last_json(result)
    for seed, error in zip(CRASHING_SEEDS, seen["errors"]):
        assert error is not None and f"bad{seed}.state" in error, error
        assert "the genesis_plus_gx core crashed loading it (SIGSEGV in a probe process); it is not loaded" in error
    assert seen["again"] is not None and "SIGSEGV" in seen["again"]
    assert seen["probes_again"] == 0
    assert seen["same"], "the frames after a good state differ from before the refused ones"


def test_the_state_probed_is_the_state_loaded():
    """A buffer that changes between the probe and the load (here __bytes__) cannot slip a crashing state in."""
    require_core("genesis_plus_gx")
    result = run_python(
        f"""
        import json, random
        from emucore import Emulator
        from emucore.errors import StateError
        from emucore.integration import read_state_file

        good = read_state_file({str(GENESIS_STATE)!r})
        rng = random.Random({CRASHING_SEEDS[0]})
        bad = good[:32] + bytes(rng.getrandbits(8) for _ in range(len(good) - 32))

        class Changing(bytearray):
            copies = 0
            def __bytes__(self):
                Changing.copies += 1
                return good if Changing.copies == 1 else bad  # the first copy good, any later one bad

        with Emulator({str(GENESIS_ROM)!r}) as emu:
            emu.step()
            emu.set_state(Changing(good))
            for _ in range(60):
                emu.step()
            print(json.dumps({{"copies": Changing.copies}}))
        """
    )
    assert last_json(result) == {"copies": 1}


def test_load_state_file_and_make_name_the_file(tmp_path):
    require_core("genesis_plus_gx")
    game = tmp_path / "StudioDemo-Genesis"
    shutil.copytree(GENESIS_STATE.parent, game)
    bad_file = game / "Start.state"
    bad_file.write_bytes(gzip.compress(random_body(read_state_file(GENESIS_STATE), CRASHING_SEEDS[0])))
    result = run_python(
        """
        import json, sys
        import emucore
        from emucore.errors import StateError

        seen = {}
        with emucore.Emulator(sys.argv[1] + "/rom.md") as emu:
            try:
                emu.load_state_file(sys.argv[1] + "/Start.state")
            except StateError as exc:
                seen["load_state_file"] = str(exc)
        try:
            env = emucore.make(sys.argv[1])
            env.reset(seed=0)
        except StateError as exc:
            seen["make"] = str(exc)
        print(json.dumps(seen))
        """,
        str(game),
    )
    seen = last_json(result)
    for how in ("load_state_file", "make"):
        assert str(bad_file) in seen.get(how, ""), seen
        assert "crashed loading it (SIGSEGV in a probe process)" in seen[how]


def test_a_state_that_makes_stella_allocate_gigabytes_is_refused_without_the_memory(ale_rom, tmp_path):
    require_core("stella")
    rom = ale_rom("qbert", "Qbert.a26")
    state_file = tmp_path / "bad.state"
    state_file.write_bytes(gzip.decompress(base64.b64decode(REL08_STATE)))
    result = run_python(
        """
        import json, resource, sys
        from emucore import Emulator
        from emucore.errors import StateError

        with Emulator(sys.argv[1]) as emu:
            emu.step()
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            try:
                emu.set_state(open(sys.argv[2], "rb").read())
                error = None
            except StateError as exc:
                error = str(exc)
            grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            emu.step()
        print(json.dumps({"error": error, "grew_kib": grew}))
        """,
        str(rom),
        str(state_file),
    )
    seen = last_json(result)
    assert seen["error"] and "the stella core" in seen["error"] and "in a probe process" in seen["error"]
    assert seen["grew_kib"] < 256 * 1024, seen


def test_a_good_state_is_probed_once_and_the_emulators_own_states_never():
    good = read_state_file(NES_STATE)
    with Emulator(NES_ROM) as emu:
        if not emu._probe.enabled:
            pytest.skip(f"the {emu.core.lib} core is not probed")
        start = state_probe.probes_run
        emu.set_state(good)
        assert state_probe.probes_run == start + 1
        emu.set_state(good)  # the same object: not even hashed
        emu.set_state(bytes(bytearray(good)))  # a copy: found by its hash
        emu.check_state(bytearray(good))
        assert state_probe.probes_run == start + 1
        for _ in range(10):
            emu.step()
        own = emu.get_state()
        emu.set_state(own)
        emu.set_state(bytes(bytearray(own)))
        emu.load_state_file(NES_STATE)
        assert state_probe.probes_run == start + 1


def test_a_probe_that_runs_too_long_refuses_this_load_only(monkeypatch):
    good = read_state_file(NES_STATE)
    with Emulator(NES_ROM) as emu:
        if not emu._probe.enabled:
            pytest.skip(f"the {emu.core.lib} core is not probed")
        screen = emu.get_screen().copy()
        with monkeypatch.context() as stalled:  # the machine stalls during this probe
            stalled.setattr(state_probe, "TIMEOUT_S", 0.0005)
            with pytest.raises(StateError, match="did not finish loading it .* within 0.0005 s in a probe process"):
                emu.set_state(good)
        assert np.array_equal(screen, emu.get_screen())
        emu.step()
        start = state_probe.probes_run
        emu.set_state(good)  # recovered: the timeout was not kept as a verdict
        assert state_probe.probes_run == start + 1
        emu.set_state(bytes(bytearray(good)))  # the real verdict is
        assert state_probe.probes_run == start + 1


def test_a_probe_past_its_time_is_killed_and_kept_nowhere(monkeypatch):
    monkeypatch.setattr(state_probe, "FRAMES", 10**8)
    monkeypatch.setattr(state_probe, "TIMEOUT_S", 0.5)
    with Emulator(NES_ROM) as emu:
        if not emu._probe.enabled:
            pytest.skip(f"the {emu.core.lib} core is not probed")
        with pytest.raises(StateError, match="within 0.5 s in a probe process"):
            emu.set_state(read_state_file(NES_STATE))
        assert not state_probe._verdicts


def test_the_probe_can_be_switched_off(monkeypatch):
    monkeypatch.setenv(state_probe.ENV_SWITCH, "0")
    with Emulator(NES_ROM) as emu:
        start = state_probe.probes_run
        emu.set_state(read_state_file(NES_STATE))
        assert not emu._probe.enabled and state_probe.probes_run == start


def test_a_core_that_may_start_threads_is_not_probed(tmp_path):
    threaded = tmp_path / "threaded_libretro.so"
    threaded.write_bytes(b"\x7fELF...pthread_create\0...")
    plain = tmp_path / "plain_libretro.so"
    plain.write_bytes(b"\x7fELF...memcpy\0...")
    assert state_probe.may_start_threads(str(threaded))
    assert not state_probe.may_start_threads(str(plain))
    assert state_probe.may_start_threads(str(tmp_path / "missing.so"))
    require_core("genesis_plus_gx")
    assert not state_probe.may_start_threads(str(find_library("genesis_plus_gx")[0].path))


def test_the_verdict_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(state_probe, "CACHE_LIMIT", 3)
    with Emulator(NES_ROM) as emu:
        if not emu._probe.enabled:
            pytest.skip(f"the {emu.core.lib} core is not probed")
        for _ in range(5):
            emu.step()
            emu.get_state()
        assert len(state_probe._verdicts) == 3


def test_a_verdict_is_for_one_core_rom_and_options():
    keys = {state_probe.StateProbe("fceumm", "/cores/a.so", rom, options)._key(b"FCS state")
            for rom, options in ((b"rom", {}), (b"other rom", {}), (b"rom", {"key": "value"}))}
    keys.add(state_probe.StateProbe("fceumm", "/cores/b.so", b"rom", {})._key(b"FCS state"))
    assert len(keys) == 4


def test_a_probe_while_another_thread_is_in_the_core_is_busy_and_leaves_no_verdict():
    good = read_state_file(NES_STATE)
    with Emulator(NES_ROM) as emu:
        if not emu._probe.enabled:
            pytest.skip(f"the {emu.core.lib} core is not probed")
        start = state_probe.probes_run
        host = emu._session.host_pointer
        assert lib.emu_host_enter(host, -7)  # as a thread inside the core holds the busy flag
        try:
            with pytest.raises(EmulatorBusyError):
                emu._probe.problem(emu._session, good)
        finally:
            lib.emu_host_leave(host, -7)
        assert state_probe.probes_run == start and not state_probe._verdicts
        emu.set_state(good)
        assert state_probe.probes_run == start + 1
