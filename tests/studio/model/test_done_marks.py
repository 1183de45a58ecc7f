"""Mark alive / game over: a suggested done rule, its preview on regression movies, accepting it.

Ground truth: the homebrew NES game's README (3 lives of 300 play frames; the game is over at
frame counter 900, with game_over at $12 and lives at $13; START restarts it) and stable-retro's
shipped Atari 2600 scenarios.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.paths import integrations_dir
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.scenario.done_marks import DoneMarks
from studio.model.scenario.done_rule import rule_terms
from studio.model.scenario.regression import RegressionSuite

GAME_OVER, LIVES = 18, 19


@pytest.fixture
def nes(tmp_path) -> Path:
    """A copy of the NES demo without its done rule, and without game_over and lives in data.json."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    data = json.loads((folder / "data.json").read_text())
    del data["info"]["game_over"], data["info"]["lives"]
    (folder / "data.json").write_text(json.dumps(data))
    scenario = json.loads((folder / "scenario.json").read_text())
    del scenario["done"]
    (folder / "scenario.json").write_text(json.dumps(scenario))
    return folder


def open_session(folder: Path) -> Session:
    return Session(*resolve_game(str(folder), None))


def to_game_over(session: Session) -> None:
    while not session.emulator.read(GAME_OVER, "|u1"):
        session.advance(1)


def mark_two_games(session: Session, marks: DoneMarks | None = None, alive=None, over=None) -> None:
    """Alive at the start, right after each lost life and right before the game over; game over
    where it starts; then START and the same in a second game (by ``marks``, or the callables)."""
    alive = alive or marks.mark_alive
    over = over or marks.mark_over
    for frame in (0, 150, 300, 600, 899):
        session.advance(frame - session.frame)
        alive()
    to_game_over(session)
    over()
    session.set_buttons(0, 1 << session.system.buttons.index("START"))
    session.advance(1)
    session.set_buttons(0, 0)
    start = session.frame
    for frame in (5, 300, 650, 898):
        session.advance(start + frame - session.frame)
        alive()
    to_game_over(session)
    over()


def first_termination(env, limit: int = 3000) -> tuple[int, dict] | None:
    env.reset(seed=0)
    try:
        for step in range(1, limit):
            _, _, terminated, _, info = env.step(np.zeros(env.action_space.shape, dtype=env.action_space.dtype))
            if terminated:
                return step, info
        return None
    finally:
        env.close()


@pytest.mark.slow  # long replays
def test_marked_moments_give_a_rule_that_ends_the_env_at_the_game_over(nes):
    session = open_session(nes)
    marks = DoneMarks(session)
    mark_two_games(session, marks)
    assert (marks.count("alive"), marks.count("over")) == (9, 2)
    rules = marks.suggest()
    best = rules[0]
    assert best.variables == {"gameover": {"address": GAME_OVER, "type": "|u1"}}
    assert best.done == {"variables": {"gameover": {"op": "nonzero"}}}
    assert rule_terms(best, marks.data_variables()) == ["gameover (new variable, 0x12 |u1) nonzero"]
    assert len({json.dumps([r.variables, r.done], sort_keys=True) for r in rules}) == len(rules)  # no twice
    accepted = marks.accept(best)
    assert "gameover (0x12 |u1)" in accepted.describe() and accepted.previous is None
    session.close()
    assert json.loads((nes / "data.json").read_text())["info"]["gameover"] == {"address": GAME_OVER, "type": "|u1"}
    assert json.loads((nes / "scenario.json").read_text())["done"] == best.done
    step, info = first_termination(emucore.make(str(nes)))
    assert info["frame"] == 900 and info["gameover"] == 1  # the README's game over, not a frame earlier


@pytest.mark.slow  # long replays
def test_the_preview_shows_where_a_rule_fires_on_each_regression_movie(tmp_path):
    """A movie attached under the shipped rule (lives equal 0): a rule from too few alive marks
    (the timer's reload value) fires early; the one from well-chosen marks where it is expected."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    session = open_session(folder)
    session.movies.start_recording(folder / "to-the-end.bk2")
    to_game_over(session)
    session.advance(20)
    session.movies.stop_recording()
    expected = RegressionSuite(folder).attach(folder / "to-the-end.bk2").done_frame
    assert expected is not None
    session.close()
    data = json.loads((folder / "data.json").read_text())
    del data["info"]["game_over"], data["info"]["lives"]
    (folder / "data.json").write_text(json.dumps(data))
    session = open_session(folder)
    marks = DoneMarks(session)
    for frame in (100, 400, 700, 899):
        session.advance(frame - session.frame)
        marks.mark_alive()
    to_game_over(session)
    session.rewind.clear()  # no play before the mark to keep: the marks alone
    marks.mark_over()
    assert marks.marks[-1].play is None
    hasty = marks.suggest()[0]
    assert hasty.done == {"variables": {"timer": {"op": "equal", "reference": 300}}}  # never seen alive
    assert [(p.movie, p.expected) for p in marks.preview(hasty)] == [("to-the-end.bk2", expected)]
    assert marks.preview(hasty)[0].fires_at < expected  # it would end the episode at the first lost life
    marks.clear()
    session.reset_to_start()
    mark_two_games(session, marks)
    good = marks.suggest()[0]
    assert good.done == {"variables": {"gameover": {"op": "nonzero"}}}
    (row,) = marks.preview(good)
    assert row.fires_at == expected and row.same and row.error is None
    session.close()


def test_marks_survive_a_restart_and_a_bad_index_is_set_aside(nes):
    session = open_session(nes)
    marks = DoneMarks(session)
    mark_two_games(session, marks)
    before = marks.suggest()[0]
    saved = [(m.kind, m.frame) for m in marks.marks]
    session.close()
    again = open_session(nes)
    kept = DoneMarks(again)
    assert [(m.kind, m.frame) for m in kept.marks] == saved
    assert (kept.folder / kept.marks[0].file).is_file() and kept.marks[0].file == "alive-000000.state"
    assert kept.suggest()[0] == before
    kept.index_path.write_text("{not json")
    third = DoneMarks(again)
    assert third.marks == [] and third.index_path.with_name("index.json.bad").is_file()
    assert any(p.path == third.index_path and "not JSON" in p.problem for p in again.problems)
    again.close()


@pytest.mark.slow  # long replays
def test_an_unreadable_mark_is_set_aside_and_the_others_are_used(nes):
    session = open_session(nes)
    marks = DoneMarks(session)
    mark_two_games(session, marks)
    broken = marks.marks[1]
    (marks.folder / broken.file).write_bytes(b"junk")
    fresh = DoneMarks(session)  # reads the files again
    assert fresh.suggest()[0].variables == {"gameover": {"address": GAME_OVER, "type": "|u1"}}
    assert broken not in fresh.marks and (fresh.folder / f"{broken.file}.bad").is_file()
    assert any(p.path.name == broken.file for p in session.problems)
    session.close()


def test_bad_cases_say_what_to_do(nes):
    session = open_session(nes)
    marks = DoneMarks(session)
    with pytest.raises(ValueError, match="no game-over example yet"):
        marks.suggest()
    to_game_over(session)
    session.rewind.clear()  # no play before the mark is kept
    marks.mark_over()
    with pytest.raises(ValueError, match="no alive example yet.*right before the game over"):
        marks.suggest()
    marks.mark_alive()  # the same moment: nothing can tell them apart
    with pytest.raises(ValueError, match="no rule separates the examples: .* or mark alive moments right"):
        marks.suggest()
    marks.clear()
    session.reset_to_start()
    mark_two_games(session, marks)
    rule = marks.suggest()[0]
    data = json.loads((nes / "data.json").read_text())
    data["info"]["gameover"] = {"address": 5, "type": "|u1"}
    (nes / "data.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="another variable named 'gameover'.*suggest again"):
        marks.accept(rule)
    assert "done" not in json.loads((nes / "scenario.json").read_text())  # nothing was saved
    (nes / "data.json").write_text("{")
    with pytest.raises(ValueError, match="data.json"):
        marks.suggest()
    with pytest.raises(ValueError, match="no such movie"):
        marks.add_movie(nes / "missing.bk2")
    session.close()


@pytest.mark.slow  # long replays
def test_episode_movies_of_the_session_are_examples(tmp_path):
    """Episodes recorded under the shipped rule (lives equal 0) end at the game over; the one
    being recorded is left out."""
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    session = open_session(folder)
    marks = DoneMarks(session)
    episodes = tmp_path / "my-episodes"
    episodes.mkdir()
    session.movies.start_episode_recording(episodes)
    while session.movies.episodes.index < 3:
        session.advance(1)
    assert len(marks.movies()) == 2 and session.movies.recorder is not None
    rules = marks.suggest()
    assert rules[0].done == {"variables": {"game_over": {"op": "nonzero"}}}
    marks.remove_movie(marks.movies()[0])
    assert len(DoneMarks(session).movies()) == 1  # the folder and the removal are remembered
    session.close()


def test_a_rule_from_atari_episodes_ends_a_held_out_episode_where_the_shipped_one_does(tmp_path):
    """Breakout from stable-retro's integration and ale-py's ROM: three episodes recorded under
    the shipped done; two of them, without the rule and the lives variable, suggest one that a
    third (attached to the regression) agrees with, in the preview and in the env."""
    from bench.atari_games import ale_rom, stable_data
    from studio.model.scenario.regression import replay

    data_root, rom = stable_data(), ale_rom("Breakout")
    if data_root is None or rom is None:
        pytest.skip("stable-retro's Breakout-Atari2600-v0 or ale-py's ROM for it is not installed")
    folder = tmp_path / "Breakout-Atari2600-v0"
    shutil.copytree(data_root / folder.name, folder)
    shutil.copyfile(rom, folder / "rom.a26")
    session = open_session(folder)
    episodes = session.states.workspace / "episodes"  # the studio's default folder
    episodes.mkdir(parents=True)
    session.movies.start_episode_recording(episodes)
    fire, left, right = (1 << session.system.buttons.index(b) for b in ("BUTTON", "LEFT", "RIGHT"))
    rng = np.random.default_rng(0)
    while session.movies.episodes.index < 4:
        session.set_buttons(0, int(rng.choice([0, fire, left, right, fire | left, fire | right])))
        session.advance(1)
    session.movies.stop_recording()
    movies = sorted(episodes.glob("*.bk2"))
    assert len(movies) == 4  # the last one ended by the stop, not a game over
    held_out = folder / "held-out.bk2"
    shutil.copyfile(movies[2], held_out)
    expected = RegressionSuite(folder).attach(held_out).done_frame
    scenario = json.loads((folder / "scenario.json").read_text())
    del scenario["done"]
    (folder / "scenario.json").write_text(json.dumps(scenario))
    (folder / "data.json").write_text(json.dumps({"info": {"score": {"address": 204, "type": ">d2"}}}))
    marks = DoneMarks(session)
    for movie in movies[2:]:
        marks.remove_movie(movie)
    assert len(marks.movies()) == 2
    rule = marks.suggest()[0]
    assert rule.variables and all(p.same for p in marks.preview(rule))
    marks.accept(rule)
    session.close()
    assert replay(folder, held_out)[1] == expected
