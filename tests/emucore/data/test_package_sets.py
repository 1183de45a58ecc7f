"""emucore's own stable, contrib and experimental folders (``emucore/data/<set>``), where stable-retro users' set-up
steps copy files (``dirname(retro.__file__)/data/stable/<Game>``, ``retro`` being emucore under the alias): they
exist and are searched first in their set, file by file."""

from __future__ import annotations

import os
import shutil
import uuid

import pytest

import emucore
from emucore.data.integrations import PACKAGE_SETS
from emucore.paths import integrations_dir
from tests.conftest import require_core

DEMO = integrations_dir() / "StudioDemo-Nes"


@pytest.fixture
def package_game():
    """A unique game name, and its folder in emucore's own stable set (removed afterwards)."""
    name = f"PackageSet{uuid.uuid4().hex[:8]}-Nes"
    folder = os.path.join(PACKAGE_SETS, "stable", name)
    yield name, folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_set_folders_are_where_stable_retro_scripts_look():
    package = os.path.dirname(emucore.__file__)
    for name in ("stable", "contrib", "experimental"):
        assert os.path.isdir(os.path.join(package, "data", name))
    stable = emucore.data.Integrations.STABLE.folders
    assert os.path.join(package, "data", "stable") in stable
    if emucore.data.path():  # stable-retro's stable set comes after ours
        assert stable.index(os.path.join(package, "data", "stable")) < stable.index(
            os.path.join(emucore.data.path(), "stable"))
    assert os.path.join(package, "data", "contrib") in emucore.data.Integrations.CONTRIB_ONLY.folders
    assert os.path.join(package, "data", "stable") not in emucore.data.Integrations.CONTRIB_ONLY.folders


def test_a_game_copied_there_is_made(package_game):
    require_core("fceumm")
    name, folder = package_game
    shutil.copytree(DEMO, folder)
    assert emucore.data.get_file_path(name, "rom.sha") == os.path.join(
        os.path.dirname(emucore.__file__), "data", "stable", name, "rom.sha")
    assert name in emucore.data.list_games()
    env = emucore.make(name)
    try:
        env.reset(seed=0)
    finally:
        env.close()


def test_a_state_copied_there_joins_the_games_other_files(package_game, tmp_path, monkeypatch):
    require_core("fceumm")
    name, folder = package_game
    root = tmp_path / "data"  # a stable-retro data root holding the game without the state
    shutil.copytree(DEMO, root / "stable" / name, ignore=shutil.ignore_patterns("*.state"))
    monkeypatch.setenv("RETRO_DATA_PATH", str(root))
    with pytest.raises(FileNotFoundError, match="Mine.state"):
        emucore.make(name, state="Mine")
    os.makedirs(folder)
    shutil.copy(DEMO / "Start.state", os.path.join(folder, "Mine.state"))
    assert emucore.data.list_states(name) == ["Mine"]
    env = emucore.make(name, state="Mine")
    try:
        assert env.statename == "Mine.state"
    finally:
        env.close()
