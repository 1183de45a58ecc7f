"""The studio's commands, declared once: menus, shortcuts and the shortcut reference come from here.

Each entry names its command: a function of the workspace in :mod:`studio.model.commands`, or else a Qt-only
one (a dialog) in ``studio.qt.commands``; Qt only materialises the table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionSpec:
    id: str
    menu: str
    title: str
    shortcut: str
    handler: str
    checkable: bool = False


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open_rom", "&File", "&Open ROM, state or movie...", "Ctrl+O", "open_dialog"),
    ActionSpec("open_game", "&File", "Open from the &game list...", "Ctrl+G", "open_game_list"),
    ActionSpec("export", "&File", "&Export integration...", "Ctrl+E", "export_dialog"),
    ActionSpec("quit", "&File", "&Quit", "Ctrl+Q", "close"),
    ActionSpec("pause", "&Emulation", "&Pause", "P", "toggle_pause", checkable=True),
    ActionSpec("advance", "&Emulation", "&Frame advance", "F", "advance_one"),
    ActionSpec("advance_n", "&Emulation", "Advance &N frames...", "Shift+F", "advance_n"),
    ActionSpec("slower", "&Emulation", "&Slower", "-", "slower"),
    ActionSpec("faster", "&Emulation", "F&aster", "=", "faster"),
    ActionSpec("normal_speed", "&Emulation", "&Normal speed", "0", "normal_speed"),
    ActionSpec("reset", "&Emulation", "&Reset to the loaded state", "Ctrl+R", "reset_to_start"),
    ActionSpec("hard_reset", "&Emulation", "&Hard reset", "Ctrl+Shift+R", "hard_reset"),
    ActionSpec("save_named", "&States", "&Save state as...", "Ctrl+S", "save_named_state"),
    ActionSpec("record", "&Movie", "&Record from the current state", "Ctrl+M", "record_movie"),
    ActionSpec("record_power_on", "&Movie", "Record from &power-on", "Ctrl+Shift+M", "record_movie_power_on"),
    ActionSpec("record_episodes", "&Movie", "Record &episodes (one movie each)...", "", "record_episodes"),
    ActionSpec("stop_movie", "&Movie", "&Stop", "Ctrl+.", "stop_movie"),
    ActionSpec("play_movie", "&Movie", "&Play a movie...", "Ctrl+P", "play_movie_dialog"),
    ActionSpec("run_agent", "&Tools", "&Run an agent...", "Ctrl+Shift+A", "run_agent"),
    ActionSpec("check_integration", "&Tools", "&Check integration on the recorded play...", "Ctrl+Shift+K",
               "check_integration"),
    ActionSpec("check_movies", "&Tools", "Re-check the &regression movies", "", "check_regression"),
    ActionSpec("attach_movie", "&Tools", "&Attach a movie to the regression...", "", "attach_regression_movie"),
    ActionSpec("integer_scaling", "&View", "&Integer scaling", "Ctrl+I", "toggle_integer_scaling", checkable=True),
    ActionSpec("mute", "&View", "&Mute", "Ctrl+U", "toggle_mute", checkable=True),
    ActionSpec("volume", "&View", "&Volume...", "", "choose_volume"),
    ActionSpec("controls", "&Emulation", "&Controls...", "F12", "show_controls"),
    ActionSpec("shortcuts", "&Help", "&Keyboard shortcuts", "Ctrl+/", "show_shortcuts"),
    ActionSpec("about", "&Help", "&About", "", "show_about"),
    ActionSpec("find_from_screen", "&Tools", "&Find a value from the screen...", "Ctrl+J", "find_from_screen"),
    ActionSpec("mark_alive", "&Tools", "Mark &alive (a done example)", "Ctrl+Shift+L", "mark_alive"),
    ActionSpec("mark_over", "&Tools", "Mark game &over (a done example)", "Ctrl+Shift+G", "mark_game_over"),
)
# Held, not triggered: the view handles these keys itself.
REWIND_KEY = "BACKSPACE"
SLOT_KEYS = tuple(f"F{n}" for n in range(1, 11))  # load; with Shift: save
