"""emucore.integration's readers and writers of single files, which everything else goes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emucore import data
from emucore.integration import (
    DataFile,
    IntegrationError,
    Variable,
    find_rom,
    is_scenario_file,
    read_data_file,
    read_metadata,
    read_rom_sha,
    state_file,
    state_names,
    write_data_file,
    write_metadata,
)


def test_data_file_keeps_the_entries_stable_retro_skips(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text(json.dumps({"info": {"lives": {"address": 16, "type": "|u1"},
                                         "odd": {"address": 5, "type": "u1", "mask": 3}}}))
    read = read_data_file(path)
    assert read.variables == {"lives": Variable(16, "|u1")}
    assert read.skipped == {"odd": Variable(5, "u1", 3)}
    read.variables["score"] = Variable(32, ">u2")
    write_data_file(path, read)
    again = json.loads(path.read_text())["info"]
    assert again == {"lives": {"address": 16, "type": "|u1"}, "odd": {"address": 5, "type": "u1", "mask": 3},
                     "score": {"address": 32, "type": ">u2"}}
    assert read_data_file(tmp_path / "none.json", missing_ok=True) == DataFile()
    with pytest.raises(IntegrationError, match="none.json"):
        read_data_file(tmp_path / "none.json")
    path.write_bytes(b"\xff{")
    with pytest.raises(IntegrationError, match="not UTF-8"):
        read_data_file(path)


def test_rom_sha_is_read_as_stable_retro_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "rom.sha"
    path.write_bytes(b"ABCDEF0123456789abcdef0123456789ABCDEF01\r\n\n\xff\n")
    assert read_rom_sha(path) == ["abcdef0123456789abcdef0123456789abcdef01", "\ufffd"]
    assert data.read_rom_sha is read_rom_sha
    with pytest.raises(IntegrationError, match="cannot read"):
        read_rom_sha(tmp_path / "missing.sha")


def test_folder_files_by_name(tmp_path: Path) -> None:
    assert find_rom(tmp_path) is None and state_names(tmp_path) == []
    (tmp_path / "rom.sfc").write_bytes(b"s")
    (tmp_path / "rom.md").write_bytes(b"m")
    assert find_rom(tmp_path) == tmp_path / "rom.md"  # stable-retro's order of extensions, not the alphabet
    for name in ("Level2.state", "Level1.state", ".state", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "Dir.state").mkdir()
    assert state_names(tmp_path) == ["Level1", "Level2"]
    assert state_file(tmp_path, "Level1") == tmp_path / "Level1.state"


def test_metadata_and_scenario_files(tmp_path: Path) -> None:
    write_metadata(tmp_path / "metadata.json", {"default_state": "Level1", "a": [1]})
    assert (tmp_path / "metadata.json").read_text() == '{\n  "a": [\n    1\n  ],\n  "default_state": "Level1"\n}\n'
    assert read_metadata(tmp_path / "metadata.json") == {"default_state": "Level1", "a": [1]}
    (tmp_path / "contest.json").write_text('{"done": {"variables": {}}}')
    (tmp_path / "other.json").write_text('{"info": {}}')
    (tmp_path / "broken.json").write_text('{"done": ')
    assert is_scenario_file(tmp_path / "contest.json")
    assert not any(is_scenario_file(tmp_path / n) for n in ("other.json", "broken.json", "missing.json"))
