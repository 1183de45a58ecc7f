"""A new system is its descriptor: every per-system fact emucore uses (RAM ranges, word size, the ROM check and
the header rom.sha skips, movie platform codes and key names) comes from cores/systems/<System>.json, so a console
described there is known everywhere with no table elsewhere to edit."""

from __future__ import annotations

import json
import shutil

import pytest

from emucore.paths import descriptors_dir
from emucore.systems import get_system, systems

TOY = {
    "system": "Toy", "name": "Toy Console", "extensions": ["toy"], "cores": ["fceumm"],
    "buttons": ["B", None, "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT", "A"],
    "byte_order": "little", "word_bits": 8, "ram_ranges": [["0x0", "0x800"]],
    "rom_format": "minimum", "rom_min_bytes": 64, "rom_header_bytes": 4,
    "bizhawk_platform": "TOY", "movie_platform": "TOY", "console_switches": True, "movie_key_names": {"B": "Bee"},
}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    root = shutil.copytree(descriptors_dir(), tmp_path / "cores")
    (root / "systems" / "Toy.json").write_text(json.dumps(TOY))
    monkeypatch.setenv("EMUCORE_CORES_DIR", str(root))
    return get_system("Toy")


def test_every_fact_about_a_new_system_comes_from_its_descriptor(toy, tmp_path):
    from emucore.data.hashes import candidate_hashes
    from emucore.errors import RomError
    from emucore.host.rom import read_rom
    from emucore.integration.lint_data import address_problem
    from emucore.movie.columns import columns_for
    from emucore.movie.header import resolve_platform, write_platform

    assert toy.word_bits == 8 and toy.ram_ranges == ((0, 0x800),)
    assert address_problem("Toy", 0x7FF, 1) is None
    assert address_problem("Toy", 0x900, 1) == "is outside Toy memory (0x0-0x7FF)"
    short = tmp_path / "short.toy"
    short.write_bytes(b"x" * 10)
    with pytest.raises(RomError, match="at least 64"):
        read_rom(short, toy)
    assert candidate_hashes("game.toy", b"HEADrom") == candidate_hashes("game.bin", b"rom")  # header skipped
    assert resolve_platform("TOY") == "Toy" and write_platform("Toy") == "TOY"
    assert [column.name for column in columns_for(toy) if column.char == "B"] == ["Bee"]


def test_the_descriptors_hold_what_the_tables_held():
    """What emucore knew of the shipped systems before their facts moved into the descriptors."""
    known = systems()
    assert {name for name, s in known.items() if s.word_bits == 8} == {
        "Nes", "Atari2600", "Sms", "GameGear", "GameBoy", "GbColor", "PCEngine"}
    assert {name: s.movie_platform for name, s in known.items() if s.movie_platform != name} == {
        "Genesis": "GEN", "Snes": "SNES", "Nes": "NES", "Atari2600": "A26"}
    assert {s.bizhawk_platform: name for name, s in known.items() if s.bizhawk_platform} == {
        "GEN": "Genesis", "SNES": "Snes", "NES": "Nes", "A26": "Atari2600", "GB": "GameBoy", "GBC": "GbColor",
        "GBA": "GbAdvance", "SMS": "Sms", "GG": "GameGear", "32X": "32x", "PCE": "PCEngine", "SAT": "Saturn",
        "N64": "N64", "NDS": "NintendoDs"}
    assert {name for name, s in known.items() if s.console_switches} == {"Atari2600", "Sms"}
    assert {name: s.rom_header_bytes for name, s in known.items() if s.rom_header_bytes} == {"Nes": 16}
    assert known["Genesis"].ram_ranges == ((0xFF0000, 0x1000000),)
    assert {name for name, s in known.items() if s.rom_format is None} == {
        "FBNeo", "N64", "NintendoDs", "PCEngine", "SCD", "Saturn"}
