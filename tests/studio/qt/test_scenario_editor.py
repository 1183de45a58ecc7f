"""The scenario dock: the reward terms' table, the done tree, the readout and timeline, Lua errors marked."""

from __future__ import annotations

import pytest

from tests.studio.model.test_scenario_doc import (
    B,
    session,  # noqa: F401  (the fixture)
)


@pytest.fixture
def editor(qtbot, session):  # noqa: F811
    from studio.model.workspace import Workspace
    from studio.qt.scenario.scenario_doc_editor import ScenarioEditor

    workspace = Workspace(session)
    editor = ScenarioEditor(workspace)
    qtbot.addWidget(editor)
    editor.resize(640, 720)
    editor.show()
    yield editor
    editor.unbind()
    workspace.scenario.close()


def test_the_dock_shows_terms_and_persists_table_edits(editor):
    from PySide6.QtCore import Qt

    from studio.qt.scenario.scenario_doc_editor import OP, REWARD, VARIABLE

    model = editor.terms
    assert model.names == ["score"]
    assert model.index(0, VARIABLE).data() == "score" and model.index(0, REWARD).data() == 1.0
    assert model.setData(model.index(0, REWARD), "2.5")
    assert '"reward": 2.5' in editor.doc.path.read_text()
    assert model.setData(model.index(0, OP), "positive")
    assert editor.doc.data["reward"]["variables"]["score"] == {"op": "positive", "reward": 2.5}
    assert model.setData(model.index(0, VARIABLE), "x")
    assert model.names == ["x"]
    # a broken term is tinted and explained under the table
    model.setData(model.index(0, VARIABLE), "ghost")
    assert model.index(0, OP).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert "invalid variable ghost" in editor.reward_lint.text() and editor.reward_lint.isVisible()


def test_the_dock_tree_readout_and_timeline(qtbot, editor):
    tree = editor.tree
    root = tree.topLevelItem(0)
    assert root.text(0) == "done" and root.text(1) == "any"
    assert sorted(root.child(i).text(0) for i in range(root.childCount())) == ["game_over", "lives"]
    name = root.child(0).text(0)
    root.child(0).setText(2, "7")  # edit a reference in place
    assert editor.doc.data["done"]["variables"][name] == {"op": "equal", "reference": 7}
    qtbot.waitUntil(lambda: tree.topLevelItem(0).child(0).text(2) == "7", timeout=1000)  # rebuilt from the doc
    editor.session.set_buttons(0, B)
    editor.session.advance(30)
    editor.refresh()
    assert "total 30" in editor.readout.text()
    x, y = editor.curve.getData()
    assert len(x) == 30 and y[-1] == 30
    editor.session.rewind_frames(10)
    editor.refresh()
    x, _ = editor.curve.getData()
    assert x[-1] == editor.session.frame < 30


def test_the_dock_marks_the_lua_error_line(editor):
    editor.doc.set_scripts(["script.lua"])
    editor.script_choice.setCurrentText("script.lua")
    editor.lua.setPlainText("function reward()\n  return 1\nen\n")
    editor.check_lua()
    assert editor.lua_error_line is not None
    assert editor.lua.extraSelections()[0].cursor.blockNumber() == editor.lua_error_line - 1


def test_a_script_failing_at_top_level_is_an_error_in_the_lua_tab(editor):
    editor.doc.set_scripts(["script.lua"])
    editor.script_choice.setCurrentText("script.lua")
    editor.lua.setPlainText("function reward() return 1 end\nlocal x = nil\nx.field = 1\n")
    editor.save_lua()
    doc = editor.doc
    assert doc.live.load_errors["script.lua"].line == 3 and "script.lua" not in doc.lua_errors  # it compiles
    assert any(f.file == "script.lua" and f.level == "error" and "fails when loaded" in f.message for f in doc.findings)
    editor._show_lua_findings()
    assert editor.lua_error_line == 3
    editor.lua.setPlainText("function reward() return 1 end\n")
    editor.save_lua()
    assert not doc.live.load_errors and not any("fails when loaded" in f.message for f in doc.findings)
