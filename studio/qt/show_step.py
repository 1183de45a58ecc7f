"""``retro-studio --screenshot PNG --show STEP``: the window at one step of making an integration (the walkthrough
of the documentation, one picture per step), staged without a person.

Each step raises the dock, tab or dialog of that step and, on the demo games, plays and types what a person
would (the score held up and typed at three moments, the lives labelled, a game over marked), through the
studio's own commands and panels. It all happens in a scratch copy of the game's integration and of the studio's
data folder (:func:`scratch_studio`), deleted at the end: a staged step changes nothing of the user's.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMargins, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from emucore.integration import SHA_FILE

if TYPE_CHECKING:
    from studio.qt.main_window import MainWindow

@dataclass(frozen=True)
class Demo:
    """How a staged step plays a demo game (homebrew/*/README.md)."""

    score_button: str  # held, it adds to the score every frame
    digits: int  # the score's digits on the screen


DEMOS = {"StudioDemo-Nes": Demo("B", 5), "StudioDemo-Genesis": Demo("C", 8)}
LIFE_FRAMES = 300  # both demos lose a life every 300 frames of play
GAME_OVER_TEXT_FRAMES = 240  # the NES demo shows GAME OVER 224 frames after the game ends


@contextmanager
def scratch_studio() -> Iterator[Path]:
    """A temporary studio data folder (``RETRO_STUDIO_DATA``) while the block runs; then the variable is put
    back and the folder deleted."""
    before = os.environ.get("RETRO_STUDIO_DATA")
    with tempfile.TemporaryDirectory(prefix="retro-studio-show-") as folder:
        os.environ["RETRO_STUDIO_DATA"] = folder
        try:
            yield Path(folder)
        finally:
            if before is None:
                os.environ.pop("RETRO_STUDIO_DATA", None)
            else:
                os.environ["RETRO_STUDIO_DATA"] = before


def scratch_copy(rom: Path, state: Path | None, scratch: Path) -> tuple[Path, Path | None]:
    """The ROM and state to open in ``scratch``: an integration's folder is copied there (a staged step may save
    states and marks in it); a ROM of no integration is opened where it is (the studio makes its integration in
    the scratch data folder)."""
    if not (rom.stem == "rom" and (rom.parent / SHA_FILE).exists()):
        return rom, state
    copy = scratch / "games" / rom.parent.name
    shutil.copytree(rom.parent, copy, symlinks=False)
    if state is not None and state.parent == rom.parent:
        state = copy / state.name
    return copy / rom.name, state


# ---- the steps ----

def stage(window: MainWindow, step: str) -> QPixmap:
    """Stages ``step`` in ``window`` (shown, paused) and returns its picture: the window, with the step's dialog
    over it where the step has one (the dialog is closed after)."""
    dialog = STAGES[step](Stager(window))
    QApplication.processEvents()
    picture = window.grab()
    if dialog is not None:
        QApplication.processEvents()
        picture = _with_dialog(picture, dialog)
        dialog.close()
    return picture


class Stager:
    """What a person would do in a step, through the window's commands and panels."""

    def __init__(self, window: MainWindow):
        self.window = window
        self.session = window.session
        self.demo = DEMOS.get(self.session.name)

    def hold(self, button: str | None, frames: int) -> None:
        """Plays ``frames`` frames holding ``button`` (None: nothing), paused after."""
        session = self.session
        session.set_paused(True)
        buttons = session.system.buttons
        session.set_buttons(0, 1 << buttons.index(button) if button in buttons else 0)
        session.advance(frames)
        session.set_buttons(0, 0)
        QApplication.processEvents()

    def value(self, name: str) -> int | None:
        return self.window.watch.value(name) if name in self.window.watch.variables else None

    def type_scores(self) -> None:
        """Find from screen (Ctrl+J): the score held up and typed at three moments."""
        self.window.command("find_from_screen")()
        if self.demo is None:
            return
        finder = self.window.search_tabs.from_screen
        for frames in (25, 40, 60):
            self.hold(self.demo.score_button, frames)
            self.hold(None, 1)
            score = self.value("score")
            if score is None:
                return
            self.window.command("find_from_screen")()
            finder.shown.setText(f"{score:0{self.demo.digits}d}")
            finder.enter()
        self.window.command("find_from_screen")()  # the tab shown as after Ctrl+J, its field focused

    def make_room(self) -> None:
        """The RAM dock closed: the side dock's panel gets the window's height."""
        self.window.ram_dock.hide()

    def record_an_episode(self) -> None:
        """Movie > Record episodes, played (the score held up now and then) until the scenario's done ends the
        episode, then Movie > Stop."""
        if self.demo is None:
            return
        session = self.session
        session.movies.start_episode_recording(session.states.workspace / "episodes")  # the folder the command proposes
        episodes = session.movies.episodes
        moves = (self.demo.score_button, "RIGHT", "DOWN", "LEFT", "UP", None)  # every variable changes
        for frame in range(0, 4 * LIFE_FRAMES, 10):
            if episodes is None or episodes.index > 1:  # the first episode ended, the next began
                break
            self.hold(moves[frame // 20 % len(moves)], 10)
        self.window.command("stop_movie")()

    def play_to_game_over(self) -> None:
        """Plays until the game is over (and its GAME OVER shows), then marks it (Ctrl+Shift+G)."""
        if self.demo is None:
            return
        for _ in range(4 * LIFE_FRAMES // 10):
            if self.value("game_over") or self.value("lives") == 0:
                break
            self.hold(None, 10)
        self.hold(None, GAME_OVER_TEXT_FRAMES)
        self.window.command("mark_game_over")()


def _open(stager: Stager) -> QWidget:
    """File > Open from the game list, searching for the open game's title."""
    from studio.qt.game_list import GameListDialog

    dialog = GameListDialog(stager.window)
    dialog.search.setText(stager.session.name.rpartition("-")[0] or stager.session.name)
    dialog.show()
    return dialog


def _play(stager: Stager) -> None:
    """Played a while (the score held up on a demo), two named states kept, the States dock raised."""
    window = stager.window
    button = stager.demo.score_button if stager.demo else None
    for name, frames in (("scoring", 60), ("later", 120)):
        stager.hold(button, frames)
        stager.session.save_state(name)
        stager.session.save_slot(1)
    stager.hold(None, 30)
    window.states_dock.raise_()
    window.states_panel.list.setCurrentRow(0)


def _find_score(stager: Stager) -> None:
    stager.make_room()
    stager.type_scores()


def _lives(stager: Stager) -> None:
    """The lives wizard: the moment labelled with the lives shown at three lives, compared, its tab raised."""
    window = stager.window
    stager.make_room()
    window.search_dock.raise_()
    tabs = window.search_tabs
    labels = tabs.labels
    tabs.show_page(labels)
    if stager.demo is not None:
        for life in range(3):
            lives = stager.value("lives")
            if lives is None:
                break
            if life:
                stager.hold(None, LIFE_FRAMES)  # a life lost
                lives = stager.value("lives") or 0
            labels.value.setValue(lives)
            labels.label_now()
        labels.compare()
        message = labels.message.text()
        tabs.show_page(labels)  # the wizard, with what the comparison found
        labels.message.setText(message)


def _done(stager: Stager) -> None:
    """A game over marked, the Scenario dock's "Suggest done" tab raised, and Suggest pressed."""
    stager.make_room()
    stager.play_to_game_over()
    window = stager.window
    window.scenario_dock.raise_()
    window.scenario_editor.show_suggest()
    if stager.demo is not None:
        window.scenario_editor.done_suggest.suggest()


def _check(stager: Stager) -> QWidget | None:
    """Checkpoints typed and a game over marked, then Tools > Check integration."""
    stager.record_an_episode()
    stager.type_scores()
    stager.play_to_game_over()
    stager.window.command("check_integration")()
    return stager.window.check_dialog


def _export(stager: Stager) -> QWidget:
    """The export, into a scratch folder, with the ROM: what File > Export says when done."""
    from studio.qt.commands import TITLE, export_report

    folder = Path(os.environ["RETRO_STUDIO_DATA"]) / "export"
    box = QMessageBox(QMessageBox.Icon.Information, "Export", export_report(stager.window, folder, include_rom=True),
                      QMessageBox.StandardButton.Ok, stager.window)
    box.setWindowTitle(f"Export - {TITLE}")
    box.show()
    return box


def _agent(stager: Stager) -> QWidget:
    """Tools > Run agent, with its default agent (sanity) run once to the end."""
    from studio.qt.agents.agent_run_dialog import AgentDialog

    window = stager.window
    stager.type_scores()  # the run's return is then weighed against the score typed
    dialog = AgentDialog(window.session.folder, window.session.state_name, window, settings=window.settings)
    dialog.tensorboard_box.setChecked(False)  # its log would be in the scratch folder, deleted at exit
    dialog.show()
    dialog.run()
    dialog.wait(120)
    for _ in range(20):  # the worker's last signals, queued on this thread
        QApplication.processEvents()
    return dialog


# in the walkthrough's order (docs/studio.md); studio.app.SHOW_STEPS names them for --help without Qt
STAGES: dict[str, Callable[[Stager], QWidget | None]] = {
    "open": _open, "play": _play, "find-score": _find_score, "lives": _lives, "done": _done,
    "check": _check, "export": _export, "agent": _agent,
}


# ---- the picture ----

TITLE_BAR = 26


def _with_dialog(window: QPixmap, dialog: QWidget) -> QPixmap:
    """The window's picture, dimmed, with the dialog (and a title bar: the offscreen platform draws none)
    centred over it; a dialog larger than the window is scaled down to fit."""
    shot = dialog.grab()
    room = window.size().shrunkBy(QMargins(16, 16, 16, 16))
    if shot.width() > room.width() or shot.height() + TITLE_BAR > room.height():
        shot = shot.scaled(room.width(), room.height() - TITLE_BAR, Qt.AspectRatioMode.KeepAspectRatio,
                           Qt.TransformationMode.SmoothTransformation)
    picture = QPixmap(window)
    painter = QPainter(picture)
    painter.fillRect(picture.rect(), QColor(0, 0, 0, 70))
    top_left = QPoint((picture.width() - shot.width()) // 2, (picture.height() - shot.height() - TITLE_BAR) // 2)
    frame = QRect(top_left, shot.size()).adjusted(-1, -1, 1, TITLE_BAR + 1)
    painter.fillRect(frame, QColor(60, 60, 60))
    bar = QRect(top_left, shot.size()).adjusted(0, 0, 0, TITLE_BAR - shot.height())
    painter.fillRect(bar, QColor(225, 225, 225))
    painter.setPen(QColor(30, 30, 30))
    painter.drawText(bar.adjusted(10, 0, -10, 0), Qt.AlignmentFlag.AlignVCenter, dialog.windowTitle())
    painter.drawPixmap(top_left + QPoint(0, TITLE_BAR), shot)
    painter.end()
    return picture
