"""How variables were found: recorded with a picture, annotated, kept across restarts and renames (shown in the
Variables dock: ``tests/studio/qt/test_provenance_panel.py``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from studio.model.play.session import Session
from studio.model.variables.provenance import Provenance, ProvenanceBook
from studio.model.variables.watch import Watch

LIVES = 0xFF0012


@pytest.fixture
def session(demo):
    session = Session(*demo)
    session.advance(12)
    yield session
    session.close()


def found_by_search() -> Provenance:
    return Provenance("memory search", ["start: 65,536", "decreased: 1,204", "equal: 12", "decreased: 3", "equal: 1"],
                      details={"type": "|u1", "search": "lives"})


def test_a_variable_found_by_a_search_keeps_how_when_and_the_picture(session):
    watch = Watch(session)
    watch.add("hearts", LIVES, "|u1", provenance=found_by_search())
    kept = watch.provenance.get("hearts")
    assert kept.how == "memory search" and kept.frame == 12 and kept.found_at
    assert kept.details == {"type": "|u1", "search": "lives"}
    picture = watch.provenance.screenshot("hearts")
    assert picture is not None and (picture == session.screen()).all()
    index = json.loads((session.states.workspace / "provenance.json").read_text())
    assert index["hearts"]["screenshot"] == kept.screenshot
    assert (session.states.workspace / "provenance" / kept.screenshot).is_file()
    data = json.loads((session.folder / "data.json").read_text())["info"]
    assert data["hearts"] == {"address": LIVES, "type": "|u1"}  # data.json stays as stable-retro reads it

    lines = watch.provenance.tooltip("hearts").splitlines()
    assert lines[0].startswith("Found by memory search on ") and lines[0].endswith("at frame 12")
    assert lines[1] == "Steps: start: 65,536 \u2192 decreased: 1,204 \u2192 ... 2 more ... \u2192 equal: 1"
    assert "not recorded" in watch.provenance.tooltip("score")


def test_the_note_rename_and_remove_survive_a_restart(session):
    watch = Watch(session)
    watch.add("hearts", LIVES, "|u1", provenance=found_by_search())
    watch.provenance.set_note("hearts", "  lost when the timer runs out  ")
    watch.rename("hearts", "lives_left")
    assert watch.provenance.get("hearts") is None
    again = Watch(session)  # a restart reads the workspace again
    kept = again.provenance.get("lives_left")
    assert kept.note == "lost when the timer runs out" and again.provenance.screenshot("lives_left") is not None
    assert again.provenance.tooltip("lives_left").endswith("Note: lost when the timer runs out")
    picture = session.states.workspace / "provenance" / kept.screenshot
    again.remove("lives_left")
    assert again.provenance.get("lives_left") is None and not picture.exists()
    assert Watch(session).provenance.get("lives_left") is None


def test_a_name_used_again_does_not_inherit_an_old_record(session):
    book = ProvenanceBook(session.states.workspace)
    book.record("hp", Provenance("lives wizard", ["frame 120: shown 3"]), np.zeros((4, 4, 3), np.uint8))
    watch = Watch(session)  # data.json has no "hp": the record is left over
    watch.add("hp", LIVES, "|u1")
    assert watch.provenance.get("hp") is None
    watch.add("typed", LIVES, "|u1", provenance=Provenance("typed in", []))
    assert watch.provenance.tooltip("typed").startswith("Typed in on ")


def test_a_corrupt_index_is_set_aside_and_reported(session):
    workspace = session.states.workspace
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "provenance.json").write_text("{not json")
    watch = Watch(session)
    problem = next(p for p in session.problems if p.path.name == "provenance.json")
    assert "not JSON" in problem.problem and problem.kept_as.name == "provenance.json.bad"
    assert (workspace / "provenance.json.bad").read_text() == "{not json"
    watch.add("hearts", LIVES, "|u1", provenance=found_by_search())  # a fresh index
    assert Watch(session).provenance.get("hearts").how == "memory search"


def test_bad_entries_are_dropped_and_a_bad_picture_set_aside(session):
    workspace = session.states.workspace
    book = ProvenanceBook(workspace)
    found = Provenance("find from screen", ["frame 120: shown 000350"], frame=np.int64(120),
                       details={"scale": np.int64(10), "bias": np.float32(0.5), "where": workspace})
    kept = book.record("good", found, np.ones((8, 8, 3), np.uint8))
    assert kept.frame == 120 and kept.details == {"scale": 10, "bias": 0.5, "where": str(workspace)}
    index = json.loads((workspace / "provenance.json").read_text())
    index["evil"] = {**index["good"], "screenshot": "../../data.json"}
    (workspace / "provenance.json").write_text(json.dumps(index))
    problems = []
    book = ProvenanceBook(workspace, report=problems.append)
    assert set(book.entries) == {"good"} and problems[0].key == "evil"
    assert set(json.loads((workspace / "provenance.json").read_text())) == {"good"}
    (workspace / "provenance" / book.get("good").screenshot).write_bytes(b"not a png")
    assert book.screenshot("good") is None and "good" in problems[-1].consequence
