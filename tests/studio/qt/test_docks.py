"""The dock registry: every dock's panel made from the workspace, rebound when another game opens, and
nothing of a closed game left connected (pytest-qt, offscreen)."""

from __future__ import annotations

import shutil

from emucore.paths import integrations_dir
from studio.model.commands import advance
from studio.model.events import connection_count
from studio.qt.docks import DOCKS


def model_events(workspace) -> dict[str, object]:
    return {"session": workspace.session.events, "states": workspace.session.states.events,
            "watch": workspace.watch.events, "scenario": workspace.scenario.events,
            "searches": workspace.searches.events}


def test_the_window_has_the_docks_of_the_registry(window):
    assert [dock.windowTitle() for dock in window.docks.docks.values()] == [spec.title for spec in DOCKS]
    for spec in DOCKS:
        panel = window.docks.panels[spec.key]
        assert isinstance(panel, spec.factory) and window.dockWidgetArea(window.docks.docks[spec.key]) == spec.area


def test_opening_three_games_leaves_no_connection_of_the_first_two(qtbot, window, tmp_path):
    nes, genesis = tmp_path / "StudioDemo-Nes", tmp_path / "Again-Genesis"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", nes)
    shutil.copytree(integrations_dir() / "StudioDemo-Genesis", genesis)
    opened = [model_events(window.workspace)]
    listened = {name: connection_count(events) for name, events in opened[0].items()}
    for folder in (nes, genesis):
        window.open_game(folder)
        opened.append(model_events(window.workspace))
    for index, events in enumerate(opened[:2]):
        assert {name: connection_count(e) for name, e in events.items()} == dict.fromkeys(events, 0), index
    assert {name: connection_count(events) for name, events in opened[2].items()} == listened, \
        "the third game is listened to as the first was"
    workspace = window.workspace
    assert window.ram_viewer.session is workspace.session and window.variables_panel.watch is workspace.watch
    assert window.scenario_editor.doc is workspace.scenario and window.search_panel.book is workspace.searches
    assert window.scenario_editor.done_suggest.marks is workspace.done_marks
    assert window.search_tabs.labels.labels is workspace.labels
    assert window.search_tabs.from_screen.finder is workspace.screen_values
    advance(workspace, 5)
    assert "frame 5" in window.status.text() and window.windowTitle().endswith("Again-Genesis")
    window.close()
    assert {name: connection_count(e) for name, e in opened[2].items()} == dict.fromkeys(opened[2], 0)
