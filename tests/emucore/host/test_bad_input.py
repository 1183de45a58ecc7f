"""Bad ROMs, cores and states raise clear errors naming the file; nothing crashes."""

from __future__ import annotations

import gzip
import shutil

import pytest

from emucore import (
    CoreLoadError,
    CoreNotFoundError,
    Emulator,
    GameLoadError,
    RomError,
    RomNotFoundError,
    StateError,
    UnknownSystemError,
)
from tests.conftest import require_core


def test_missing_rom(tmp_path):
    with pytest.raises(RomNotFoundError, match="nope.nes: no such file"):
        Emulator(tmp_path / "nope.nes")
    with pytest.raises(FileNotFoundError):
        Emulator(tmp_path / "nope.nes")


def test_empty_rom(tmp_path):
    (tmp_path / "empty.md").write_bytes(b"")
    with pytest.raises(RomError, match="empty.md: the file is empty"):
        Emulator(tmp_path / "empty.md")


def test_unknown_extension(tmp_path):
    (tmp_path / "game.xyz").write_bytes(b"\0" * 1024)
    with pytest.raises(UnknownSystemError, match=r"game.xyz: the extension '.xyz' belongs to no known system"):
        Emulator(tmp_path / "game.xyz")


def test_truncated_nes_rom(tmp_path, nes_rom):
    (tmp_path / "cut.nes").write_bytes(nes_rom.read_bytes()[:9000])
    with pytest.raises(RomError, match=r"cut.nes: truncated: the iNES header declares 24592 bytes, the file has 9000"):
        Emulator(tmp_path / "cut.nes")


def test_corrupt_nes_rom(tmp_path):
    (tmp_path / "junk.nes").write_bytes(bytes(range(256)) * 100)
    with pytest.raises(RomError, match="junk.nes: no iNES header"):
        Emulator(tmp_path / "junk.nes")


def test_corrupt_genesis_rom(tmp_path):
    (tmp_path / "junk.md").write_bytes(b"\x4e\x71" * 4096)
    with pytest.raises(RomError, match="junk.md: no 'SEGA' at 0x100"):
        Emulator(tmp_path / "junk.md")


def test_corrupt_gameboy_header(tmp_path):
    (tmp_path / "junk.gb").write_bytes(bytes(0x8000))
    data = bytearray(0x8000)
    data[0x14D] = 0x55
    (tmp_path / "junk.gb").write_bytes(bytes(data))
    with pytest.raises(RomError, match="junk.gb: header checksum mismatch"):
        Emulator(tmp_path / "junk.gb")


def test_core_refuses_the_game(tmp_path, nes_rom):
    require_core("nestopia")
    data = bytearray(nes_rom.read_bytes())
    data[6] = (data[6] & 0x0F) | 0xF0  # mapper 127, which nestopia does not emulate
    data[7] = (data[7] & 0x0F) | 0x70
    (tmp_path / "mapper.nes").write_bytes(bytes(data))
    with pytest.raises(GameLoadError, match="mapper.nes: the nestopia core refused to load it"):
        Emulator(tmp_path / "mapper.nes", core="nestopia")


def test_core_file_that_is_not_a_library(tmp_path, nes_rom):
    fake = tmp_path / "fake_libretro.so"
    fake.write_bytes(b"not an ELF file")
    with pytest.raises(CoreLoadError, match="fake_libretro.so"):
        Emulator(nes_rom, core=fake)


def test_library_that_is_not_a_core(tmp_path, nes_rom):
    from emucore.libretro import _native

    copy = tmp_path / "notacore_libretro.so"
    shutil.copyfile(_native.__file__, copy)  # a real shared library without retro_* symbols
    with pytest.raises(CoreLoadError, match="has no symbol retro_api_version"):
        Emulator(nes_rom, core=copy)


def test_missing_core_names_its_package(monkeypatch, nes_rom):
    monkeypatch.setattr("emucore.host.corefinder.search_dirs", lambda: [])
    with pytest.raises(CoreNotFoundError, match="pip install stable-retro"):
        Emulator(nes_rom)
    with pytest.raises(CoreNotFoundError, match="apt-get install libretro-nestopia"):
        Emulator(nes_rom, core="nestopia")


def test_core_path_that_does_not_exist(tmp_path, nes_rom):
    with pytest.raises(CoreNotFoundError, match="no such file"):
        Emulator(nes_rom, core=tmp_path / "gone_libretro.so")


def test_truncated_and_foreign_states(airstriker, nes_rom):
    with Emulator(airstriker / "rom.md") as genesis, Emulator(nes_rom) as nes:
        state = genesis.get_state()
        with pytest.raises(StateError, match="truncated"):
            genesis.set_state(state[: len(state) // 2])
        with pytest.raises(StateError, match="signature"):
            genesis.set_state(nes.get_state())
        with pytest.raises(StateError, match="signature"):
            nes.set_state(state)
        with pytest.raises(StateError, match="empty"):
            genesis.set_state(b"")
        genesis.set_state(state)  # still usable afterwards
        genesis.step()


def test_bad_state_files(tmp_path, nes_rom):
    with Emulator(nes_rom) as emu:
        (tmp_path / "plain.state").write_bytes(emu.get_state())
        with pytest.raises(StateError, match="plain.state: not a gzip-compressed state"):
            emu.load_state_file(tmp_path / "plain.state")
        (tmp_path / "cut.state").write_bytes(gzip.compress(emu.get_state())[:40])
        with pytest.raises(StateError, match="cut.state: not a gzip-compressed state"):
            emu.load_state_file(tmp_path / "cut.state")
        with pytest.raises(StateError, match="missing.state: no such file"):
            emu.load_state_file(tmp_path / "missing.state")
        (tmp_path / "short.state").write_bytes(gzip.compress(emu.get_state()[:100]))
        with pytest.raises(StateError, match="short.state: truncated"):
            emu.load_state_file(tmp_path / "short.state")
