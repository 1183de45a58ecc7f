"""Studio tests write their settings and workspaces into temporary folders, never the user's."""

import pytest


@pytest.fixture(autouse=True)
def isolated_studio_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("RETRO_STUDIO_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("RETRO_STUDIO_DATA", str(tmp_path / "data"))


@pytest.fixture
def demo(tmp_path):
    """A copy of the demo integration, so tests that save states never touch the repository."""
    import shutil

    from studio.model.opening import resolve_game
    from tests.conftest import ROOT

    folder = tmp_path / "StudioDemo-Genesis"
    shutil.copytree(ROOT / "integrations" / "StudioDemo-Genesis", folder)
    return resolve_game(str(folder), None)
