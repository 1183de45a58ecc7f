"""``retro-studio --screenshot PNG --show STEP``: each step of the walkthrough staged on the NES demo, with what a
person would have typed and played, in a scratch copy that leaves the user's folders alone."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from emucore.paths import integrations_dir, studio_data_dir
from studio.app import SHOW_STEPS
from studio.app import main as studio_main
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.settings import Settings, config_dir
from studio.model.workspace import Workspace
from studio.qt.agents.agent_run_dialog import AgentDialog
from studio.qt.game_list import GameListDialog
from studio.qt.main_window import MainWindow
from studio.qt.scenario.integration_check_dialog import CheckDialog
from studio.qt.show_step import STAGES, Stager, scratch_copy, scratch_studio, stage

DEMO = "StudioDemo-Nes"
SCORE = 0x20  # homebrew/nes/README.md


def _shot(tmp_path, name: str, *show: str) -> QImage:
    out = tmp_path / f"{name}.png"
    assert studio_main(["--screenshot", str(out), "--frames", "10", "--size", "900x600", *show, DEMO]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (900, 600)
    return image


def test_the_steps_are_the_walkthroughs_and_the_parser_names_them_without_qt():
    assert tuple(STAGES) == SHOW_STEPS


@pytest.mark.parametrize("args, said", [
    (["--show", "score", "--screenshot", "x.png"], "invalid choice: 'score'"),
    (["--show", "lives"], "--show needs --screenshot"),
])
def test_a_bad_show_is_an_argparse_error(args, said, capsys):
    with pytest.raises(SystemExit) as exit_:
        studio_main(args)
    assert exit_.value.code == 2 and said in capsys.readouterr().err


@pytest.mark.slow  # every step of the walkthrough
def test_every_step_pictures_something_else_and_leaves_the_users_folders_alone(tmp_path):
    settings = config_dir() / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"recent": ["kept"]}))
    shipped = sorted(p.name for p in (integrations_dir() / DEMO).iterdir())
    data_before = os.environ["RETRO_STUDIO_DATA"]
    plain = _shot(tmp_path, "plain")
    pictures = {step: _shot(tmp_path, step, "--show", step) for step in SHOW_STEPS}
    for step, picture in pictures.items():
        assert picture != plain, f"--show {step} looks like the plain screenshot"
    assert len({picture.cacheKey() for picture in pictures.values()}) == len(SHOW_STEPS)
    assert len({bytes(picture.constBits()) for picture in pictures.values()}) == len(SHOW_STEPS)  # all different
    assert os.environ["RETRO_STUDIO_DATA"] == data_before
    assert not (studio_data_dir() / "workspaces" / DEMO).exists()  # checkpoints, marks: in the scratch copy
    assert sorted(p.name for p in (integrations_dir() / DEMO).iterdir()) == shipped  # no state saved there
    assert json.loads(settings.read_text()) == {"recent": ["kept"]}


@pytest.fixture
def staged(qtbot):
    """The NES demo in a scratch copy, in a window shown as a screenshot run shows it."""
    with scratch_studio() as scratch:
        rom, state = scratch_copy(*resolve_game(DEMO, None), scratch)
        window = MainWindow(Workspace(Session(rom, state), Settings()), persist=False)
        qtbot.addWidget(window)
        window.timer.stop()
        window.resize(1280, 800)
        window.show()
        qtbot.waitExposed(window)
        window.session.set_paused(True)
        window.session.advance(10)
        yield window
        window.close()


def test_find_score_types_three_checkpoints_in_the_from_screen_tab(staged):
    stage(staged, "find-score")
    tabs, finder = staged.search_tabs, staged.search_tabs.from_screen
    assert tabs.tabText(tabs.currentIndex()) == "From screen" and finder.shown.hasFocus()
    assert finder.checkpoints.count() == 3 and finder.results[0].address == SCORE
    assert not staged.ram_dock.isVisible()  # the candidates get the height


def test_lives_labels_three_lives_and_compares(staged):
    stage(staged, "lives")
    tabs = staged.search_tabs
    assert tabs.tabText(tabs.currentIndex()) == "Lives"
    assert [tabs.labels.list.item(i).text().split(" at ")[0] for i in range(3)] == [
        "lives = 3", "lives = 2", "lives = 1"]
    assert "candidates in 'lives (equal)'" in tabs.labels.message.text()
    assert "lives (equal)" in staged.workspace.searches.names()


def test_done_marks_the_game_over_and_suggests(staged):
    stage(staged, "done")
    editor = staged.scenario_editor
    assert editor.tabs.tabText(editor.tabs.currentIndex()) == "Suggest done"
    box = editor.done_suggest
    assert len(box.marks.marks) == 1 and box.rules and "game_over" in box.rule_list.item(0).text()


def test_check_replays_a_recorded_episode_with_no_problem(staged):
    dialog = STAGES["check"](Stager(staged))
    assert isinstance(dialog, CheckDialog) and dialog is staged.check_dialog and dialog.isVisible()
    assert dialog.check.ok and "1 movie replayed" in dialog.check.summary()


def test_play_open_export_and_agent_show_their_windows(staged):
    stage(staged, "play")
    names = [staged.states_panel.list.item(i).text() for i in range(staged.states_panel.list.count())]
    assert any(n.startswith("scoring") for n in names) and any(n.startswith("later") for n in names)
    games = STAGES["open"](Stager(staged))
    assert isinstance(games, GameListDialog) and games.isVisible()
    shown = {games.proxy.index(row, 0).data() for row in range(games.proxy.rowCount())}
    assert DEMO in shown and all("StudioDemo" in name for name in shown)
    games.close()
    export = STAGES["export"](Stager(staged))
    assert isinstance(export, QMessageBox) and "8 files" in export.text() and "scoring.state" in export.text()
    export.close()
    agent = STAGES["agent"](Stager(staged))
    assert isinstance(agent, AgentDialog) and agent.isVisible()
    assert agent.report is not None and len(agent.report.episodes) == 1 and agent.table.rowCount() == 1
    agent.close()
