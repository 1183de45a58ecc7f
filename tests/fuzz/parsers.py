"""Every parser a user feeds, as (name, weight, target, strategy of contents, payload): the table the
fuzz tests run and ``scripts/fuzz.sh`` reports on. A weight is the parser's share of the case budget."""

from __future__ import annotations

import glob
import gzip
import json
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from emucore.paths import integrations_dir
from tests.fuzz.lua_programs import lua_programs
from tests.fuzz.mutations import byte_damage, json_file, special_files, state_file, zip_file

ROOT = Path(__file__).resolve().parents[2]
NES = integrations_dir() / "StudioDemo-Nes"
GENESIS = integrations_dir() / "StudioDemo-Genesis"
TEST_ROMS = ROOT.parent / "shared" / "stable-retro-test-roms"
HEADER_BYTES = 0x200  # what a ROM-header mutation may touch


@dataclass(frozen=True)
class Parser:
    name: str
    weight: float
    target: str
    contents: Callable[[], st.SearchStrategy]
    payload: Callable[[Any], dict]


def _keys(*modules: str) -> list[str]:
    """The key names a reader looks for: the identifiers quoted in its source."""
    found: set[str] = set()
    for module in modules:
        found |= set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]{0,30})"', (ROOT / module).read_text()))
    return sorted(found)


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def _integration_file(name: str, game: Path, seed: Callable[[], st.SearchStrategy], weight: float) -> Parser:
    return Parser(f"{name} ({game.name.split('-')[1]})", weight, "integration", seed,
                  lambda content: {"game": game.name, "file": name, "content": content})


def _json_file(name: str, game: Path, modules: tuple[str, ...], weight: float) -> Parser:
    return _integration_file(name, game, lambda: json_file(_json(game / name), _keys(*modules)), weight)


@cache
def _atari_rom() -> Path | None:
    found = glob.glob(str(Path(sys.prefix) / "lib" / "python3*" / "site-packages" / "ale_py" / "roms" / "qbert.bin"))
    if not found:
        return None
    copy = Path(tempfile.mkdtemp(prefix="emucore-fuzz-rom-")) / "qbert.a26"
    copy.write_bytes(Path(found[0]).read_bytes())
    return copy


def roms() -> dict[str, Path]:
    """A ROM per core we run: the homebrew demos, Q*bert from ale-py, and stable-retro's test ROMs."""
    found = {"Nes": NES / "rom.nes", "Genesis": GENESIS / "rom.md"}
    if _atari_rom() is not None:
        found["Atari2600"] = _atari_rom()
    for rom in sorted(TEST_ROMS.glob("*.*")) if TEST_ROMS.is_dir() else []:
        if rom.suffix in (".sfc", ".gb", ".gba", ".gg", ".sms", ".pce", ".32x"):
            found.setdefault(rom.suffix.lstrip("."), rom)
    return found


@cache
def good_state(rom: Path) -> bytes:
    import emucore

    with emucore.Emulator(str(rom)) as emulator:
        emulator.run_frames(60)
        return emulator.get_state()


def _state_parser(system: str, rom: Path, packed: bool, weight: float) -> Parser:
    return Parser(f"state {system} ({'gzip' if packed else 'raw'})", weight, "state",
                  lambda: state_file(good_state(rom)),
                  lambda content: {"rom": str(rom), "gzip": packed, "content": content})


def _rom_parser(system: str, rom: Path, weight: float) -> Parser:
    def contents() -> st.SearchStrategy:
        data = rom.read_bytes()
        return byte_damage(data[:HEADER_BYTES], 6).map(lambda head: head + data[HEADER_BYTES:]) | special_files()
    return Parser(f"ROM header {system}", weight, "rom", contents,
                  lambda content: {"rom": str(rom), "content": content})


@cache
def bk2_seed() -> bytes:
    import emucore

    folder = Path(tempfile.mkdtemp(prefix="emucore-fuzz-bk2-"))
    env = emucore.make("StudioDemo-Nes", record=str(folder))
    env.reset(seed=0)
    for _ in range(40):
        env.step(env.action_space.sample())
    env.close()
    return next(folder.glob("*.bk2")).read_bytes()


FM2_SEED = (b"version 3\nemuVersion 22020\nrerecordCount 0\npalFlag 0\nromFilename StudioDemo\n"
            b"romChecksum base64:AAAAAAAAAAAAAAAAAAAAAA==\nguid 00000000-0000-0000-0000-000000000000\n"
            b"fourscore 0\nmicrophone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\n"
            + b"|0|R.......|||\n|0|.L..T...|||\n|0|........|||\n" * 20)

STUDIO_FILES = {
    "settings.json": "studio/model/settings.py", "session.json": "studio/model/play/recovery.py",
    "states.json": "studio/model/play/states.py", "labels.json": "studio/model/search/state_labels.py",
    "provenance.json": "studio/model/variables/provenance.py",
    "screen_values.json": "studio/model/search/screen_values.py",
    "done_marks/index.json": "studio/model/scenario/done_marks.py",
    "searches/book.json": "studio/model/search/search_book_store.py",
    "regression.json": "studio/model/scenario/regression.py", "episodes/episodes.json": "studio/model/play/episodes.py",
}


def _studio_parser(name: str, module: str) -> Parser:
    return Parser(f"studio {name}", 0.6, "studio", lambda: json_file({}, _keys(module)),
                  lambda content: {"file": name, "content": content})


def parsers() -> list[Parser]:
    table = [
        _json_file("data.json", NES, ("emucore/integration/datafile.py",), 8),
        _json_file("data.json", GENESIS, ("emucore/integration/datafile.py",), 4),
        _json_file("scenario.json", NES, ("emucore/integration/scenariofile.py", "emucore/scenario/model.py"), 8),
        _json_file("scenario.json", GENESIS, ("emucore/integration/scenariofile.py", "emucore/scenario/model.py"), 4),
        _json_file("metadata.json", NES, ("emucore/integration/metadatafile.py",), 6),
        _integration_file("rom.sha", NES, lambda: byte_damage((NES / "rom.sha").read_bytes()) | special_files(), 2),
        _integration_file("Start.state", NES, lambda: byte_damage((NES / "Start.state").read_bytes(), 6)
                          | st.binary(max_size=64).map(lambda b: gzip.compress(b)) | special_files(), 4),
        Parser("movie .bk2", 8, "movie", lambda: zip_file(bk2_seed()), lambda c: {"suffix": "bk2", "content": c}),
        Parser("movie .fm2", 4, "movie", lambda: byte_damage(FM2_SEED, 6) | special_files(),
               lambda c: {"suffix": "fm2", "content": c}),
        Parser("Lua scripts", 12, "lua", lambda: st.one_of(lua_programs(), lua_programs(),
                                                            lua_programs().flatmap(byte_damage)),
               lambda c: {"content": c}),
    ]
    for system, rom in roms().items():
        table += [_state_parser(system, rom, True, 3), _state_parser(system, rom, False, 3),
                  _rom_parser(system, rom, 1.5)]
    table += [_studio_parser(name, module) for name, module in STUDIO_FILES.items()]
    return table
