"""The menu bar, made from the menu table (:mod:`studio.model.menus`): one QAction per item, triggering its command.

A command named by the table is a workspace command (:data:`studio.model.commands.COMMANDS`, whose status line
the window shows) or else a Qt-only command of :mod:`studio.qt.commands`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from studio.model.commands import COMMANDS
from studio.model.menus import MENU_ITEMS
from studio.qt import commands

if TYPE_CHECKING:
    from studio.qt.main_window import MainWindow


def command(window: MainWindow, name: str) -> Callable[[], None]:
    """What the menu table's command ``name`` runs in ``window``."""
    if name in COMMANDS:
        workspace_command = COMMANDS[name]

        def run() -> None:
            said = workspace_command(window.workspace)
            if said:
                window.statusBar().showMessage(said, 4000)
        return run
    qt_command = getattr(commands, name)
    return lambda: qt_command(window)


def build_menus(window: MainWindow) -> tuple[dict[str, QAction], QMenu]:
    """The menus of ``window`` from the menu table, the docks' toggles under View; the actions by id, and
    the "Open recent" menu."""
    menus: dict[str, QMenu] = {}
    actions: dict[str, QAction] = {}
    for item in MENU_ITEMS:
        menu = menus.get(item.menu) or window.menuBar().addMenu(item.menu)
        menus[item.menu] = menu
        action = QAction(item.title, window)
        if item.shortcut:
            action.setShortcut(QKeySequence(item.shortcut))
        action.setCheckable(item.checkable)
        action.triggered.connect(command(window, item.command))
        menu.addAction(action)
        actions[item.id] = action
    for dock in window.docks.docks.values():
        menus["&View"].addAction(dock.toggleViewAction())
    menus["&File"].insertAction(actions["quit"], actions["check_integration"])  # beside Export
    recent = QMenu("Open &recent", window)
    menus["&File"].insertMenu(actions["quit"], recent)
    actions["integer_scaling"].setChecked(window.settings.integer_scaling)
    actions["mute"].setChecked(window.settings.muted)
    return actions, recent
