"""The studio's commands that need Qt: file dialogs, input dialogs and message boxes.

Each is a function of the main window, named by the menu table (:mod:`studio.model.menus`); what
they do to the game goes through the workspace and its models. The commands that need no dialog are
functions of the workspace, in :mod:`studio.model.commands`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from emucore.errors import EmucoreError
from emucore.integration import STATE_SUFFIX
from studio.model import commands as workspace_commands
from studio.model.menus import MENU_ITEMS
from studio.model.play.bindings import REWIND_KEY, key_map

if TYPE_CHECKING:
    from studio.qt.main_window import MainWindow

TITLE = "Retro Integration Studio"


def guard(window: MainWindow, action: Callable[[], object]) -> None:
    """Runs ``action``; an error it raises is shown in a message box (the game goes on)."""
    try:
        action()
    except (EmucoreError, OSError, ValueError, RuntimeError) as exc:  # OpenError is a ValueError
        QMessageBox.warning(window, TITLE, str(exc))


# ---- files and games ----

def open_dialog(window: MainWindow) -> None:
    path, _ = QFileDialog.getOpenFileName(window, "Open a ROM, state or movie")
    if path:
        open_path(window, Path(path))


def open_path(window: MainWindow, path: Path) -> None:
    """A .state loads into the running game, a .bk2 plays, a ROM or folder opens a new game."""
    suffix = path.suffix.lower()
    session = window.session
    if suffix == STATE_SUFFIX:
        guard(window, lambda: session.load_state_file(path))
    elif suffix in (".bk2", ".fm2"):
        guard(window, lambda: session.movies.play(path))
    else:
        guard(window, lambda: window.open_game(path))


def open_game_list(window: MainWindow) -> None:
    from studio.qt.game_list import GameListDialog

    dialog = GameListDialog(window)
    if dialog.exec() and dialog.chosen is not None:
        chosen = dialog.chosen
        guard(window, lambda: window.open_game(chosen))


def build_recent_menu(window: MainWindow) -> None:
    menu = window.recent_menu
    menu.clear()
    for target in window.settings.recent:
        action = menu.addAction(target)
        action.triggered.connect(lambda _=False, t=target: guard(window, lambda: window.open_game(Path(t))))
    menu.setEnabled(bool(window.settings.recent))


def offer_known_integration(window: MainWindow) -> None:
    from studio.qt.known_rom_prompt import offer_on_open

    guard(window, lambda: offer_on_open(window))


def export_dialog(window: MainWindow) -> None:
    from studio.qt.scenario.integration_check_dialog import offer_check_before_export

    if not offer_check_before_export(window):
        return
    folder = QFileDialog.getExistingDirectory(window, "Export the integration into")
    if not folder:
        return
    include_rom = QMessageBox.question(
        window, "Export", "Include the ROM in the exported folder?") == QMessageBox.StandardButton.Yes
    guard(window, lambda: QMessageBox.information(window, "Export", export_report(window, folder, include_rom)))


def export_report(window: MainWindow, folder: str | Path, include_rom: bool) -> str:
    """Exports the open integration into ``folder``; what was written, with the warnings and findings."""
    from studio.model.export import export_integration

    result = export_integration(window.session.folder, folder, include_rom=include_rom,
                                screen=window.workspace.screen_reader.reader)
    lines = [f"{result.folder}: {len(result.files)} files ({', '.join(result.files)})."]
    lines += [f"warning: {w}" for w in result.warnings]
    lines += [f"{f.level}: {f.file} {f.key}: {f.message}" for f in result.findings[:20]]
    return "\n".join(lines)


def close(window: MainWindow) -> None:
    window.close()


# ---- emulation ----

def advance_n(window: MainWindow) -> None:
    frames, ok = QInputDialog.getInt(window, "Frame advance", "Frames:", window.advance_count, 1, 100000)
    if ok:
        window.advance_count = frames
        workspace_commands.advance(window.workspace, frames)


def save_named_state(window: MainWindow) -> None:
    window.states_panel.save_as()


def show_controls(window: MainWindow) -> None:
    from studio.qt.play.bindings_dialog import ControlsDialog

    session = window.session
    if ControlsDialog(session.system, window.settings, window).exec():
        window.workspace.input.set_keys(key_map(session.system, window.settings))


# ---- movies ----

def record_movie(window: MainWindow, power_on: bool = False) -> None:
    session = window.session
    default = str(session.states.workspace / f"{session.name}-{int(time.time())}.bk2")
    path, _ = QFileDialog.getSaveFileName(window, "Record a movie", default, "Movies (*.bk2)")
    if path:
        players, ok = QInputDialog.getInt(window, "Record a movie", "Players:", 1, 1, 2)
        if ok:
            guard(window, lambda: session.movies.start_recording(path, power_on=power_on, players=players))


def record_movie_power_on(window: MainWindow) -> None:
    record_movie(window, power_on=True)


def record_episodes(window: MainWindow) -> None:
    session = window.session
    proposed = session.states.workspace / "episodes"
    try:  # the folder proposed exists, so that choosing it works ("Directory not found" otherwise)
        proposed.mkdir(parents=True, exist_ok=True)
    except OSError:
        proposed = session.states.workspace
    folder = QFileDialog.getExistingDirectory(window, "Folder for the episodes' movies", str(proposed))
    if folder:
        guard(window, lambda: session.movies.start_episode_recording(folder))


def play_movie_dialog(window: MainWindow) -> None:
    path, _ = QFileDialog.getOpenFileName(window, "Play a movie", "", "Movies (*.bk2 *.fm2)")
    if path:
        guard(window, lambda: window.session.movies.play(path))


# ---- view ----

def toggle_integer_scaling(window: MainWindow) -> None:
    window.settings.integer_scaling = window.menu_actions["integer_scaling"].isChecked()
    window.view.integer_scaling = window.settings.integer_scaling
    window.view.update()


def toggle_mute(window: MainWindow) -> None:
    window.settings.muted = window.menu_actions["mute"].isChecked()
    window.audio.set_muted(window.settings.muted)


def choose_volume(window: MainWindow) -> None:
    settings = window.settings
    percent, ok = QInputDialog.getInt(window, "Volume", "Volume (%):", round(settings.volume * 100), 0, 100)
    if ok:
        settings.volume = percent / 100
        window.audio.set_volume(settings.volume)
        settings.save()


# ---- tools ----

def check_integration(window: MainWindow) -> None:
    from studio.qt.scenario.integration_check_dialog import CheckDialog, run_check

    def check() -> None:
        window.session.set_paused(True)
        window.check_dialog = CheckDialog(window, run_check(window))
        window.check_dialog.show()

    guard(window, check)


def run_agent(window: MainWindow) -> None:
    from studio.qt.agents.agent_run_dialog import AgentDialog

    window.session.set_paused(True)
    AgentDialog(window.session.folder, window.session.state_name, window, settings=window.settings).exec()


def attach_regression_movie(window: MainWindow) -> None:
    from studio.model.scenario.regression import RegressionSuite

    folder = window.session.folder
    path, _ = QFileDialog.getOpenFileName(window, "Attach a movie", str(folder), "Movies (*.bk2)")
    if path:
        def attach() -> None:
            expectation = RegressionSuite(folder).attach(Path(path))
            QMessageBox.information(window, "Regression", f"{expectation.movie}: total reward "
                                    f"{expectation.total_reward:g}, done at line {expectation.done_frame}")

        guard(window, attach)


def check_regression(window: MainWindow) -> None:
    from emucore.scenario.explain import reasons_text
    from studio.model.scenario.regression import RegressionSuite

    def check() -> None:
        outcomes = RegressionSuite(window.session.folder).check()
        if not outcomes:
            QMessageBox.information(window, "Regression", "No movie is attached to this integration yet.")
            return
        lines = [
            f"{'CHANGED' if o.changed else 'ok'}  {o.expectation.movie}: reward {o.total_reward:g} "
            f"(expected {o.expectation.total_reward:g}), done at {o.done_frame} "
            f"(expected {o.expectation.done_frame})"
            + (f", because {reasons_text(o.done_reasons)}" if o.done_reasons else "")
            + (f"  {o.error}" if o.error else "")
            for o in outcomes
        ]
        QMessageBox.information(window, "Regression", "\n".join(lines))

    guard(window, check)


def find_from_screen(window: MainWindow) -> None:
    window.search_dock.show()
    window.search_dock.raise_()
    window.search_tabs.find_from_screen()


def mark_alive(window: MainWindow) -> None:
    window.statusBar().showMessage(window.scenario_editor.done_suggest.mark_alive(), 5000)


def mark_game_over(window: MainWindow) -> None:
    window.statusBar().showMessage(window.scenario_editor.done_suggest.mark_over(), 5000)


# ---- help ----

def show_shortcuts(window: MainWindow) -> None:
    rows = [f"{item.shortcut or '-'}\t{item.title.replace('&', '')}" for item in MENU_ITEMS]
    rows += [f"{REWIND_KEY.title()} (hold)\tRewind", "F1-F10\tLoad a quick slot", "Shift+F1-F10\tSave a quick slot"]
    QMessageBox.information(window, "Keyboard shortcuts", "\n".join(rows))


def show_about(window: MainWindow) -> None:
    QMessageBox.about(window, f"About {TITLE}", f"{TITLE}\nTurn classic console games into RL environments.")
