"""A whole integration of a real game from a bare ROM, as an integrator does it in the studio:
score from the screen, lives from labelled moments, a done rule from marked moments, a start
state, an export, and an env that trains on it. No manual refinement anywhere.

The game is Airstriker (the ROM in the stable-retro wheel); the test plays it with scripted
inputs and reads "what the screen shows" (``Lives: 3  Score: 20``) from stable-retro's shipped
integration, which is also what the result is checked against. Every studio command the
integrator gives is counted (``inputs``); set ``RETRO_WALKTHROUGH_SHOTS`` to a folder to keep a
screenshot of the window at each step.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

import emucore
from studio.model.export import export_integration
from studio.model.play.session import Session
from studio.model.search.search_book import proposed_name
from studio.model.settings import Settings

pytestmark = pytest.mark.slow  # a walkthrough that trains an agent

SCORE, LIVES, PHASE = (16712270, ">u4"), (16712282, ">u2"), (16712294, ">u2")
HI_SCORE = 0xFF0234  # "Hi: 20", found beside the score while the first game lasts


class Integrator:
    """The window, the game's buttons, and a count of the commands given."""

    def __init__(self, qtbot, rom: Path):
        from studio.model.workspace import Workspace
        from studio.qt.main_window import MainWindow

        self.window = MainWindow(Workspace(Session(rom), Settings()), persist=False)
        self.window.timer.stop()  # the test plays the game itself
        self.window.resize(1400, 900)
        qtbot.addWidget(self.window)
        self.window.show()
        self.session = self.window.session
        self.buttons = self.session.system.buttons
        self.inputs: list[str] = []
        self.shots = Path(os.environ["RETRO_WALKTHROUGH_SHOTS"]) if os.environ.get("RETRO_WALKTHROUGH_SHOTS") else None

    def did(self, what: str, count: int = 1) -> None:
        self.inputs += [what] * count

    def shot(self, name: str) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            self.window.view.show_frame(self.session.screen())
            QApplication.processEvents()
            self.window.grab().save(str(self.shots / f"{len(self.inputs):02d}-{name}.png"))

    def play(self, frames: int, start: bool = False) -> None:
        """Fires and sweeps left and right, as the test's player does; START at the title."""
        fire = sum(1 << self.buttons.index(b) for b in ("A", "B", "C"))
        for _ in range(frames):
            frame = self.session.frame
            mask = fire if frame % 4 < 2 else 0
            mask |= 1 << self.buttons.index("LEFT" if (frame // 60) % 2 else "RIGHT")
            if start:
                mask |= 1 << self.buttons.index("START")
            self.session.set_buttons(0, mask)
            self.session.advance(1)
        self.session.set_buttons(0, 0)

    def read(self, variable: tuple[int, str]) -> int:
        return self.session.emulator.memory.read(*variable)

    def start_game(self) -> None:
        """START at the title screen until a game runs (3 ships, no score)."""
        for _ in range(20):
            self.play(100)
            self.play(5, start=True)
            self.play(20)
            if self.read(LIVES) == 3 and self.read(SCORE) == 0:
                return
        raise AssertionError(f"no game started (frame {self.session.frame})")

    def play_until(self, done, limit: int = 3000) -> None:
        """Plays until ``done()`` (an AssertionError after ``limit`` frames)."""
        for _ in range(limit):
            if done():
                return
            self.play(1)
        raise AssertionError(f"not reached in {limit} frames (frame {self.session.frame}, lives {self.read(LIVES)}, "
                             f"score {self.read(SCORE)}, phase {self.read(PHASE)})")


@pytest.fixture
def bare_rom(airstriker, tmp_path) -> Path:
    rom = tmp_path / "roms" / "Airstriker.md"
    rom.parent.mkdir()
    shutil.copyfile(airstriker / "rom.md", rom)
    return rom


def test_bare_rom_to_a_trained_integration(qtbot, bare_rom, tmp_path):
    me = Integrator(qtbot, bare_rom)
    window, session = me.window, me.session
    assert window.watch.variables == {} and session.created
    finder, wizard = window.search_tabs.from_screen, window.search_tabs.labels

    def type_the_score() -> None:
        window.menu_actions["find_from_screen"].trigger()
        finder.shown.setText(str(me.read(SCORE)))  # "Score: 20"
        finder.shown.returnPressed.emit()
        me.did("Ctrl+J, type the score, Enter", 4)

    def label_the_lives() -> None:
        window.search_tabs.show_page(wizard)
        wizard.value.setValue(me.read(LIVES))  # "Lives: 3"
        wizard.label_now()
        me.did("Lives tab, type the lives shown, click Label now", 3)

    # 1. a first game from the title screen: as the score changes, Ctrl+J, type what is shown,
    #    Enter (twice); as a ship is lost, label the lives shown on the Lives tab (3, 2, 1)
    me.start_game()
    me.did("Enter at the title screen")
    me.play(30)
    label_the_lives()
    score, lives = me.read(SCORE), me.read(LIVES)
    for _ in range(6000):
        me.play(1)
        if me.read(SCORE) != score and len(finder.finder.checkpoints) < 2:
            me.play(2)
            type_the_score()
        if me.read(LIVES) != lives and me.read(LIVES) > 0:
            me.play(30)
            label_the_lives()
        score, lives = me.read(SCORE), me.read(LIVES)
        if len(wizard.labels.labels) == 3 and len(finder.finder.checkpoints) == 2:
            break
    me.shot("score-two-checkpoints")
    assert finder.results  # not yet told apart: two small values fit many bytes, and "Hi" equals the score
    # 2. lives: compare the labels, make the first row a variable
    name = wizard.compare()
    me.did("click Compare")
    model = window.search_panel.model
    me.shot("lives-compared")
    top = model.index(0, 0)
    # stable-retro keeps lives as ">u2" at 0xFF025A (its own linter calls that type suspicious);
    # the high byte is always zero, so the byte at 0xFF025B reads the same number and ranks first
    assert (model.data(top), model.data(top.siblingAtColumn(1))) == (f"0x{LIVES[0] + 1:X}", "|u1"), name
    assert proposed_name(window.search_panel.book.current_name, LIVES[0] + 1) == "lives"
    window.search_panel.make_variable_from(top, "lives")
    me.did("double-click the first row, Enter (the name proposed: lives)", 2)
    # 3. the next game: save its start as the default state, and type the score once more, now
    #    that the high score stays behind ("Hi: 100")
    me.play_until(lambda: me.read(LIVES) == 0 and me.read(PHASE) == 1)
    me.start_game()
    me.did("Enter at the title screen")
    session.save_state("Level1")
    session.states.set_default("Level1")
    me.did("Ctrl+S, type 'Level1', Enter", 3)
    me.did("States dock: right-click Level1 > Default", 2)
    me.play_until(lambda: me.read(SCORE) > 0)
    me.play(2)
    type_the_score()
    me.shot("score-candidates")
    assert session.screen().any()  # the solver loaded other states (the core clears its buffer): the picture stays
    assert HI_SCORE not in {c.address for c in finder.results}  # the high score stayed at the last game's
    # below 256 the score's low byte reads the same as the whole score: the box says so, and the
    # integrator picks the 4-byte one it names
    best = finder.results[0]
    assert (best.address, best.type) == (SCORE[0] + 3, "|u1")
    assert f"{SCORE[1]} at 0x{SCORE[0]:X}" in finder.message.text()
    chosen = next(i for i, c in enumerate(finder.results) if (c.address, c.type) == SCORE)
    assert chosen <= 3 and finder.results[chosen].scale == 1 and finder.results[chosen].bias == 0
    assert finder.make_variable(chosen, "score") == "score"  # the proposed name: Enter
    me.did("double-click that candidate, Enter", 2)
    # 4. the done rule: record an episode from the start state (every frame of it is alive), mark
    #    the game over when "You died. Game over" shows (which ends the episode), stop, suggest, accept
    session.load_state("Level1")
    me.did("States dock: double-click Level1")
    episodes = session.states.workspace / "episodes"
    session.movies.start_episode_recording(episodes)
    me.did("Movie > Record episodes, OK", 2)
    me.play_until(lambda: me.read(PHASE) == 1 and me.read(LIVES) == 0, limit=6000)
    me.play(30)
    window.menu_actions["mark_over"].trigger()
    me.did("Ctrl+Shift+G at the game over")
    session.movies.stop_recording()
    me.did("Ctrl+.")
    box = window.scenario_editor.done_suggest
    window.scenario_dock.raise_()
    window.scenario_editor.show_suggest()
    me.did("Scenario dock, Suggest done tab", 2)
    box.suggest()
    me.did("click Suggest")
    me.shot("done-suggested")
    assert box.rules, box.message.text()
    assert box.accept().startswith("Before accepting, weigh: one game over seen")  # said before it is written
    me.did("click Accept")
    assert box.accept_button.text() == "Accept anyway"
    box.accept()
    me.did("click Accept anyway")
    # 5. export, and an env that trains on it
    exported = export_integration(session.folder, tmp_path / "export", include_rom=True)
    me.did("Ctrl+E, choose a folder, OK", 3)
    assert not exported.errors, exported.errors
    window.close()
    scenario = json.loads((exported.folder / "scenario.json").read_text())
    assert scenario["reward"]["variables"]["score"]["reward"] == 1.0 and scenario["done"]
    env = emucore.make(str(exported.folder), inttype=emucore.data.Integrations.ALL)
    env.reset(seed=0)
    env.action_space.seed(0)
    total, steps, terminated, lives_seen = 0.0, 0, False, set()
    while not terminated and steps < 20000:
        _, reward, terminated, _, info = env.step(env.action_space.sample())
        total += reward
        steps += 1
        lives_seen.add(info["lives"])
    env.close()
    # it ends at the game over, not before: every ship was lost first
    assert terminated and info["lives"] == 0 and lives_seen == {0, 1, 2, 3}, (steps, info, scenario)
    assert len(me.inputs) <= 60, me.inputs
    if me.shots is not None:
        (me.shots / "inputs.txt").write_text(f"{len(me.inputs)} inputs, {steps} env steps to the game over\n"
                                             + "\n".join(me.inputs) + "\n" + json.dumps(scenario) + "\n")
