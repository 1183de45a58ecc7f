"""The studio's menus, declared once: the menu bar, its shortcuts and the shortcut reference come from here.

Each item names its command: a function of the workspace in :mod:`studio.model.commands`, or else a Qt-only
one (a dialog) in ``studio.qt.commands``; Qt only materialises the table (``studio.qt.menus``). The keys the
game view handles itself (held, not triggered) are :mod:`studio.model.play.bindings`'.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MenuItem:
    """One item of the menu bar."""

    id: str  # the window's QAction for it is ``window.menu_actions[id]``
    menu: str
    title: str
    shortcut: str
    command: str  # the function it runs: of studio.model.commands.COMMANDS, else of studio.qt.commands
    checkable: bool = False


MENU_ITEMS: tuple[MenuItem, ...] = (
    MenuItem("open_rom", "&File", "&Open ROM, state or movie...", "Ctrl+O", "open_dialog"),
    MenuItem("open_game", "&File", "Open from the &game list...", "Ctrl+G", "open_game_list"),
    MenuItem("export", "&File", "&Export integration...", "Ctrl+E", "export_dialog"),
    MenuItem("quit", "&File", "&Quit", "Ctrl+Q", "close"),
    MenuItem("pause", "&Emulation", "&Pause", "P", "toggle_pause", checkable=True),
    MenuItem("advance", "&Emulation", "&Frame advance", "F", "advance_one"),
    MenuItem("advance_n", "&Emulation", "Advance &N frames...", "Shift+F", "advance_n"),
    MenuItem("slower", "&Emulation", "&Slower", "-", "slower"),
    MenuItem("faster", "&Emulation", "F&aster", "=", "faster"),
    MenuItem("normal_speed", "&Emulation", "&Normal speed", "0", "normal_speed"),
    MenuItem("reset", "&Emulation", "&Reset to the loaded state", "Ctrl+R", "reset_to_start"),
    MenuItem("hard_reset", "&Emulation", "&Hard reset", "Ctrl+Shift+R", "hard_reset"),
    MenuItem("save_named", "&States", "&Save state as...", "Ctrl+S", "save_named_state"),
    MenuItem("record", "&Movie", "&Record from the current state", "Ctrl+M", "record_movie"),
    MenuItem("record_power_on", "&Movie", "Record from &power-on", "Ctrl+Shift+M", "record_movie_power_on"),
    MenuItem("record_episodes", "&Movie", "Record &episodes (one movie each)...", "", "record_episodes"),
    MenuItem("stop_movie", "&Movie", "&Stop", "Ctrl+.", "stop_movie"),
    MenuItem("play_movie", "&Movie", "&Play a movie...", "Ctrl+P", "play_movie_dialog"),
    MenuItem("run_agent", "&Tools", "&Run an agent...", "Ctrl+Shift+A", "run_agent"),
    MenuItem("check_integration", "&Tools", "&Check integration on the recorded play...", "Ctrl+Shift+K",
               "check_integration"),
    MenuItem("check_movies", "&Tools", "Re-check the &regression movies", "", "check_regression"),
    MenuItem("attach_movie", "&Tools", "&Attach a movie to the regression...", "", "attach_regression_movie"),
    MenuItem("integer_scaling", "&View", "&Integer scaling", "Ctrl+I", "toggle_integer_scaling", checkable=True),
    MenuItem("mute", "&View", "&Mute", "Ctrl+U", "toggle_mute", checkable=True),
    MenuItem("volume", "&View", "&Volume...", "", "choose_volume"),
    MenuItem("controls", "&Emulation", "&Controls...", "F12", "show_controls"),
    MenuItem("shortcuts", "&Help", "&Keyboard shortcuts", "Ctrl+/", "show_shortcuts"),
    MenuItem("about", "&Help", "&About", "", "show_about"),
    MenuItem("find_from_screen", "&Tools", "&Find a value from the screen...", "Ctrl+J", "find_from_screen"),
    MenuItem("mark_alive", "&Tools", "Mark &alive (a done example)", "Ctrl+Shift+L", "mark_alive"),
    MenuItem("mark_over", "&Tools", "Mark game &over (a done example)", "Ctrl+Shift+G", "mark_game_over"),
)
