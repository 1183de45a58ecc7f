"""What the variables dock does with one variable besides editing it: the poke test, "About this
variable" (how it was found, a note), and the table's context menu that offers them."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel, QMenu, QTableView, QWidget

from studio.model.variables.poke import DEFAULT_FRAMES, PokeResult, poke_test
from studio.model.variables.watch import Watch
from studio.qt.variables.poke_dialog import PokeTestDialog, describe_result
from studio.qt.variables.provenance_dialog import VariableAboutDialog


class VariableTable(Protocol):
    """The variables panel as its actions use it (``VariablesPanel``)."""

    table: QTableView
    message: QLabel
    watch: Watch

    def selected_names(self) -> list[str]: ...

    def remove_selected(self) -> None: ...

    def say(self, text: str, warning: bool = False) -> None: ...


class VariableActions:
    """The poke test and the provenance view of the panel's variables (the panel's watch, read each time)."""

    def __init__(self, panel: VariableTable, parent: QWidget):
        self.panel = panel
        self.parent = parent

    def context_menu(self, pos: QPoint) -> QMenu:
        """The table's menu for the row at ``pos`` (selected first when it was not)."""
        panel = self.panel
        index = panel.table.indexAt(pos)
        if index.isValid() and not panel.table.selectionModel().isRowSelected(index.row()):
            panel.table.selectRow(index.row())
        menu = QMenu(self.parent)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chosen = bool(panel.selected_names())
        # the slots are called with no argument (not triggered's checked)
        for text, slot in (("Poke test...", lambda: self.open_poke_test()),
                           ("About this variable...", lambda: self.show_about()),
                           ("Remove", lambda: panel.remove_selected())):
            menu.addAction(text, slot).setEnabled(chosen)
        return menu

    def _chosen(self, name: str | None) -> str | None:
        if name is None:
            names = self.panel.selected_names()
            name = names[0] if names else None
        if name is None:
            self.panel.say("Select a variable first", True)
        return name

    def open_poke_test(self, name: str | None = None) -> PokeTestDialog | None:
        """Opens the poke test of ``name`` (the selected variable by default), value and frames filled in."""
        name = self._chosen(name)
        if name is None:
            return None
        watch = self.panel.watch
        variable = watch.variables[name]
        try:
            current: int | None = watch.session.emulator.memory.read(variable.address, variable.type)
        except IndexError:  # unmapped: the test will say so
            current = None
        dialog = PokeTestDialog(name, variable.type, current,
                                lambda value, frames: self.run_poke_test(name, value, frames), self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def run_poke_test(self, name: str, value: int | None = None, frames: int = DEFAULT_FRAMES) -> PokeResult:
        """Runs the poke test of ``name``; the verdict goes to the dock's message line (details in its tooltip).

        Raises:
            ValueError: Why it cannot be run (also shown in the message line).
        """
        panel = self.panel
        try:
            result = poke_test(panel.watch.session, panel.watch.variables[name], value, frames)
        except ValueError as exc:
            panel.say(f"{name}: {exc}")
            raise
        panel.say(f"{name}: {result.verdict()}")
        panel.message.setStyleSheet("")
        panel.message.setToolTip(describe_result(result))
        return result

    def show_about(self, name: str | None = None) -> VariableAboutDialog | None:
        """Shows how ``name`` (the selected variable by default) was found, with an editable note."""
        name = self._chosen(name)
        if name is None:
            return None
        dialog = VariableAboutDialog(self.panel.watch, name, self.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog
