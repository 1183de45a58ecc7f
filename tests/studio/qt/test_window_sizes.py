"""The picture is whole, in the core's aspect, at any window size; small windows are allowed; screenshot runs."""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QImage

from studio.app import main as studio_main
from studio.model.commands import advance
from studio.model.play.session import Session
from studio.model.settings import Settings, config_dir
from studio.model.workspace import Workspace
from studio.qt.main_window import MainWindow

SIZES = [(640, 480), (700, 500), (1280, 860), (1600, 1000)]


@pytest.fixture(params=["demo", "atari"])
def session(request, demo, ale_rom):
    if request.param == "demo":
        made = Session(*demo)
    else:
        made = Session(ale_rom("pong", "Pong.a26"))
    yield made


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_picture_is_whole_and_in_aspect(qtbot, session, size):
    window = MainWindow(Workspace(session, Settings()), persist=False)
    qtbot.addWidget(window)
    window.timer.stop()
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)  # the default layout is applied once the window is shown at its size
    advance(window.workspace, 5)
    assert (window.width(), window.height()) == size
    view = window.view
    target = view.target_rect()
    assert view.rect().contains(target), (view.rect(), target)
    assert abs(target.width() / target.height() - view.aspect_ratio) < 0.02
    assert target.width() >= view.width() - 2 or target.height() >= view.height() - 2 or view.integer_scaling
    # the game gets most of the room: at least 45% of the window's width and height
    assert view.width() >= 0.45 * size[0] and view.height() >= 0.45 * size[1]


def test_small_windows_are_allowed(qtbot, demo):
    window = MainWindow(Workspace(Session(*demo), Settings()), persist=False)
    qtbot.addWidget(window)
    window.show()
    hint = window.minimumSizeHint()
    assert hint.width() <= 520 and hint.height() <= 420, hint


def test_the_readout_is_collapsed_by_default_and_opens(qtbot, demo):
    window = MainWindow(Workspace(Session(*demo), Settings()), persist=False)
    qtbot.addWidget(window)
    window.show()
    viewer = window.ram_viewer
    collapsed = viewer.readout_box.sizeHint().height()
    assert not viewer.readout_box.isChecked() and not viewer.readout["|u1"].isVisible()
    viewer.readout_box.setChecked(True)
    assert viewer.readout["|u1"].isVisible() and viewer.readout_box.sizeHint().height() > collapsed + 40


def test_a_screenshot_run_has_its_size_and_leaves_settings_and_recovery_alone(tmp_path):
    settings = config_dir() / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"window_geometry": "kept", "recent": ["kept"]}))
    before = settings.read_text()
    out = tmp_path / "shot.png"
    assert studio_main(["--screenshot", str(out), "--frames", "10", "--size", "700x500"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (700, 500)
    assert settings.read_text() == before
    from emucore.paths import studio_data_dir

    assert not (studio_data_dir() / "running.lock").exists()
    assert not list(studio_data_dir().glob("recovery*"))
