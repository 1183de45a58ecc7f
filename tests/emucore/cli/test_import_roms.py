"""emucore.cli.import_roms: matching ROMs in files, folders and (nested, broken) zips, on isolated data."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from emucore import data
from emucore.cli import import_roms as importer
from emucore.data import DefaultIntegrations, Integrations, installer
from tests.conftest import GENESIS_ROM, NES_ROM

CUSTOM = Integrations.CUSTOM_ONLY


def zip_bytes(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as z:
        for name, content in entries.items():
            z.writestr(name, content)
    return buffer.getvalue()


FBNEO_SET = zip_bytes({"mk.u1": b"\x01" * 300, "mk.u2": b"\x02" * 300})
FAKE_NES = b"NES\x1a\x01\x00\x00\x00" + bytes(8) + bytes(range(256)) * 64


@pytest.fixture
def custom(tmp_path, monkeypatch) -> Path:
    """A custom set with our homebrew games (ROMs removed) and two made-up games; nothing else is searched."""
    monkeypatch.delenv("EMUCORE_DATA_PATH", raising=False)
    monkeypatch.setenv("RETRO_DATA_PATH", str(tmp_path / "empty-root"))
    root = tmp_path / "custom"
    for game in ("StudioDemo-Nes", "StudioDemo-Genesis"):
        shutil.copytree(NES_ROM.parent.parent / game, root / game, ignore=shutil.ignore_patterns("rom.nes", "rom.md"))
    fake = root / "FakeSet-Arcade"
    fake.mkdir()
    (fake / "rom.sha").write_text(hashlib.sha1(FBNEO_SET).hexdigest() + "\n")
    (fake / "metadata.json").write_text(json.dumps({"original_rom_name": "fakeset.zip"}))
    nes = root / "Fake-Nes"
    nes.mkdir()
    (nes / "rom.sha").write_text(hashlib.sha1(FAKE_NES[16:]).hexdigest() + "\n")
    (nes / "metadata.json").write_text(json.dumps({"original_rom_name": "../escape.nes"}))
    Integrations.clear_custom_paths()
    Integrations.add_custom_path(root)
    yield root
    Integrations.clear_custom_paths()
    DefaultIntegrations.reset()


def run(paths, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    written = importer.import_paths(paths, inttype=CUSTOM, out=out, err=err, **kwargs)
    return written, out.getvalue(), err.getvalue()


def test_imports_from_folders_and_nested_zips(custom, tmp_path):
    roms = tmp_path / "roms"
    (roms / "sub").mkdir(parents=True)
    (roms / "sub" / "air.gen").write_bytes(GENESIS_ROM.read_bytes())
    inner = zip_bytes({"deep/game.bin": NES_ROM.read_bytes()})  # iNES header, not named .nes
    (roms / "outer.zip").write_bytes(zip_bytes({"inner.zip": inner, "readme.txt": b"hello"}))
    (roms / "Renamed.ZIP").write_bytes(FBNEO_SET)
    (roms / "fake.nes").write_bytes(FAKE_NES)
    (roms / "copy-of-air.bin").write_bytes(GENESIS_ROM.read_bytes())
    os.mkfifo(roms / "a-fifo")  # must be skipped, not read (reading would block)

    written, out, err = run([roms])

    assert err == ""
    assert out.count("Importing StudioDemo-Genesis") == 1
    assert out.splitlines()[-1] == "Imported 4 games"
    files = {p.relative_to(custom).as_posix() for _, p in written}
    assert files == {
        "StudioDemo-Genesis/rom.md",
        "StudioDemo-Nes/rom.nes",
        "FakeSet-Arcade/rom.zip",
        "FakeSet-Arcade/fakeset.zip",
        "Fake-Nes/rom.nes",
    }
    assert (custom / "StudioDemo-Genesis/rom.md").read_bytes() == GENESIS_ROM.read_bytes()
    nes = (custom / "StudioDemo-Nes/rom.nes").read_bytes()
    assert nes == NES_ROM.read_bytes() and nes[:4] == b"NES\x1a"  # written with its header
    assert (custom / "Fake-Nes/rom.nes").read_bytes() == FAKE_NES
    assert not (tmp_path / "escape.nes").exists()  # original_rom_name must be a plain file name
    assert (custom / "FakeSet-Arcade/fakeset.zip").read_bytes() == FBNEO_SET
    assert not list(custom.rglob("*.tmp"))
    assert data.verify_hash("StudioDemo-Nes", CUSTOM) == []
    assert data.get_romfile_path("StudioDemo-Genesis", CUSTOM) == str(custom / "StudioDemo-Genesis/rom.md")


def test_broken_zips_are_reported_not_fatal(custom, tmp_path):
    roms = tmp_path / "roms"
    roms.mkdir()
    (roms / "corrupt.zip").write_bytes(b"PK\x03\x04" + os.urandom(200))
    (roms / "truncated.zip").write_bytes(zip_bytes({"a.bin": os.urandom(5000)})[:3000])
    crc = bytearray(zip_bytes({"bad.bin": b"A" * 100, "good.nes": NES_ROM.read_bytes()}, zipfile.ZIP_STORED))
    crc[crc.index(b"A" * 100) + 50] ^= 0xFF
    (roms / "crc.zip").write_bytes(bytes(crc))
    lying = bytearray(zip_bytes({"small.bin": b"B" * 1000}, zipfile.ZIP_STORED))
    central = lying.index(b"PK\x01\x02")
    lying[central + 24 : central + 28] = (10).to_bytes(4, "little")  # declares 10 bytes, holds 1000
    (roms / "lying.zip").write_bytes(bytes(lying))
    (roms / "z-after.gen").write_bytes(GENESIS_ROM.read_bytes())

    written, out, err = run([roms])

    assert "corrupt zip" in err and "corrupt.zip" in err and "truncated.zip" in err
    assert "crc.zip!bad.bin" in err and "lying.zip!small.bin" in err
    assert {game for game, _ in written} == {"StudioDemo-Nes", "StudioDemo-Genesis"}
    assert out.splitlines()[-1] == "Imported 2 games"


def test_size_limits(custom, tmp_path, monkeypatch):
    monkeypatch.setattr(installer, "MAX_ENTRY_BYTES", 4096)
    roms = tmp_path / "roms"
    roms.mkdir()
    (roms / "big.zip").write_bytes(zip_bytes({"game.nes": NES_ROM.read_bytes()}))  # larger than 4 KiB inside
    written, out, err = run([roms])
    assert written == [] and out.splitlines()[-1] == "Imported 0 games"
    assert "over the size limit" in err
    assert not (custom / "StudioDemo-Nes/rom.nes").exists()


def test_deep_nesting_is_bounded(custom, tmp_path, monkeypatch):
    monkeypatch.setattr(installer, "MAX_ZIP_DEPTH", 2)
    blob = zip_bytes({"game.nes": NES_ROM.read_bytes()})
    for _ in range(3):
        blob = zip_bytes({"next.zip": blob})
    (tmp_path / "deep.zip").write_bytes(blob)
    written, _, err = run([tmp_path / "deep.zip"])
    assert written == [] and "nested deeper" in err


def test_progress_bar(custom, tmp_path):
    (tmp_path / "a.gen").write_bytes(GENESIS_ROM.read_bytes())
    (tmp_path / "b.txt").write_bytes(b"nothing")
    _, _, err = run([tmp_path / "a.gen", tmp_path / "b.txt"], progress="force")
    assert "2/2" in err and "file/s" in err  # tqdm's bar
    _, _, quiet = run([tmp_path / "a.gen"], progress=True)  # a StringIO is not a terminal
    assert quiet == ""


def test_existing_identical_rom_is_kept(custom, tmp_path):
    target = custom / "StudioDemo-Genesis/rom.md"
    target.write_bytes(GENESIS_ROM.read_bytes())
    os.utime(target, (1, 1))
    (tmp_path / "again.md").write_bytes(GENESIS_ROM.read_bytes())
    written, out, _ = run([tmp_path / "again.md"])
    assert written == [("StudioDemo-Genesis", target)] and "Importing StudioDemo-Genesis" in out
    assert target.stat().st_mtime == 1


def test_main_and_merge(custom, tmp_path, capsys):
    Integrations.clear_custom_paths()
    (tmp_path / "set.zip").write_bytes(FBNEO_SET)
    assert importer.main(["--no-progress", "--custom", str(custom), str(tmp_path / "set.zip")]) == 0
    assert capsys.readouterr().out.splitlines() == ["Importing FakeSet-Arcade", "Imported 1 games"]
    assert (custom / "FakeSet-Arcade/rom.zip").read_bytes() == FBNEO_SET
    assert importer.main(["--no-progress", str(tmp_path / "missing")]) == 2  # a missing PATH is a bad argument
    assert "no such file" in capsys.readouterr().err

    (custom / "FakeSet-Arcade/rom.zip").unlink()
    (tmp_path / "fake.nes").write_bytes(FAKE_NES)
    written = data.merge(str(tmp_path / "fake.nes"), str(tmp_path / "set.zip"), str(tmp_path / "missing"))
    assert {game for game, _ in written} == {"Fake-Nes", "FakeSet-Arcade"}
    assert (custom / "FakeSet-Arcade/rom.zip").exists()
    assert capsys.readouterr().out == ""


def smd(rom: bytes) -> bytes:
    """``rom`` as a Super Magic Drive dump: a 512-byte header, then per 16 KiB block the odd bytes, then the even."""
    blocks = [rom[i:i + 0x4000] for i in range(0, len(rom), 0x4000)]
    return b"\x00" * 512 + b"".join(block[1::2] + block[0::2] for block in blocks)


def test_smd_dumps_are_deinterleaved_hashed_and_imported_as_the_plain_rom(custom, tmp_path):
    plain = GENESIS_ROM.read_bytes()
    assert data.parse_smd(smd(plain)[:512], smd(plain)[512:]) == plain
    assert data.groom_rom("game.smd", smd(plain)) == data.groom_rom("game.md", plain)
    assert data.parse_smd(b"h" * 512, b"x" * 0x4000) == b"h" * 512 + b"x" * 0x4000  # not a dump: unchanged
    (tmp_path / "roms").mkdir()
    (tmp_path / "roms" / "Demo.SMD").write_bytes(smd(plain))
    written, out, err = run([tmp_path / "roms"])
    assert err == "" and "Importing StudioDemo-Genesis" in out
    assert (custom / "StudioDemo-Genesis/rom.md").read_bytes() == plain
