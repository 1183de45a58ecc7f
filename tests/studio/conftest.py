"""Studio tests write their settings and workspaces into temporary folders, never the user's."""

import pytest

from emucore.paths import integrations_dir


@pytest.fixture(autouse=True)
def isolated_studio_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("RETRO_STUDIO_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("RETRO_STUDIO_DATA", str(tmp_path / "data"))


@pytest.fixture
def demo(tmp_path):
    """A copy of the demo integration, so tests that save states never touch the repository."""
    import shutil

    from studio.model.opening import resolve_game

    folder = tmp_path / "StudioDemo-Genesis"
    shutil.copytree(integrations_dir() / "StudioDemo-Genesis", folder)
    return resolve_game(str(folder), None)


@pytest.fixture
def window(qtbot, demo):
    """The Genesis demo in the main window, shown and active; the test steps the game itself."""
    from PySide6.QtWidgets import QApplication

    from studio.model.play.session import Session
    from studio.model.settings import Settings
    from studio.model.workspace import Workspace
    from studio.qt.main_window import MainWindow

    rom, state = demo
    win = MainWindow(Workspace(Session(rom, state), Settings.load()))
    qtbot.addWidget(win)
    win.timer.stop()
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
    return win


@pytest.fixture
def romless(tmp_path):
    """A copy of the Genesis demo's integration folder whose ROM is not there (as stable-retro's folders ship)."""
    import shutil

    folder = tmp_path / "NoRom-Genesis"
    shutil.copytree(integrations_dir() / "StudioDemo-Genesis", folder)
    (folder / "rom.md").unlink()
    return folder
