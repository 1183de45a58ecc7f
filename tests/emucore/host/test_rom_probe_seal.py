"""The ROM probe's verdicts on disk are believed only when sealed with the user's private key.

Whoever can write the cache folder but cannot read the key can neither let a crashing ROM in with a
forged "ok" nor refuse a good ROM with text of their own. What could crash the test process runs in a
subprocess.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from emucore import Emulator
from emucore.host import probe_seal, rom_probe
from tests.conftest import GENESIS_ROM, require_core
from tests.emucore.host.test_rom_probe import (
    OPEN_WITHOUT_STRUCTURE_CHECK,
    damaged_32x,
    fresh,  # noqa: F401  (autouse: the test's own cache and config folders, no verdict in memory)
    run_python,
    verdict_files,
)

pytestmark = pytest.mark.skipif(not rom_probe.fork_probe.available(rom_probe.ENV_SWITCH),
                                reason="no os.fork: ROMs are not probed")


def probed_once(tmp_path: Path) -> tuple[Path, bytes]:
    """The Genesis demo probed and its verdict forgotten in memory: the verdict file and the key."""
    require_core("genesis_plus_gx")
    Emulator(GENESIS_ROM).close()
    rom_probe.forget_verdicts()
    (verdict,) = verdict_files(tmp_path)
    return verdict, key_file(tmp_path).read_bytes()


def key_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "emucore" / "rom-probe.key"


def test_a_forged_ok_verdict_is_ignored_and_the_crashing_rom_refused(tmp_path):
    rom = damaged_32x(tmp_path)
    first = run_python(OPEN_WITHOUT_STRUCTURE_CHECK, tmp_path, str(rom))
    assert "SIGSEGV" in first["found"]["0"][2]
    (verdict,) = verdict_files(tmp_path)
    for forged in (rom_probe.GOOD, b"ok\n", rom_probe.GOOD + b"\n" + b"0" * probe_seal.MAC_HEX):
        verdict.write_bytes(forged)
        again = run_python(OPEN_WITHOUT_STRUCTURE_CHECK, tmp_path, str(rom))  # asserts the process lived
        assert again["found"] == first["found"] and again["probes"] == 1, forged
        assert verdict.read_bytes() != forged, "the forged verdict was not overwritten"


def test_a_forged_bad_verdict_with_escapes_does_not_refuse_a_good_rom(tmp_path):
    verdict, key = probed_once(tmp_path)
    forged = b"bad \x1b[2J\x1b[31mforged text\nsecond line"
    verdict.write_bytes(forged)
    before = rom_probe.probes_run
    with Emulator(GENESIS_ROM) as emu:
        emu.run_frames(10)
    assert rom_probe.probes_run == before + 1, "the forged verdict was not probed again"
    assert probe_seal.unseal(key, verdict.name, verdict.read_bytes()) == rom_probe.GOOD

    # sealed with another key (made by someone else): not believed either
    verdict.write_bytes(probe_seal.seal(b"k" * probe_seal.KEY_BYTES, verdict.name, b"bad signal 11"))
    rom_probe.forget_verdicts()
    Emulator(GENESIS_ROM).close()
    assert rom_probe.probes_run == before + 2


def test_a_sealed_verdict_of_another_rom_is_not_believed(tmp_path):
    verdict, key = probed_once(tmp_path)
    verdict.write_bytes(probe_seal.seal(key, "another-rom", b"bad signal 11"))
    before = rom_probe.probes_run
    Emulator(GENESIS_ROM).close()
    assert rom_probe.probes_run == before + 1


def test_a_message_from_a_verdict_file_is_made_of_fixed_texts(tmp_path):
    verdict, key = probed_once(tmp_path)
    verdict.write_bytes(probe_seal.seal(key, verdict.name, b"bad signal 11"))
    with pytest.raises(rom_probe.GameLoadError) as caught:
        Emulator(GENESIS_ROM)
    assert caught.value.problem == ("the genesis_plus_gx core crashed loading it (SIGSEGV in a probe process); "
                                    "it is not loaded")
    for body in (b"bad threw \x1b[2Jx", b"bad anything at all", b"bad signal 99999", b"bad timeout"):
        rom_probe.forget_verdicts()
        verdict.write_bytes(probe_seal.seal(key, verdict.name, body))
        before = rom_probe.probes_run
        Emulator(GENESIS_ROM).close()  # no code of ours: probed again
        assert rom_probe.probes_run == before + 1, body


def test_the_key_file_is_made_private(tmp_path):
    require_core("genesis_plus_gx")
    Emulator(GENESIS_ROM).close()
    info = key_file(tmp_path).stat()
    assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == os.geteuid()
    assert info.st_size == probe_seal.KEY_BYTES
    assert os.listdir(key_file(tmp_path).parent) == [key_file(tmp_path).name], "a temp file was left"


@pytest.mark.parametrize("spoil", ["readable", "symlink", "short"])
def test_a_key_file_that_is_not_private_keeps_no_verdict_on_disk(tmp_path, caplog, spoil):
    require_core("genesis_plus_gx")
    key = key_file(tmp_path)
    key.parent.mkdir(parents=True)
    if spoil == "readable":
        key.write_bytes(b"k" * probe_seal.KEY_BYTES)
        key.chmod(0o644)
    elif spoil == "symlink":
        (tmp_path / "elsewhere").write_bytes(b"k" * probe_seal.KEY_BYTES)
        (tmp_path / "elsewhere").chmod(0o600)
        key.symlink_to(tmp_path / "elsewhere")
    else:
        key.write_bytes(b"k" * 5)
        key.chmod(0o600)
    before = rom_probe.probes_run
    with caplog.at_level(logging.WARNING, logger=probe_seal.__name__):
        Emulator(GENESIS_ROM).close()
    assert rom_probe.probes_run == before + 1 and verdict_files(tmp_path) == []
    assert "verdicts on disk are not used" in caplog.text and str(key) in caplog.text
    rom_probe.forget_verdicts()
    Emulator(GENESIS_ROM).close()
    assert rom_probe.probes_run == before + 2, "a verdict was kept on disk all the same"
