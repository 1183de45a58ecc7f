"""Shared fixtures: our homebrew ROMs, and Airstriker from an installed stable-retro wheel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emucore.host.corefinder import find_library, stable_retro_cores_dir
from emucore.paths import integrations_dir
from tests.markers import core_loads_are_marked, count_core_loads, mark_core  # noqa: F401  (an autouse fixture)
from tests.ray_cluster import ray_cluster, ray_driver  # noqa: F401  (fixtures of the Ray tests)

ROOT = Path(__file__).resolve().parent.parent
NES_ROM = integrations_dir() / "StudioDemo-Nes" / "rom.nes"
GENESIS_ROM = integrations_dir() / "StudioDemo-Genesis" / "rom.md"

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def play(emulator, mask: int, frames: int) -> None:
    """Holds the buttons of ``mask`` (player 1) for ``frames`` frames, then releases them."""
    emulator.set_button_mask(mask)
    for _ in range(frames):
        emulator.step()
    emulator.set_button_mask(0)


def airstriker_folder() -> Path | None:
    cores = stable_retro_cores_dir()
    if cores is None:
        return None
    folder = cores.parent / "data" / "stable" / "Airstriker-Genesis-v0"
    return folder if (folder / "rom.md").is_file() else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Under pytest-xdist (``--dist loadgroup``) the Ray tests run on one worker: they share one cluster. The tests
    that start a libretro core are marked ``core`` (``tests/markers.py`` says how, and checks it as they run)."""
    for item in items:
        if item.get_closest_marker("ray"):
            item.add_marker(pytest.mark.xdist_group("ray"))
    mark_core(items)


def pytest_configure(config):
    count_core_loads()


@pytest.fixture(autouse=True, scope="session")
def no_user_studio_data(tmp_path_factory):
    """The studio's data folder is a lookup place of emucore: never the user's in tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RETRO_STUDIO_DATA", str(tmp_path_factory.mktemp("studio-data")))
        yield


@pytest.fixture
def clean_data_state(monkeypatch):
    """No custom folders, a STABLE default mask and no data env vars, before and after the test."""
    from emucore.data import DefaultIntegrations, Integrations

    monkeypatch.delenv("EMUCORE_DATA_PATH", raising=False)
    monkeypatch.delenv("RETRO_DATA_PATH", raising=False)
    Integrations.clear_custom_paths()
    DefaultIntegrations.reset()
    yield
    Integrations.clear_custom_paths()
    DefaultIntegrations.reset()


@pytest.fixture(scope="session")
def airstriker() -> Path:
    """The Airstriker-Genesis-v0 integration folder of the stable-retro wheel."""
    folder = airstriker_folder()
    if folder is None:
        pytest.skip("stable-retro (with Airstriker-Genesis-v0) is not installed")
    return folder


@pytest.fixture
def ale_rom(tmp_path):
    """A copy of an Atari 2600 ROM from the ale-py wheel, under a new file name with the ``.a26`` extension."""

    def copy(name: str, as_name: str) -> Path:
        try:
            import ale_py.roms
        except ImportError:
            pytest.skip("ale-py (which ships the Atari 2600 ROMs) is not installed")
        source = Path(ale_py.roms.__file__).parent / f"{name}.bin"
        if not source.is_file():
            pytest.skip(f"ale-py has no {name}.bin")
        target = tmp_path / "roms" / as_name
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(source.read_bytes())
        return target

    return copy


def require_core(lib: str) -> None:
    if not find_library(lib):
        pytest.skip(f"the {lib} core is not installed")


@pytest.fixture
def nes_rom() -> Path:
    return NES_ROM


@pytest.fixture
def genesis_rom() -> Path:
    return GENESIS_ROM


@pytest.fixture
def stable_atari(tmp_path):
    """``emucore.make`` on a stable-retro Atari integration with the ale-py ROM (skips without them)."""
    from bench.atari_games import open_game

    opened = []

    def open_(game: str, **make_kwargs):
        env = open_game(game, tmp_path, **make_kwargs)
        if env is None:
            pytest.skip(f"stable-retro's {game}-Atari2600-v0 or ale-py's ROM for it is not installed")
        opened.append(env)
        return env

    yield open_
    for env in opened:
        env.close()
