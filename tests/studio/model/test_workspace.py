"""The workspace without Qt: one root owning the game and its models, opened in place, leaving nothing behind."""

from __future__ import annotations

import shutil
import threading

import pytest

from emucore.errors import EmulatorClosedError
from emucore.paths import integrations_dir
from studio.model import commands
from studio.model.events import Connections, connection_count
from studio.model.opening import OpenError
from studio.model.play.session import Session
from studio.model.scenario.regression import RegressionSuite
from studio.model.scenario.regression_recheck import RegressionRecheck
from studio.model.workspace import Workspace


def model_events(workspace: Workspace) -> dict[str, object]:
    """The events of every model of the workspace's game."""
    return {"session": workspace.session.events, "states": workspace.session.states.events,
            "watch": workspace.watch.events, "scenario": workspace.scenario.events,
            "searches": workspace.searches.events}


class View:
    """A listener as a view is one: connects on ``opened``, ends its connections on ``closing``."""

    def __init__(self, workspace: Workspace):
        self.workspace, self.frames, self.connections = workspace, 0, Connections()
        workspace.events.closing.connect(self.connections.disconnect_all)
        workspace.events.opened.connect(self.bind)
        self.bind()

    def bind(self) -> None:
        models = model_events(self.workspace)
        self.connections.connect(models["session"].frame, self.frame)
        for name in ("states", "watch", "scenario", "searches"):
            for signal in models[name].signals.values():
                self.connections.connect(signal, lambda *args: None)

    def frame(self) -> None:
        self.frames += 1


@pytest.fixture
def games(tmp_path, demo):
    nes = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", nes)
    return demo[0].parent, nes


def test_opening_three_games_leaves_no_connection_of_the_first_two(games):
    genesis, nes = games
    workspace = Workspace(Session(*_resolve(genesis)))
    view = View(workspace)
    opened = [model_events(workspace)]
    for folder in (nes, genesis):
        workspace.open(folder)
        opened.append(model_events(workspace))
    try:
        for index, events in enumerate(opened[:2]):
            assert {name: connection_count(e) for name, e in events.items()} == dict.fromkeys(events, 0), index
        assert all(connection_count(e) > 0 for e in opened[2].values()), "the game open now is listened to"
        commands.advance(workspace, 3)
        assert view.frames == 1 and workspace.session.frame == 3
    finally:
        workspace.close()
    assert all(connection_count(e) == 0 for e in opened[2].values()), "closing the studio ends them too"


def test_the_models_belong_to_the_game_open_now(games):
    genesis, nes = games
    workspace = Workspace(Session(*_resolve(genesis)))
    try:
        first = workspace.session
        workspace.open(nes)
        with pytest.raises(EmulatorClosedError):
            first.emulator.step()
        assert workspace.session.system.name == "Nes"
        for model in (workspace.watch, workspace.scenario, workspace.done_marks, workspace.labels,
                      workspace.screen_values):
            assert model.session is workspace.session, type(model).__name__
        assert workspace.searches.emulator is workspace.session.emulator
        assert workspace.input.session is workspace.session and workspace.recheck.folder == nes
    finally:
        workspace.close()


def test_a_game_that_cannot_open_leaves_the_one_open_untouched(games, tmp_path):
    genesis, _ = games
    workspace = Workspace(Session(*_resolve(genesis)))
    closing = []
    workspace.events.closing.connect(lambda: closing.append(True))
    try:
        session = workspace.session
        (tmp_path / "empty").mkdir()
        with pytest.raises(OpenError):
            workspace.open(tmp_path / "empty")
        assert workspace.session is session and closing == []
        commands.advance(workspace, 2)
        assert session.frame == 2
    finally:
        workspace.close()


def test_the_speed_ladder():
    assert [commands.next_speed(s, 1) for s in (0.25, 1.0, 8.0, 1000.0)] == [0.5, 2.0, 0.0, None]
    assert [commands.next_speed(s, -1) for s in (0.25, 1.0, 8.0, 1000.0)] == [0.25, 0.5, 4.0, 4.0]


def test_commands_of_the_action_table(games):
    genesis, _ = games
    workspace = Workspace(Session(*_resolve(genesis)))
    try:
        session = workspace.session
        commands.COMMANDS["faster"](workspace)
        assert session.speed == 2.0
        commands.COMMANDS["toggle_pause"](workspace)
        assert session.paused
        commands.COMMANDS["advance_one"](workspace)
        assert session.frame == 1 and session.paused
        recording = session.folder / "take.bk2"
        session.movies.start_recording(recording)
        assert commands.COMMANDS["stop_movie"](workspace) == f"saved {recording}" and recording.exists()
    finally:
        workspace.close()


def test_a_recheck_runs_off_the_calling_thread_after_the_edits_pause(demo, monkeypatch):
    session = Session(*demo)
    movie = session.folder / "take.bk2"
    session.movies.start_recording(movie)
    session.set_buttons(0, 1)
    session.advance(60)
    session.movies.stop_recording()
    session.close()
    RegressionSuite(session.folder).attach(movie)
    now = [0.0]
    threads, results = [], []
    check = RegressionSuite.check

    def spy(suite, scenario=None, stop=None):
        threads.append(threading.current_thread().name)
        return check(suite, scenario, stop)

    recheck = RegressionRecheck(delay=0.7, clock=lambda: now[0])
    recheck.events.checked.connect(results.append)
    recheck.follow(session.folder)
    monkeypatch.setattr(RegressionSuite, "check", spy)
    try:
        recheck.request()
        now[0] = 0.5
        recheck.request()  # another edit: the wait starts again
        now[0] = 1.0
        assert recheck.poll() is None and threads == [] and recheck.busy
        now[0] = 1.3
        while recheck.poll() is None:
            threading.Event().wait(0.01)
    finally:
        recheck.close()
    assert threads == ["studio-regression"] and threading.current_thread().name not in threads
    assert len(results) == 1 and results[0].summary() == "regression: 1 ok" and not recheck.busy


def _resolve(folder):
    from studio.model.opening import resolve_game

    return resolve_game(str(folder), None)
