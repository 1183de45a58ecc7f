"""Find from screen's reader, without Qt, on our homebrew NES game (homebrew/nes/README.md: holding
A adds 1 to the score a frame, B 10; the score at $20 ``<u2``, its digits at $22 ``>n5``, drawn at
frame box (56, 8, 40, 7) and blinking 6 frames of 32; the top score under it draws the same
digits all through a first game)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from emucore.assist.screen_file import read_screen
from emucore.paths import integrations_dir
from emucore.search.snapshot import snapshot_from_state
from studio.model.export import export_integration
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.scenario.integration_check import check_workspace
from studio.model.search.screen_reader import ScreenReader, ScreenReaderError
from studio.model.search.screen_values import ScreenValueFinder

FRAME, SCORE = 0x10, 0x20
SCORE_BOX = (56, 8, 40, 7)


def nes_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "StudioDemo-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    return folder


@pytest.fixture
def session(tmp_path):
    opened = Session(*resolve_game(str(nes_copy(tmp_path)), None))
    yield opened
    opened.close()


def hold(session: Session, button: str | None, frames: int) -> None:
    session.set_buttons(0, 1 << session.system.buttons.index(button) if button else 0)
    session.advance(frames)
    session.set_buttons(0, 0)


def steady(session: Session) -> str:
    """Buttons released until the score is drawn and held (not in the blink): the digits it shows."""
    hold(session, None, 2)
    while not 1 <= session.emulator.memory.read(FRAME, "<u2") & 31 <= 20:  # drawn on this frame and the next
        hold(session, None, 1)
    return f"{session.emulator.memory.read(SCORE, '<u2'):05d}"


def type_three(session: Session, finder: ScreenValueFinder) -> None:
    for button, frames in (("A", 20), ("B", 13), ("A", 7)):
        hold(session, button, frames)
        finder.add(steady(session))


def shown_in(session: Session, state: bytes) -> str:
    with session.scratch() as emulator:
        return f"{snapshot_from_state(emulator, state).read(SCORE, '<u2'):05d}"


def taught(session: Session, screen: ScreenReader) -> int:
    """Answers every question as a person would (the digit the state's score has there)."""
    asked = 0
    for question in screen.questions():
        screen.teach(question, shown_in(session, question.state)[question.cell])
        asked += 1
    return asked


def test_typed_values_in_a_first_game_ask_for_a_box_then_the_box_reads_every_frame(session):
    finder, screen = ScreenValueFinder(session), ScreenReader(session)
    type_three(session, finder)
    with pytest.raises(ScreenReaderError, match="2 places draw those digits alike") as alike:
        screen.locate("", finder.checkpoints)
    assert len(alike.value.boxes) == 2 and any(b[:2] == SCORE_BOX[:2] for b in alike.value.boxes)
    said = screen.learn((54, 6, 44, 11), "", finder.checkpoints)  # a few pixels loose, as a drag is
    assert screen.reader is not None and screen.reader.box == SCORE_BOX, said
    assert said.startswith("reads 5 digits at x 56, y 8")
    assert screen.read_now() == f"{session.emulator.memory.read(SCORE, '<u2'):05d}"
    hold(session, "B", 300)
    hold(session, "A", 200)
    assert taught(session, screen) >= 1 and screen.reader.glyphs == "0123456789"
    assert not screen.questions()
    hold(session, "A", 64)  # read on every frame now, but in the blink (6 frames of 32)
    frames, values = screen.samples()
    assert len(frames) >= 500 and frames[-1] == session.frame
    recent = values[-64:]
    assert (recent != recent).sum() == 12  # the blink's frames are NaN
    assert recent[-2] == session.emulator.memory.read(SCORE, "<u2") - 2  # the HUD draws the frame before's


def test_the_whole_play_finds_the_score_and_says_how_many_frames_it_read(session):
    finder, screen = ScreenValueFinder(session), ScreenReader(session)
    finder.add(steady(session))
    hold(session, "B", 13)
    screen.learn(SCORE_BOX, steady(session), finder.checkpoints)
    hold(session, "A", 150)
    hold(session, "B", 150)
    taught(session, screen)
    result = screen.solve()  # no typed checkpoint needed
    best = result[0]
    assert (best.address, best.type) in {(SCORE, "<u2"), (0x22, ">n5")}, [c.describe() for c in result[:3]]
    assert result.screen_read.frames == len(session.rewind)
    assert result.screen_read.describe().startswith(f"read {len(session.rewind):,} frames")


def test_the_reader_survives_a_restart_and_a_damaged_file_is_set_aside(session, tmp_path):
    screen = ScreenReader(session)
    hold(session, "B", 13)
    screen.learn(SCORE_BOX, steady(session))
    again = ScreenReader(session)
    assert again.reader is not None and again.reader.box == SCORE_BOX and again.read_now() == screen.read_now()
    screen.path.write_text(json.dumps({"version": 1, "box": "nowhere"}))
    problems = []
    broken = ScreenReader(session, report=problems.append)
    assert broken.reader is None and len(problems) == 1 and problems[0].kept_as is not None
    assert problems[0].kept_as.exists() and not screen.path.exists()
    assert "without a screen reader" in str(problems[0])
    screen.forget()
    assert screen.reader is None and screen.read_now() is None


def test_export_writes_screen_json_and_check_compares_the_reward_with_the_screen(session, tmp_path):
    screen = ScreenReader(session)
    hold(session, "B", 13)
    screen.learn(SCORE_BOX, steady(session))
    session.movies.start_episode_recording(tmp_path / "episodes")
    hold(session, "A", 150)
    hold(session, "B", 150)
    taught(session, screen)
    while session.frame > 100:  # to the done (lives 0): the recording keeps the episode and starts again
        hold(session, "A", 10)
    session.movies.stop_recording()
    episodes = sorted((tmp_path / "episodes").rglob("*.bk2"))[:1]
    assert episodes
    check = check_workspace(session, episodes, [], {}, screen=screen.reader)
    kinds = {f.kind for f in check.report.findings} if check.report else set()
    assert "screen" in kinds, [r.message for r in check.rows]
    agrees = [r for r in check.rows if "the reward agrees with the number on screen" in r.message]
    assert len(agrees) == 1 and "changes (100%)" in agrees[0].message, [r.message for r in check.rows]
    assert not [f for f in check.report.findings if f.kind == "screen-reward"]
    result = export_integration(session.folder, tmp_path / "out", screen=screen.reader)
    assert "screen.json" in result.files and not result.errors, result.findings
    assert read_screen(result.folder / "screen.json").box == SCORE_BOX
