"""Shared fixtures: our homebrew ROMs, and Airstriker from an installed stable-retro wheel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emucore.corefinder import find_library, stable_retro_cores_dir

ROOT = Path(__file__).resolve().parent.parent
NES_ROM = ROOT / "integrations" / "StudioDemo-Nes" / "rom.nes"
GENESIS_ROM = ROOT / "integrations" / "StudioDemo-Genesis" / "rom.md"

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def airstriker_folder() -> Path | None:
    cores = stable_retro_cores_dir()
    if cores is None:
        return None
    folder = cores.parent / "data" / "stable" / "Airstriker-Genesis-v0"
    return folder if (folder / "rom.md").is_file() else None


@pytest.fixture(scope="session")
def airstriker() -> Path:
    """The Airstriker-Genesis-v0 integration folder of the stable-retro wheel."""
    folder = airstriker_folder()
    if folder is None:
        pytest.skip("stable-retro (with Airstriker-Genesis-v0) is not installed")
    return folder


def require_core(lib: str) -> None:
    if not find_library(lib):
        pytest.skip(f"the {lib} core is not installed")


@pytest.fixture
def nes_rom() -> Path:
    return NES_ROM


@pytest.fixture
def genesis_rom() -> Path:
    return GENESIS_ROM
