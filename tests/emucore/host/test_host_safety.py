"""Host safety on real cores: views after close, threads, callback errors, temp folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from emucore import Emulator
from emucore.errors import EmulatorBusyError, EmulatorClosedError
from tests.conftest import GENESIS_ROM, NES_ROM, ROOT, require_core

CORES = ["genesis_plus_gx", "picodrive", "fceumm", "nestopia", "stella"]


@pytest.fixture
def rom_for(ale_rom):
    def rom(core: str) -> Path:
        require_core(core)
        if core == "stella":
            return ale_rom("breakout", "Breakout.a26")
        return GENESIS_ROM if core in ("genesis_plus_gx", "picodrive") else NES_ROM

    return rom


def run_python(code: str, tmp: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter whose temp folder is ``tmp``."""
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize("core", CORES)
def test_views_read_after_close_stay_valid_and_calls_raise(core, rom_for, tmp_path):
    """In a subprocess, so a segfault would show as a failed exit, not kill the suite."""
    rom = rom_for(core)
    result = run_python(
        f"""
        import gc, json
        import numpy as np
        from emucore import Emulator
        from emucore.errors import EmulatorClosedError

        emu = Emulator({str(rom)!r}, core={core!r})
        for _ in range(30):
            emu.step()
        regions = emu.memory_regions()
        memory = emu.memory
        blocks = [b.data for b in memory.blocks]
        before = {{name: view.copy() for name, view in regions.items()}}
        session = emu._session
        emu.close()
        assert session.core_loaded, "views are alive: the core stays loaded"
        same = all(np.array_equal(before[name], view) for name, view in regions.items())
        total = sum(int(view.sum()) for view in regions.values()) + sum(int(b.sum()) for b in blocks)
        first = memory.blocks[0].start
        memory.read(first, "|u1")
        for view in regions.values():
            view[:1] = 7  # writes land in the unloaded core's memory, harmlessly
        raised = []
        for call in (emu.memory_regions, emu.step, emu.get_state, lambda: emu.memory, emu.get_screen):
            try:
                call()
            except EmulatorClosedError as exc:
                raised.append(str(exc))
        del regions, memory, blocks, view
        gc.collect()
        print(json.dumps({{"same": same, "raised": raised, "unloaded": not session.core_loaded}}))
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["same"]
    assert len(report["raised"]) == 5 and all("closed" in text for text in report["raised"])
    assert report["unloaded"], "the core is unloaded once the last view is gone"


@pytest.mark.parametrize("core", CORES)
def test_temp_folder_is_left_empty(core, rom_for, tmp_path):
    """Closed, forgotten, garbage-collected and failed emulators leave nothing in the temp folder."""
    rom = rom_for(core)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    bad_rom = tmp_path / ("bad" + rom.suffix)
    bad_rom.write_bytes(b"\xff" * 64)
    result = run_python(
        f"""
        from emucore import Emulator
        from emucore.errors import EmucoreError

        with Emulator({str(rom)!r}, core={core!r}) as closed:
            closed.step()
        collected = Emulator({str(rom)!r}, core={core!r})
        collected.step()
        del collected
        forgotten = Emulator({str(rom)!r}, core={core!r})
        view = forgotten.memory_regions()
        try:
            Emulator({str(bad_rom)!r}, core={core!r})
        except (EmucoreError, ValueError) as exc:
            print("refused:", exc)
        try:
            Emulator({str(rom)!r}, core="/no/such/core_libretro.so")
        except EmucoreError as exc:
            print("refused:", exc)
        """,
        scratch,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert list(scratch.iterdir()) == []


def test_a_closed_emulator_removes_its_save_folder(rom_for):
    emu = Emulator(rom_for("fceumm"), core="fceumm")
    save_dir = Path(emu.session._native.save_dir)
    assert save_dir.is_dir()
    emu.close()
    assert not save_dir.exists()


@pytest.mark.parametrize("core", CORES)
def test_a_second_thread_gets_a_clear_error_and_close_waits(core, rom_for):
    emu = Emulator(rom_for(core), core=core)
    entered = threading.Event()
    outcome: list[object] = []

    def long_run() -> None:
        entered.set()
        try:
            while True:
                try:  # the main thread's steps may hold the emulator when this one tries: try again
                    emu.run_frames(1500)
                    break
                except EmulatorBusyError:
                    continue
            outcome.append("done")
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome.append(exc)

    worker = threading.Thread(target=long_run)
    worker.start()
    entered.wait()
    busy = None
    deadline = time.monotonic() + 30
    while busy is None and worker.is_alive() and time.monotonic() < deadline:
        try:
            emu.step()
        except EmulatorBusyError as exc:
            busy = exc
    assert busy is not None, "the second thread was never refused"
    assert "another thread" in str(busy) and emu.rom_path.name in str(busy)
    with pytest.raises(EmulatorBusyError):
        emu.get_state()
    emu.close()  # waits for the frames in flight
    assert not worker.is_alive()
    worker.join()
    assert outcome == ["done"]
    with pytest.raises(EmulatorClosedError):
        emu.step()


def fceumm_session(sink):
    from emucore.host.corefinder import find_core
    from emucore.libretro import CoreSession

    require_core("fceumm")
    return CoreSession(find_core("Nes", "fceumm").path, log_sink=sink)


class Boom(Exception):
    pass


def test_every_callback_exception_of_one_call_is_raised(nes_rom, monkeypatch):
    from emucore.libretro import environment

    def refuse_variables(session, data):
        raise Boom("GET_VARIABLE")

    def sink(level: int, text: str) -> None:
        if "PRG ROM" in text or "CHR ROM" in text:
            raise Boom(f"log: {text}")

    session = fceumm_session(sink)
    monkeypatch.setitem(environment._HANDLERS, 15, refuse_variables)  # GET_VARIABLE
    try:
        with pytest.raises(BaseExceptionGroup) as caught:
            session.load_game(nes_rom, nes_rom.read_bytes())
        exceptions = caught.value.exceptions
        assert all(isinstance(e, Boom) for e in exceptions)
        texts = {str(e) for e in exceptions}
        assert "GET_VARIABLE" in texts, "an environment callback's exception"
        assert any(t.startswith("log: ") for t in texts), "and a log callback's, from the same call"
        assert "fceumm" in str(caught.value)
        session.check()  # nothing left over
    finally:
        session.close()


def fceumm_session_calling(action):
    """A fceumm session whose log sink runs ``action(session)`` at the first line after construction."""
    ran: list[bool] = []

    def sink(level: int, text: str) -> None:
        if armed and not ran:
            ran.append(True)
            action(session)

    armed = False
    session = fceumm_session(sink)
    armed = True
    return session


def test_calling_the_core_from_its_own_callback_is_refused(nes_rom):
    session = fceumm_session_calling(lambda s: s.run())
    try:
        with pytest.raises(EmulatorBusyError, match="inside one of its own callbacks"):
            session.load_game(nes_rom, nes_rom.read_bytes())
    finally:
        session.close()


def test_closing_from_a_callback_is_refused(nes_rom):
    refused: list[BaseException] = []

    def close(session) -> None:
        try:
            session.close()
        except EmulatorBusyError as exc:
            refused.append(exc)

    session = fceumm_session_calling(close)
    try:
        assert session.load_game(nes_rom, nes_rom.read_bytes())
        assert refused and "cannot be closed" in str(refused[0])
        session.run()  # still usable
    finally:
        session.close()
    assert session.closed


def test_only_the_libretro_package_touches_the_c_boundary():
    """import-linter cannot see the compiled ``_native`` module, so this test reads the imports."""
    import ast

    offenders = []
    for package in ("emucore", "studio", "bench"):
        for path in (ROOT / package).rglob("*.py"):
            if path.is_relative_to(ROOT / "emucore" / "libretro"):
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                if any(name.startswith("emucore.libretro._native") for name in names):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_a_process_ends_while_a_daemon_thread_is_inside_the_core(rom_for, tmp_path):
    """Nothing at exit (the save-folder cleanup, a collected emulator) waits for a call that a
    stopped daemon thread will never finish."""
    rom = rom_for("genesis_plus_gx")
    result = run_python(
        f"""
        import threading
        from emucore import Emulator

        emu = Emulator({str(rom)!r})
        entered = threading.Event()

        def forever(session):
            entered.set()
            while True:
                session.run_frames(100000)

        threading.Thread(target=forever, args=(emu.session,), daemon=True).start()
        entered.wait()
        print("leaving")
        """,
        tmp_path,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "leaving" in result.stdout


def test_the_session_checks_what_reaches_c(nes_rom):
    import numpy as np

    from emucore.libretro.structs import MemoryDescriptor

    with Emulator(nes_rom) as emu:
        session = emu.session
        width, height = emu.get_resolution()
        for out in (np.zeros(10, np.uint8), np.zeros((height, width, 6), np.uint8)[:, :, :3]):
            with pytest.raises(ValueError, match="C-contiguous array of at least"):
                session.convert_frame(out, width, height)
        with pytest.raises(ValueError, match="C-contiguous uint8 array of shape"):
            emu.get_screen(np.zeros((height, width, 3), np.float32))
        made_up = MemoryDescriptor(0, 0x1000, 0, 0, 0, 0, 1 << 20, None)
        with pytest.raises(ValueError, match="not one of the core's memory descriptors"):
            session.descriptor_view(made_up)
        with pytest.raises(IndexError):
            session.set_button_bits(9, 1)


def test_the_next_process_sweeps_the_save_folder_of_a_killed_one(rom_for, tmp_path):
    from emucore.libretro.save_dirs import LOCK, SWEEP_AFTER_S

    rom = rom_for("fceumm")
    make = (
        f"from emucore import Emulator\nemu = Emulator({str(rom)!r})\n"
        "print(emu.session._native.save_dir, flush=True)\n"
    )
    killed = run_python(make + "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", tmp_path)
    assert killed.returncode == -9
    dead = Path(killed.stdout.split()[0])
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))
    alive = subprocess.Popen([sys.executable, "-c", make + "input()\n"], env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        living = Path(alive.stdout.readline().split()[0])
        old = time.time() - SWEEP_AFTER_S - 5
        for folder in (dead, living):
            os.utime(folder / LOCK, (old, old))
        run_python(make, tmp_path)
        assert not dead.exists(), "a killed process's folder is swept"
        assert living.is_dir(), "a running process's folder is not"
    finally:
        alive.communicate("\n", timeout=60)
    assert alive.returncode == 0
    assert not living.exists()
    assert list(tmp_path.iterdir()) == []


def test_an_emulator_and_an_env_in_reference_cycles_are_collected_without_a_crash(tmp_path):
    """The collector runs the session's weakref finalizer before the cycle's __del__ (which closes)."""
    result = run_python(
        f"""
        import gc
        import emucore
        from emucore import Emulator

        for with_view in (False, True):
            emu = Emulator({str(NES_ROM)!r})
            cycle = {{"emulator": emu, "memory": emu.memory if with_view else None}}
            cycle["self"] = cycle
            del emu, cycle
            gc.collect()
        env = emucore.make("StudioDemo-Nes")
        env.reset()
        env.self = env
        del env
        gc.collect()
        print("collected")
        """,
        tmp_path,
    )
    assert result.returncode == 0 and "collected" in result.stdout, result.stderr


def test_a_cores_cpp_exception_is_a_state_error_not_the_end_of_the_process(ale_rom, tmp_path):
    """stella throws std::ios_base::failure on a corrupt state; uncaught, the C++ runtime aborts."""
    require_core("stella")
    rom = ale_rom("breakout", "Breakout.a26")
    result = run_python(
        f"""
        from emucore import Emulator
        from emucore.errors import StateError

        emu = Emulator({str(rom)!r}, core="stella")
        emu.step()
        good = emu.get_state()
        spoilt = bytearray(good)
        spoilt[18] = 133  # inside the length of the state's first string
        try:
            emu.set_state(bytes(spoilt))
        except StateError as exc:
            print("refused:", exc)
        emu.set_state(good)
        emu.step()
        print("still running")
        """,
        tmp_path,
    )
    assert "C++ exception" in result.stdout and "still running" in result.stdout, result.stderr[-2000:]
