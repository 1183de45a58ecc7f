"""Exporting the open integration as a folder that emucore and stable-retro load unchanged."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emucore.assist.screen_file import save_screen
from emucore.integration import Integration, LintFinding, lint
from studio.model.known_roms import clash_warning, name_clashes


@dataclass
class ExportResult:
    folder: Path
    files: list[str]
    findings: list[LintFinding]
    #: Name clashes: another ROM's integration of the same name that would be loaded instead.
    warnings: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[LintFinding]:
        return [f for f in self.findings if f.level == "error"]


def export_integration(source: str | os.PathLike[str], target_parent: str | os.PathLike[str], *,
                       include_rom: bool = False, screen: Any = None) -> ExportResult:
    """Writes ``source`` (an integration folder) into ``target_parent/<name>``, atomically.

    Everything goes through ``emucore.integration``: rom.sha, data.json, scenario.json (and other
    scenarios), metadata.json with its default state, the states, the Lua scripts, and the ROM
    when ``include_rom``. The written folder is linted; the findings come back with it, and a
    warning for each integration of the same name made for another ROM (:func:`name_clashes`).
    ``screen``, a :class:`~emucore.assist.ScreenNumber` (Find from screen's reader), is written as
    ``screen.json``, so ``emucore check FOLDER --screen`` compares the reward with the screen.
    """
    integration = Integration.load(source)
    folder = Path(target_parent) / integration.name
    if folder.resolve() == Path(source).resolve():
        raise ValueError(f"{folder} is the integration itself: choose another folder to export into")
    files = sorted(integration.files(include_rom=include_rom))
    written = integration.save(folder, include_rom=include_rom)
    if screen is not None:
        files.append(save_screen(screen, written).name)
    warnings = [clash_warning(integration.name, c) for c in name_clashes(integration.name, integration.rom_shas)]
    return ExportResult(written, files, lint(written), warnings)
