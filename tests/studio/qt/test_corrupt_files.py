"""A corrupt data.json, scenario.json, workspace, settings or recovery file is reported on open, naming
the file (and the key, when known), and set aside: never a traceback, never a lost session.

The studio's own files (settings, recovery, workspace) are renamed to ``<name>.bad`` with their bytes
intact and the defaults are used; the integration's own files stay where they are, untouched, and
nothing is saved over them until they are fixed or the user replaces them.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from emucore.integration import IntegrationError
from emucore.paths import integrations_dir
from studio.app import main as studio_main
from studio.model.commands import advance
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.settings import Settings
from studio.model.workspace import Workspace
from studio.qt.main_window import MainWindow
from tests.studio.model.test_corrupt_files import BROKEN, NOT_UTF8, crashed

BROKEN_KEYS = {"invalid JSON": "info.x"}  # where the text breaks off, as emucore names it
BROKEN_CASES = [(content, BROKEN_KEYS.get(name, "")) for name, content in BROKEN.items()]


@pytest.fixture
def nes(tmp_path) -> Path:
    """A copy of the NES demo integration (the repository's is never modified)."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    return folder


def open_window(qtbot, folder: Path, settings: Settings | None = None, problems=()) -> MainWindow:
    window = MainWindow(Workspace(Session(*resolve_game(str(folder), None)), settings or Settings()), persist=False,
                        problems=problems)
    window.timer.stop()  # the tests step the game themselves
    qtbot.addWidget(window)
    return window


def notice_text(window: MainWindow) -> str:
    notice = window.problem_notice
    assert notice.isVisible(), "no notice was shown"
    return notice.text() + "\n" + notice.informativeText()


def workspace(folder: Path) -> Path:
    from emucore.paths import studio_data_dir

    return studio_data_dir() / "workspaces" / folder.name


# ---- data.json: reported, left in place, never saved over ----

@pytest.mark.parametrize("content, key", [
    *BROKEN_CASES,
    (b'{"info": {"x": {"address": "zz", "type": "|u1"}}}', "info.x.address"),
    (b'{"info": {"x": {"address": 1e400, "type": "|u1"}}}', ""),
    (b'{"info": {"x": {"address": 99999999999999999999999, "type": "|u1"}}}', "info.x.address"),
    (b'{"info": {"x": {"address": 1, "type": "|u1", "mask": "all"}}}', "info.x.mask"),
], ids=[*BROKEN, "wrong type", "huge float", "huge integer", "wrong mask"])
def test_a_corrupt_data_json_opens_the_game_without_variables(qtbot, nes, content, key):
    (nes / "data.json").write_bytes(content)
    window = open_window(qtbot, nes)
    text = notice_text(window)
    assert str(nes / "data.json") in text
    problem = next(p for p in window.session.problems if p.path.name == "data.json")
    assert problem.key == key and (not key or key in text)
    assert window.watch.variables == {} and "data.json" in window.watch.load_error
    advance(window.workspace, 5)
    with pytest.raises(ValueError, match="nothing was saved"):
        window.watch.add("hp", 0x10, "|u1")
    window.scenario_editor.refresh()
    window.close()
    assert (nes / "data.json").read_bytes() == content  # not renamed, not saved over
    assert not list(nes.glob("data.json.bad*"))


def test_data_json_is_used_again_once_fixed(qtbot, nes):
    good = (nes / "data.json").read_bytes()
    (nes / "data.json").write_bytes(NOT_UTF8)
    window = open_window(qtbot, nes)
    (nes / "data.json").write_bytes(good)
    window.watch.reload()
    assert window.watch.load_error is None and "lives" in window.watch.variables


# ---- scenario.json: reported, read-only until fixed, replaced only when the user says so ----

@pytest.mark.parametrize("content, key", [
    *BROKEN_CASES,
    (b'{"crop": "all"}', "crop"),
    (b'{"crop": [0, 0, 99999999999999999999999, 1]}', "crop[2]"),
    (b'{"actions": 5}', "actions"),
    (b'{"reward": {"variables": {"score": {"reward": 1e400}}}}', ""),
], ids=[*BROKEN, "wrong type", "huge integer", "wrong actions", "huge float"])
def test_a_corrupt_scenario_json_opens_the_game_without_a_scenario(qtbot, nes, content, key):
    (nes / "scenario.json").write_bytes(content)
    window = open_window(qtbot, nes)
    text = notice_text(window)
    assert str(nes / "scenario.json") in text
    problem = next(p for p in window.session.problems if p.path.name == "scenario.json")
    assert problem.key == key and (not key or key in text)
    editor = window.scenario_editor
    assert editor.doc.data == {} and "scenario.json" in editor.doc.load_error
    assert not editor.unreadable.isHidden() and "scenario.json" in editor.unreadable.label.text()
    assert not editor.tabs.isEnabled()  # no edit can write over it
    with pytest.raises(IntegrationError, match="scenario.json"):
        editor.doc.set_reward_term("score", reward=1.0)
    advance(window.workspace, 5)
    editor.refresh()
    window.close()
    assert (nes / "scenario.json").read_bytes() == content
    assert not list(nes.glob("scenario.json.bad*"))


def test_an_unreadable_scenario_is_reloaded_once_fixed_or_replaced_when_the_user_says_so(qtbot, nes, monkeypatch):
    good = (nes / "scenario.json").read_bytes()
    (nes / "scenario.json").write_bytes(b"{")
    window = open_window(qtbot, nes)
    editor = window.scenario_editor
    (nes / "scenario.json").write_bytes(good)
    editor.unreadable.reload_button.click()
    assert editor.unreadable.isHidden() and editor.tabs.isEnabled() and "reward" in editor.doc.data

    (nes / "scenario.json").write_bytes(b"{")
    editor.doc.reload()
    assert not editor.unreadable.isHidden()
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.No)
    editor.unreadable.replace_button.click()
    assert (nes / "scenario.json").read_bytes() == b"{"
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    editor.unreadable.replace_button.click()
    assert json.loads((nes / "scenario.json").read_text()) == {} and editor.tabs.isEnabled()


def test_scenarios_of_the_wrong_shape_that_parse_do_not_break_the_editor(qtbot, nes):
    (nes / "scenario.json").write_text('{"reward": {"variables": []}, "done": {"variables": {"lives": {"op": 5}}}}')
    window = open_window(qtbot, nes)
    advance(window.workspace, 3)
    window.scenario_editor.refresh()
    assert window.scenario_editor.doc.findings  # lint says what is wrong


def test_a_script_that_is_not_utf8_is_reported_and_left_out(qtbot, nes):
    (nes / "scenario.json").write_text('{"scripts": ["script.lua"], "reward": {"variables": {"score": {"reward": 1}}}}')
    (nes / "script.lua").write_bytes(b"function f() return '\xff' end")
    window = open_window(qtbot, nes)
    assert str(nes / "script.lua") in notice_text(window)
    assert any(f.file == "script.lua" and f.level == "error" for f in window.scenario_editor.doc.findings)
    advance(window.workspace, 3)
    assert (nes / "script.lua").read_bytes() == b"function f() return '\xff' end"


# ---- the integration's states and metadata.json: the game opens at power-on ----

@pytest.mark.parametrize("content", [b"not gzip", None], ids=["not gzip", "truncated gzip"])
def test_a_corrupt_default_state_opens_the_game_at_power_on(qtbot, nes, content):
    original = (nes / "Start.state").read_bytes()
    bad = content if content is not None else original[: len(original) // 2]
    (nes / "Start.state").write_bytes(bad)
    window = open_window(qtbot, nes)
    assert str(nes / "Start.state") in notice_text(window)
    assert window.session.state_name is None
    assert (nes / "Start.state").read_bytes() == bad  # the integration's file stays


@pytest.mark.parametrize("content", [b"{", b"\xff", b"[]", b'{"default_state": 5}', b'{"default_state": "Gone"}'])
def test_a_corrupt_metadata_json_opens_the_game_and_is_not_saved_over(qtbot, nes, content):
    (nes / "metadata.json").write_bytes(content)
    window = open_window(qtbot, nes)
    assert str(nes / "metadata.json") in notice_text(window)
    if content.startswith(b"{") and len(content) > 1:
        window.session.states.set_default("Start")  # readable: the default is set as usual
        return
    with pytest.raises(IntegrationError, match="metadata.json"):
        window.session.states.set_default("Start")
    assert (nes / "metadata.json").read_bytes() == content


# ---- the workspace: set aside as .bad, the game opens with the defaults ----

@pytest.mark.parametrize("content", [*BROKEN.values(), b'{"state:Start": [1]}', b'{"slot:1": {"frame": "x"}}',
                                     b'{"slot:1": {"saved_at": 1e300}}'],
                         ids=[*BROKEN, "wrong entry", "wrong frame", "huge time"])
def test_a_corrupt_workspace_index_is_set_aside(qtbot, nes, content):
    index = workspace(nes) / "states.json"
    index.parent.mkdir(parents=True)
    index.write_bytes(content)
    (index.parent / "states.json.bad").write_bytes(b"an older one")
    window = open_window(qtbot, nes)
    assert str(index) in notice_text(window)
    assert (index.parent / "states.json.bad").read_bytes() == b"an older one"
    assert (index.parent / "states.json.bad-1").read_bytes() == content
    assert window.states_panel.list.count() >= 1  # the integration's states are listed
    window.session.save_slot(2)  # the workspace is written again
    assert "slot:2" in json.loads(index.read_text())


def test_a_corrupt_thumbnail_and_slot_are_set_aside(qtbot, nes):
    window = open_window(qtbot, nes)
    window.session.save_slot(3)
    window.session.save_state("Mine")
    window.close()
    slot = workspace(nes) / "slots" / "slot3.state"
    thumb = workspace(nes) / "thumbnails" / "state-Mine.png"
    slot_bytes = slot.read_bytes()[:40]  # a truncated gzip
    slot.write_bytes(slot_bytes)
    thumb.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
    window = open_window(qtbot, nes)
    assert str(thumb) in notice_text(window)
    assert thumb.with_name("state-Mine.png.bad").exists()
    assert window.session.load_slot(3) is False  # F3 on a corrupt slot
    assert str(slot) in notice_text(window)
    assert slot.with_name("slot3.state.bad").read_bytes() == slot_bytes and not slot.exists()


def test_a_slot_the_core_refuses_is_set_aside(qtbot, nes):
    slot = workspace(nes) / "slots" / "slot4.state"
    slot.parent.mkdir(parents=True)
    slot.write_bytes(gzip.compress(b"not a state of this core"))
    window = open_window(qtbot, nes)
    assert window.session.load_slot(4) is False
    assert str(slot) in notice_text(window) and slot.with_name("slot4.state.bad").exists()


# ---- settings ----

@pytest.mark.parametrize("content, key", [
    *((bad, "") for bad in BROKEN.values()),
    (b'{"recent": 5, "volume": 0.5}', "recent"),
    (b'{"volume": "loud"}', "volume"),
    (b'{"bindings": {"Nes": {"1": {"A": 5}}}}', "bindings"),
    (b'{"rewind_seconds": 1000000000000000000000000000000}', "rewind_seconds"),
    (b'{"window_state": 1e300, "muted": "yes"}', "window_state"),
], ids=[*BROKEN, "recent", "volume", "bindings", "huge rewind", "two wrong"])
def test_corrupt_settings_are_set_aside_and_reported(qtbot, nes, tmp_path, content, key):
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "settings.json").write_bytes(content)
    problems = []
    settings = Settings.load(folder, problems)
    assert (folder / "settings.json.bad").read_bytes() == content and not (folder / "settings.json").exists()
    assert len(problems) == 1 and problems[0].path == folder / "settings.json" and problems[0].key == key
    if key == "recent":
        assert settings.volume == 0.5 and settings.recent == []  # the rest is kept
    else:
        assert settings == Settings()
    window = open_window(qtbot, nes, settings, problems)
    text = notice_text(window)
    assert str(folder / "settings.json") in text and key in text
    settings.save(folder)
    assert Settings.load(folder, problems) == settings and len(problems) == 1


# ---- recovery ----

def run_app(monkeypatch, argv: list[str], restore: bool = True) -> MainWindow:
    """``retro-studio`` up to its event loop; returns its window (shown)."""
    windows = []

    def fake_exec(*_):
        windows.extend(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible())
        return 0

    answer = QMessageBox.StandardButton.Yes if restore else QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "question", lambda *a: answer)
    monkeypatch.setattr(QApplication, "exec", fake_exec)
    assert studio_main(argv) == 0
    assert len(windows) == 1
    return windows[0]


def saved_session(game: Path, state: Path | None) -> bytes:
    return json.dumps({"game": str(game), "state_file": str(state) if state else None, "frame": 77,
                       "saved_at": 0.0}).encode()


def test_the_app_starts_despite_corrupt_settings_and_recovery_files(qtbot, nes, tmp_path, monkeypatch):
    config, data = tmp_path / "config", tmp_path / "data"
    config.mkdir()
    (config / "settings.json").write_bytes(b'{"volume": [')
    crashed(data, b"\xff\xfe not json")
    window = run_app(monkeypatch, [str(nes)])
    qtbot.addWidget(window)
    text = notice_text(window)
    assert str(config / "settings.json") in text and str(data / "session.json") in text
    assert (config / "settings.json.bad").read_bytes() == b'{"volume": ['
    assert (data / "session.json.bad").read_bytes() == b"\xff\xfe not json"
    assert window.session.folder == nes
    window.close()


def test_a_corrupt_recovery_state_restores_the_game_at_its_start(qtbot, nes, tmp_path, monkeypatch):
    data = tmp_path / "data"
    state = data / "recovery.state"
    crashed(data, saved_session(nes, state))
    state.write_bytes(b"\x1f\x8b\x08\x00 truncated")
    window = run_app(monkeypatch, [])
    qtbot.addWidget(window)
    assert window.session.folder == nes and window.session.frame == 0  # the game, not the saved frame
    assert str(state) in notice_text(window)
    assert (data / "recovery.state.bad").read_bytes() == b"\x1f\x8b\x08\x00 truncated"
    window.close()


def test_a_recovery_session_whose_game_is_gone_opens_the_game_asked_for(qtbot, nes, tmp_path, monkeypatch):
    data = tmp_path / "data"
    crashed(data, saved_session(tmp_path / "Gone-Nes", None))
    window = run_app(monkeypatch, [str(nes)])
    qtbot.addWidget(window)
    assert window.session.folder == nes
    assert str(data / "session.json") in notice_text(window) and "Gone-Nes" in notice_text(window)
    assert json.loads((data / "session.json.bad").read_text())["game"].endswith("Gone-Nes")
    window.close()


@pytest.mark.parametrize("content", [b"{", b"[]", b'{"movies": [{"movie": 5}]}', b'{"movies": {"a": 1}}'])
def test_a_corrupt_regression_list_is_reported_and_not_saved_over(qtbot, nes, content, monkeypatch):
    (nes / "regression.json").write_bytes(content)
    window = open_window(qtbot, nes)
    recheck = window.workspace.recheck
    recheck.delay = 0
    recheck.request()  # what a scenario edit does; the window's tick polls
    qtbot.waitUntil(lambda: recheck.poll() is not None, timeout=10000)
    assert "regression.json" in window.statusBar().currentMessage()
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    window.command("check_regression")()
    assert shown and str(nes / "regression.json") in shown[0]
    from studio.model.scenario.regression import RegressionSuite

    with pytest.raises(IntegrationError, match="regression.json"):
        RegressionSuite(nes).detach("take.bk2")
    assert (nes / "regression.json").read_bytes() == content


def test_opening_another_game_from_the_window_reports_its_files(qtbot, nes, tmp_path):
    window = open_window(qtbot, nes)
    assert not window.problem_notice.isVisible()
    other = tmp_path / "Other-Nes"
    shutil.copytree(nes, other)
    (other / "data.json").write_bytes(b"{")
    (other / "scenario.json").write_bytes(NOT_UTF8)
    window.open_game(other)
    text = notice_text(window)
    assert str(other / "data.json") in text and str(other / "scenario.json") in text
    assert window.session.folder == other


def test_folders_where_files_should_be(qtbot, nes, tmp_path, monkeypatch):
    """data.json and scenario.json as folders: reported, left alone; the studio's own files: set aside."""
    for name in ("data.json", "scenario.json"):
        (nes / name).unlink()
        (nes / name).mkdir()
    index = workspace(nes) / "states.json"
    index.mkdir(parents=True)
    config, data = tmp_path / "config", tmp_path / "data"
    (config / "settings.json").mkdir(parents=True)
    crashed(data, b"").session_file.unlink()
    (data / "session.json").mkdir()
    window = run_app(monkeypatch, [str(nes)])
    qtbot.addWidget(window)
    text = notice_text(window)
    for path in (nes / "data.json", nes / "scenario.json", index, config / "settings.json", data / "session.json"):
        assert str(path) in text
    assert (nes / "data.json").is_dir() and (nes / "scenario.json").is_dir()
    for path in (index, config / "settings.json", data / "session.json"):
        assert path.with_name(path.name + ".bad").is_dir()
    window.close()


def test_a_recovery_session_naming_another_file_as_its_state_leaves_that_file_alone(qtbot, nes, tmp_path,
                                                                                   monkeypatch):
    data = tmp_path / "data"
    foreign = tmp_path / "notes.txt"
    foreign.write_text("the user's own file")
    crashed(data, saved_session(nes, foreign))
    window = run_app(monkeypatch, [])
    qtbot.addWidget(window)
    assert str(foreign) in notice_text(window)
    assert foreign.read_text() == "the user's own file" and not list(tmp_path.glob("notes.txt.bad*"))
    window.close()


def test_a_script_outside_the_integration_is_neither_read_nor_written(qtbot, nes, tmp_path):
    outside = tmp_path / "outside.lua"
    outside.write_text("-- not the integration's")
    scenario = {"scripts": ["../outside.lua"], "reward": {"variables": {"score": {"reward": 1}}}}
    (nes / "scenario.json").write_text(json.dumps(scenario))
    window = open_window(qtbot, nes)
    assert "outside the integration folder" in notice_text(window)
    editor = window.scenario_editor
    assert editor.doc.lua_source("../outside.lua") == ""
    editor.script_choice.setCurrentText("../outside.lua")
    editor.lua.setPlainText("os.exit()")
    editor.save_lua()
    assert "outside the integration folder" in editor.lua_status.text()
    assert outside.read_text() == "-- not the integration's"
