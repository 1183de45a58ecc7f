"""emucore.data: integration sets, lookup order, listings and hashes, checked against stable-retro."""

from __future__ import annotations

import collections
import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from emucore import data
from emucore.data import Integrations
from emucore.data.integrations import resolve
from emucore.paths import integrations_dir
from tests.conftest import GENESIS_ROM, NES_ROM

OURS = str(integrations_dir())
STABLE_ROOT = data.path()
needs_stable_retro = pytest.mark.skipif(
    STABLE_ROOT is None or not os.path.isfile(os.path.join(STABLE_ROOT or "", "stable/Airstriker-Genesis-v0/rom.md")),
    reason="stable-retro (with Airstriker-Genesis-v0) is not installed",
)


pytestmark = pytest.mark.usefixtures("clean_data_state")


def make_game(root: Path, name: str, files: dict[str, str | bytes]) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for file, content in files.items():
        if isinstance(content, bytes):
            (folder / file).write_bytes(content)
        else:
            (folder / file).write_text(content)
    return folder


# -- lookup ------------------------------------------------------------------------------------


def test_per_file_resolution_across_sets(tmp_path, monkeypatch):
    root = tmp_path / "root"
    for set_name in ("stable", "experimental", "contrib"):
        make_game(root / set_name, "Game-Nes", {"rom.sha": "", set_name: "", "shared": set_name})
    make_game(root / "stable", "Game-Nes", {"only_stable": ""})
    custom = tmp_path / "custom"
    make_game(custom, "Game-Nes", {"custom": "", "shared": "custom", "scenario.json": "{}"})
    # a file of our own game that only stable-retro's stable set has
    make_game(root / "stable", "StudioDemo-Nes", {"rom.sha": "", "only_stable.txt": ""})
    monkeypatch.setenv("RETRO_DATA_PATH", str(root))
    Integrations.add_custom_path(custom)

    def where(file, inttype=Integrations.ALL):
        found = data.get_file_path("Game-Nes", file, inttype)
        return found and Path(found).parent.parent

    assert where("shared") == root / "contrib"
    assert where("shared", Integrations.EXPERIMENTAL | Integrations.CUSTOM_ONLY) == root / "experimental"
    assert where("shared", Integrations.CUSTOM) == custom
    assert where("shared", Integrations.STABLE) == root / "stable"
    assert where("only_stable") == root / "stable"
    assert where("custom") == custom and where("scenario.json") == custom
    assert where("custom", Integrations.DEFAULT) is None
    assert where("nothing") is None
    assert data.get_file_path("StudioDemo-Nes", "rom.sha") == os.path.join(OURS, "StudioDemo-Nes", "rom.sha")
    only_stable = root / "stable" / "StudioDemo-Nes" / "only_stable.txt"
    assert data.get_file_path("StudioDemo-Nes", "only_stable.txt") == str(only_stable)
    assert data.list_games(Integrations.ALL) == ["Game-Nes", "StudioDemo-Genesis", "StudioDemo-Nes"]
    assert data.list_games(Integrations.CUSTOM_ONLY) == []  # the custom folder has no rom.sha


@needs_stable_retro
def test_custom_files_override_stable_per_file(tmp_path):
    custom = tmp_path / "custom"
    make_game(custom, "Airstriker-Genesis-v0", {"scenario.json": json.dumps({"done": {}}), "Extra.state": b"x"})
    Integrations.add_custom_path(custom)
    scenario = data.get_file_path("Airstriker-Genesis-v0", "scenario.json", Integrations.CUSTOM)
    assert scenario == str(custom / "Airstriker-Genesis-v0" / "scenario.json")
    rom = data.get_file_path("Airstriker-Genesis-v0", "rom.md", Integrations.CUSTOM)
    assert rom == os.path.join(STABLE_ROOT, "stable", "Airstriker-Genesis-v0", "rom.md")
    assert data.list_states("Airstriker-Genesis-v0", Integrations.CUSTOM) == ["Extra", "Level1"]
    assert data.list_states("Airstriker-Genesis-v0") == ["Level1"]
    default_scenario = data.get_file_path("Airstriker-Genesis-v0", "scenario.json")
    assert default_scenario == os.path.join(STABLE_ROOT, "stable", "Airstriker-Genesis-v0", "scenario.json")


def test_absolute_file_names(tmp_path):
    state = tmp_path / "elsewhere.state"
    state.write_bytes(b"x")
    assert data.get_file_path("StudioDemo-Nes", str(state)) == str(state)
    assert data.get_file_path("NoSuchGame", state) == str(state)
    assert data.get_file_path("StudioDemo-Nes", str(tmp_path / "missing.state")) is None


def test_emucore_data_path_is_enabled_by_default(tmp_path, monkeypatch):
    custom = tmp_path / "games"
    make_game(custom, "MyGame-Nes", {"rom.sha": "00\n", "rom.nes": b"NES\x1a", "Start.state": b""})
    with pytest.raises(FileNotFoundError, match="^No romfiles found for game: MyGame-Nes$"):
        data.get_romfile_path("MyGame-Nes")
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(custom))
    assert "MyGame-Nes" in data.list_games()
    assert data.get_romfile_path("MyGame-Nes") == str(custom / "MyGame-Nes" / "rom.nes")
    assert data.list_states("MyGame-Nes") == ["Start"]
    assert str(Integrations.DEFAULT) == "stable|custom"
    assert "MyGame-Nes" not in data.list_games(Integrations.STABLE)


def test_add_custom_integration_finds_the_game(tmp_path):
    make_game(tmp_path, "Mine-Genesis", {"rom.sha": "", "rom.md": b""})
    Integrations.add_custom_path(tmp_path)
    assert "Mine-Genesis" not in data.list_games()
    assert "Mine-Genesis" in data.list_games(Integrations.CUSTOM_ONLY)
    Integrations.clear_custom_paths()
    data.add_custom_integration(tmp_path)
    assert "Mine-Genesis" in data.list_games()
    assert data.get_romfile_path("Mine-Genesis").endswith("Mine-Genesis/rom.md")


def test_missing_and_unreadable_folders(tmp_path, monkeypatch):
    Integrations.add_custom_path(tmp_path / "nope")
    with pytest.raises(FileNotFoundError):
        data.list_games(Integrations.CUSTOM)
    assert data.list_games(Integrations.STABLE)  # a registered folder is only searched when enabled
    assert "StudioDemo-Nes" in [g.name for g in data.find_games(Integrations.CUSTOM)]
    Integrations.clear_custom_paths()
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(tmp_path / "also-nope"))
    assert "StudioDemo-Nes" in data.list_games()  # a stale environment entry is not an error
    monkeypatch.setenv("RETRO_DATA_PATH", str(tmp_path / "no-root"))
    assert data.list_games() == ["StudioDemo-Genesis", "StudioDemo-Nes"]
    locked = make_game(tmp_path / "locked", "Locked-Nes", {"rom.sha": "", "a.state": b""})
    Integrations.add_custom_path(tmp_path / "locked")
    locked.chmod(0)
    try:
        assert data.list_states("Locked-Nes", Integrations.CUSTOM_ONLY) in ([], ["a"])
        data.find_games(Integrations.CUSTOM_ONLY)
    finally:
        locked.chmod(0o755)


@needs_stable_retro
def test_real_games_states_and_roms():
    games = data.list_games()
    assert {"StudioDemo-Genesis", "StudioDemo-Nes", "Airstriker-Genesis-v0"} <= set(games)
    assert games == sorted(set(games))
    assert data.list_states("Airstriker-Genesis-v0") == ["Level1"]
    assert data.list_scenarios("Airstriker-Genesis-v0") == ["scenario"]
    assert data.get_romfile_path("Airstriker-Genesis-v0") == os.path.join(
        STABLE_ROOT, "stable", "Airstriker-Genesis-v0", "rom.md"
    )
    assert data.get_romfile_path("StudioDemo-Nes") == os.path.join(OURS, "StudioDemo-Nes", "rom.nes")
    # games without a ROM are listed, but have no romfile
    assert "SonicTheHedgehog-Genesis-v0" in games
    with pytest.raises(FileNotFoundError, match="^No romfiles found for game: SonicTheHedgehog-Genesis-v0$"):
        data.get_romfile_path("SonicTheHedgehog-Genesis-v0")
    assert data.get_file_path("SonicTheHedgehog-Genesis-v0", "rom.sha")
    assert data.verify_hash("Airstriker-Genesis-v0") == []
    assert data.verify_hash("StudioDemo-Nes") == [] and data.verify_hash("StudioDemo-Genesis") == []


def test_list_scenarios_filters_files(tmp_path):
    make_game(
        tmp_path,
        "Scen-Nes",
        {
            "rom.sha": "",
            "scenario.json": json.dumps({"reward": {"variables": {}}}),
            "xpos.json": json.dumps({"rewards": []}),
            "contest.json": json.dumps({"done": {"condition": "any"}}),
            "data.json": json.dumps({"info": {}}),
            "metadata.json": json.dumps({"default_state": "x", "reward": None}),
            "list.json": "[1, 2]",
            "broken.json": "{",
            "_hidden.state": b"",
            "Level.1.state": b"",
            ".dot.state": b"",
        },
    )
    Integrations.add_custom_path(tmp_path)
    assert data.list_scenarios("Scen-Nes", Integrations.CUSTOM_ONLY) == ["contest", "scenario", "xpos"]
    assert data.list_states("Scen-Nes", Integrations.CUSTOM_ONLY) == ["Level.1"]
    assert data.list_states("NoSuchGame", Integrations.ALL) == []


def test_original_romfile_and_fbneo_helpers(tmp_path):
    metadata = json.dumps({"original_rom_name": "mk.zip"})
    make_game(tmp_path, "Mk-Arcade", {"rom.sha": "", "rom.zip": b"z", "metadata.json": metadata})
    Integrations.add_custom_path(tmp_path)
    inttype = Integrations.CUSTOM_ONLY
    assert data.get_original_romfile_path("Mk-Arcade", inttype).endswith("Mk-Arcade/rom.zip")
    (tmp_path / "Mk-Arcade" / "mk.zip").write_bytes(b"z")
    assert data.get_original_romfile_path("Mk-Arcade", inttype).endswith("Mk-Arcade/mk.zip")
    assert data.get_fbneo_rom_name("Mk-Arcade", inttype) == "mk.zip"
    assert not data.is_fbneo_game("Mk-Arcade", inttype)
    assert data.get_fbneo_rom_name("StudioDemo-Nes") is None


def test_find_games(tmp_path):
    make_game(tmp_path, "NoRom-Snes-v0", {"rom.sha": ""})
    make_game(tmp_path, "Odd-Thing", {"rom.sha": ""})
    Integrations.add_custom_path(tmp_path)
    reads: collections.Counter = collections.Counter()  # directory -> times listed

    def counted(read):
        def read_once(path):
            reads[os.path.realpath(path)] += 1
            return read(path)

        return read_once

    with pytest.MonkeyPatch.context() as patch:  # one listing of each set and of each game folder, no more
        patch.setattr(os, "scandir", counted(os.scandir))
        patch.setattr(os, "listdir", counted(os.listdir))
        games = data.find_games()
    sets = {os.path.realpath(folder) for folder in resolve(Integrations.ALL).folders}
    assert sets <= set(reads) and max(reads.values()) == 1
    assert all(folder in sets or os.path.dirname(folder) in sets for folder in reads)
    by_name = {g.name: g for g in games}
    assert [g.name for g in games] == data.list_games(Integrations.ALL)
    assert by_name["StudioDemo-Nes"] == (
        "StudioDemo-Nes",
        Path(OURS, "StudioDemo-Nes"),
        True,
        "Nes",
    )
    assert by_name["NoRom-Snes-v0"].has_rom is False and by_name["NoRom-Snes-v0"].system == "Snes"
    assert by_name["Odd-Thing"].system is None
    if STABLE_ROOT:
        assert by_name["Airstriker-Genesis-v0"].has_rom
        assert by_name["Airstriker-Genesis-v0"].system == "Genesis"


def test_systems_tables():
    assert data.get_romfile_system("x/rom.md") == "Genesis"
    assert data.get_romfile_system("a.zip") == "FBNeo"
    assert data.get_romfile_system("a.bin") == "N64"
    with pytest.raises(Exception, match="^Unsupported rom type at path: game.xyz$"):
        data.get_romfile_system("game.xyz")
    info = data.get_system_info("Genesis")
    assert info["lib"] == "genesis_plus_gx" and info["ext"] == ["md"] and info["rambase"] == 0xFF0000
    assert info["overlay"] == ["=", ">", 2] and info["buttons"][0] == "B"
    assert "overlay" not in data.get_system_info("Nes")
    with pytest.raises(KeyError, match="Unsupported system type: Amiga"):
        data.get_system_info("Amiga")
    assert data.EMU_CORES["Nes"] == "fceumm_libretro.so"
    assert list(data.EMU_EXTENSIONS)[:2] == [".32x", ".a26"]
    assert data.system_from_game_name("Foo-Arcade") == "FBNeo"
    assert data.system_from_game_name("Foo-Genesis-v12") == "Genesis"
    assert data.rom_extension_for_game("Foo-N64") == ".n64"
    assert data.system_from_game_name("Foo-Amiga") is None


# -- hashes ------------------------------------------------------------------------------------


def test_groom_rom(tmp_path):
    nes = NES_ROM.read_bytes()
    out, sha = data.groom_rom("game.NES", nes)
    assert out == nes and sha == hashlib.sha1(nes[16:]).hexdigest()
    with open(NES_ROM, "rb") as f:
        assert data.groom_rom("rom.nes", f) == (nes, sha)
    genesis = GENESIS_ROM.read_bytes()
    assert data.groom_rom("air.gen", genesis) == (genesis, hashlib.sha1(genesis).hexdigest())
    with pytest.raises(ValueError, match="ROM is too big"):
        data.groom_rom("big.bin", bytes(data.MAX_ROM_BYTES + 1))
    assert data.candidate_hashes("x.bin", nes) == [sha, hashlib.sha1(nes).hexdigest()]


def test_known_hashes_and_verify(tmp_path):
    nes = NES_ROM.read_bytes()
    make_game(tmp_path, "Wrong-Nes", {"rom.sha": "ab\r\n", "rom.nes": nes})
    make_game(tmp_path, "Empty-Genesis", {"rom.sha": ""})
    make_game(tmp_path, "Unknown-Amiga", {"rom.sha": "cd\n"})
    Integrations.add_custom_path(tmp_path)
    known = data.get_known_hashes(Integrations.CUSTOM_ONLY)
    assert known == {"ab": ("Wrong-Nes", ".nes", str(tmp_path))}
    assert data.verify_hash("Wrong-Nes", Integrations.CUSTOM_ONLY) == [("Wrong-Nes", "sha mismatch")]
    demo_sha = data.read_rom_sha(Path(OURS, "StudioDemo-Nes", "rom.sha"))[0]
    assert data.get_known_hashes()[demo_sha] == ("StudioDemo-Nes", ".nes", OURS)


# -- parity with stable-retro's own module -----------------------------------------------------


@pytest.fixture(scope="module")
def sr_data():
    sr = pytest.importorskip("stable_retro.data")
    if STABLE_ROOT is None:
        pytest.skip("no stable-retro data")
    return sr


@pytest.fixture
def sr(sr_data):
    sr_data.Integrations.clear_custom_paths()
    sr_data.DefaultIntegrations.reset()
    return sr_data


def test_list_games_matches_stable_retro(sr):
    theirs = sr.list_games(sr.Integrations.ALL)
    ours = data.list_games(Integrations.ALL)
    assert len(theirs) > 1000
    assert ours == sorted(set(theirs) | {"StudioDemo-Genesis", "StudioDemo-Nes"})
    assert data.list_games(Integrations.STABLE) == sorted(
        set(sr.list_games(sr.Integrations.STABLE)) | {"StudioDemo-Genesis", "StudioDemo-Nes"}
    )


def test_states_and_scenarios_match_stable_retro(sr):
    games = sr.list_games(sr.Integrations.ALL)
    sample = random.Random(1).sample(games, 50) + ["Airstriker-Genesis-v0", "Pong-Atari2600-v0"]
    for game in sample:
        assert data.list_states(game, Integrations.ALL) == sr.list_states(game, sr.Integrations.ALL), game
        assert data.list_scenarios(game, Integrations.ALL) == sr.list_scenarios(game, sr.Integrations.ALL), game
        assert data.list_states(game) == sr.list_states(game), game


def test_known_hashes_match_stable_retro(sr):
    theirs = {
        sha: (game, ext, os.path.realpath(folder)) for sha, (game, ext, folder) in sr.get_known_hashes().items() if sha
    }
    ours = {
        sha: (game, ext, os.path.realpath(folder))
        for sha, (game, ext, folder) in data.get_known_hashes().items()
        if folder != OURS
    }
    assert len(theirs) > 1000
    assert ours == theirs


def test_romfile_paths_match_stable_retro(sr):
    for game in ("Airstriker-Genesis-v0", "SonicTheHedgehog-Genesis-v0"):
        try:
            expected = sr.get_romfile_path(game, sr.Integrations.ALL)
        except FileNotFoundError:
            expected = None
        try:
            got = data.get_romfile_path(game, Integrations.ALL)
        except FileNotFoundError:
            got = None
        assert got == expected


def test_system_tables_match_stable_retro(sr):
    assert data.EMU_EXTENSIONS == sr.EMU_EXTENSIONS
    assert data.EMU_CORES == sr.EMU_CORES
    for system, theirs in sr.EMU_INFO.items():
        ours = data.get_system_info(system)
        for key in ("lib", "ext", "buttons", "keybinds", "actions"):
            assert ours[key] == theirs[key], (system, key)
        assert ours["rambase"] == theirs.get("rambase", 0), system
        for key in ("types", "overlay"):
            assert ours.get(key) == theirs.get(key), (system, key)
