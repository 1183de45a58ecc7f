"""Telling the user that a ROM is already integrated somewhere (open that one, or start from it), and
that another ROM's integration has the same name. The logic is :mod:`studio.model.known_roms`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGridLayout, QMessageBox, QWidget

from emucore.integration import IntegrationError, find_rom
from studio.model.known_roms import (
    KnownIntegration,
    clash_warning,
    folder_clashes,
    is_fresh,
    known_integrations,
    start_from,
)

OPEN, START, IGNORE = "Open it", "Start from it", "Ignore"


@dataclass(frozen=True)
class KnownChoice:
    """What the user chose: open ``known.folder``, or start the open integration from it
    (:func:`studio.model.known_roms.start_from`)."""

    action: Literal["open", "start"]
    known: KnownIntegration


class KnownRomBox(QMessageBox):
    """The matches, a choice among them when there are several, and the three buttons.

    "Open it" needs the chosen integration's ROM in its folder; "Start from it" needs ``folder`` to
    hold no work of its own yet (a new integration).
    """

    def __init__(self, parent: QWidget | None, folder: Path, matches: Sequence[KnownIntegration]):
        super().__init__(QMessageBox.Icon.Information, "This ROM is already integrated", "", parent=parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.matches = list(matches)
        try:
            self.fresh = is_fresh(folder)
        except IntegrationError:  # a file of its own cannot be read: it is the user's, nothing replaces it
            self.fresh = False
        many = len(self.matches) > 1
        self.setText(f"{len(self.matches)} integration{'s' if many else ''} already list{'' if many else 's'} "
                     f"this ROM's SHA-1:")
        notes = [f"\N{BULLET} {m.describe()}" for m in self.matches]
        if not self.fresh:
            notes.append(f"{folder.name} has work of its own: it cannot start from another one.")
        self.setInformativeText("\n".join(notes))
        self.open_button = self.addButton(OPEN, QMessageBox.ButtonRole.AcceptRole)
        self.start_button = self.addButton(START, QMessageBox.ButtonRole.ActionRole)
        self.ignore_button = self.addButton(IGNORE, QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.ignore_button)
        self.setEscapeButton(self.ignore_button)
        self.combo = QComboBox(self)
        self.combo.addItems([f"{m.game} ({m.set_name})" for m in self.matches])
        self.combo.setVisible(many)
        layout = self.layout()
        if many and isinstance(layout, QGridLayout):
            layout.addWidget(self.combo, layout.rowCount(), 0, 1, layout.columnCount())
        self.combo.currentIndexChanged.connect(self._enable)
        self._enable()

    @property
    def chosen(self) -> KnownIntegration:
        return self.matches[max(self.combo.currentIndex(), 0)]

    def _enable(self) -> None:
        self.open_button.setEnabled(self.chosen.has_rom)
        self.open_button.setToolTip("" if self.chosen.has_rom else "Its folder has no ROM: start from it instead")
        self.start_button.setEnabled(self.fresh)

    def choice(self) -> KnownChoice | None:
        """What the clicked button asks for (None for Ignore or a closed box)."""
        clicked = self.clickedButton()
        if clicked is self.open_button:
            return KnownChoice("open", self.chosen)
        if clicked is self.start_button:
            return KnownChoice("start", self.chosen)
        return None


def offer_known_integration(parent: QWidget | None, folder: str | Path) -> KnownChoice | None:
    """Asks what to do when the ROM of the integration in ``folder`` is listed by other integrations.

    Shows nothing and returns None when none lists it (``folder`` itself is not news).
    """
    folder = Path(folder)
    rom = find_rom(folder)
    matches = known_integrations(rom, exclude=[folder]) if rom is not None else []
    if not matches:
        return None
    box = KnownRomBox(parent, folder, matches)
    box.exec()
    return box.choice()


def warn_name_clash(parent: QWidget | None, name: str, clashes: Sequence[KnownIntegration]) -> None:
    """Warns that other ROMs' integrations are called ``name`` (nothing shown when there is none)."""
    if not clashes:
        return
    box = QMessageBox(QMessageBox.Icon.Warning, "Another ROM's integration has this name",
                      "\n\n".join(clash_warning(name, c) for c in clashes), QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.exec()


def offer_on_open(window: Any) -> None:
    """For ``window``'s game, an integration made just now for its ROM: the integrations that already
    list the ROM (open one, or start from its files: the game is opened again), or else a warning
    when another ROM's integration has its name."""
    folder = window.session.folder
    choice = offer_known_integration(window, folder)
    if choice is not None and choice.action == "open":
        window.open_game(choice.known.folder)
    elif choice is not None and choice.action == "start":
        start_from(choice.known, folder)
        window.open_game(folder)  # its files changed: open it again
    else:
        warn_name_clash(window, window.session.name, folder_clashes(folder))
