"""What a name, folder or ROM opens, and what cannot be opened said naming it (the entry points of the app and
its window: ``tests/studio/qt/test_opening.py``)."""

from __future__ import annotations

import shutil

import pytest

from emucore.paths import integrations_dir
from studio.model.opening import OpenError, resolve_game
from studio.model.play.session import Session


def test_resolve_names_the_folder_and_the_problem(romless, tmp_path):
    with pytest.raises(OpenError, match=r"NoRom-Genesis: this integration has no ROM"):
        resolve_game(str(romless), None)
    with pytest.raises(OpenError, match="nowhere: no such file, folder or integration"):
        resolve_game(str(tmp_path / "nowhere"), None)
    (romless / "rom.md").write_bytes((integrations_dir() / "StudioDemo-Genesis" / "rom.md").read_bytes())
    with pytest.raises(OpenError, match=r"NoSuch\.state: no such state"):
        resolve_game(str(romless), "NoSuch")
    (romless / "metadata.json").write_text("{not json")  # opens at power-on; the session reports it
    assert resolve_game(str(romless), None)[1] is None


def test_resolve_finds_studio_integrations_by_name(ale_rom):
    Session(ale_rom("pong", "Pong.a26")).close()
    rom, state = resolve_game("Pong-Atari2600", None)
    assert rom.name == "rom.a26" and rom.parent.name == "Pong-Atari2600" and state is None


def test_another_rom_of_the_same_file_name_gets_its_own_integration(tmp_path):
    """Two different ROMs both named Game.nes: the second is not run under the first one's folder."""

    from studio.model.opening import integration_folder_for

    first, second = tmp_path / "a" / "Game.nes", tmp_path / "b" / "Game.nes"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copyfile(integrations_dir() / "StudioDemo-Nes" / "rom.nes", path)
    body = bytearray(second.read_bytes())
    body[100] ^= 0xFF
    second.write_bytes(bytes(body))
    folder_a, created_a = integration_folder_for(first)
    folder_b, created_b = integration_folder_for(second)
    assert created_a and created_b and folder_a.name == "Game-Nes" and folder_b.name == "Game2-Nes"
    assert integration_folder_for(first) == (folder_a, False) and integration_folder_for(second) == (folder_b, False)
