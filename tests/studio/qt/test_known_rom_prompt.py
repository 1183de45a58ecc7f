"""The boxes of known ROMs: the integrations that know a new ROM offered to start from, and the warning of
another ROM's integration of the same name."""

from __future__ import annotations

import json
import shutil

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from emucore import data
from emucore.paths import integrations_dir
from studio.model.known_roms import folder_clashes, known_integrations, start_from
from studio.model.opening import integration_folder_for
from studio.qt.known_rom_prompt import KnownChoice, KnownRomBox, offer_known_integration, warn_name_clash
from tests.studio.model.test_known_roms import GENESIS_DEMO, NES_DEMO, integration_in, rom_copy


def answer(qtbot, pick) -> list:
    """Runs ``pick(box)`` on the next modal box, then clicks the button it returns (Escape's if it raised);
    a box still open after that is closed."""
    seen: list = []

    def drive() -> None:
        box = QApplication.activeModalWidget()
        seen.append(box)
        if box is None:
            return
        button = None
        try:
            button = pick(box)
        finally:
            (button or box.escapeButton() or box.buttons()[0]).click()
            if box.isVisible():  # the button was disabled: nothing happened
                box.reject()

    QTimer.singleShot(0, drive)
    return seen


def test_the_box_offers_the_matches(qtbot, tmp_path, clean_data_state):
    custom_set = tmp_path / "custom-set"
    custom_set.mkdir()
    integration_in(custom_set, "DemoFork-Nes", NES_DEMO, states=False)
    data.add_custom_integration(custom_set)
    target, _ = integration_folder_for(rom_copy(tmp_path, "Demo Copy.nes"))
    fork, repository = known_integrations(target / "rom.nes", exclude=[target])
    enabled: list = []

    def pick_fork(box: KnownRomBox):
        box.combo.setCurrentIndex(0)
        enabled.append((box.combo.count(), box.open_button.isEnabled(), box.start_button.isEnabled()))
        assert "DemoFork-Nes (custom" in box.informativeText()
        return box.start_button

    seen = answer(qtbot, pick_fork)
    assert offer_known_integration(None, target) == KnownChoice("start", fork)
    assert isinstance(seen[0], KnownRomBox) and enabled == [(2, False, True)]  # the fork has no ROM to open

    def pick_repository(box: KnownRomBox):
        box.combo.setCurrentIndex(1)
        enabled.append((box.open_button.isEnabled(), box.start_button.isEnabled()))
        return box.open_button

    answer(qtbot, pick_repository)
    assert offer_known_integration(None, target) == KnownChoice("open", repository)
    assert enabled[-1] == (True, True)
    answer(qtbot, lambda box: box.ignore_button)
    assert offer_known_integration(None, target) is None

    start_from(repository, target)
    texts: list = []

    def pick_after_start(box: KnownRomBox):
        texts.append((box.start_button.isEnabled(), box.informativeText()))
        return box.ignore_button

    answer(qtbot, pick_after_start)
    assert offer_known_integration(None, target) is None
    assert not texts[0][0] and "has work of its own" in texts[0][1]


def test_an_unreadable_integration_does_not_start_from_another(qtbot, tmp_path, clean_data_state):
    target, _ = integration_folder_for(rom_copy(tmp_path, "Demo Copy.nes"))
    (target / "data.json").write_text("{not json")
    states: list = []

    def pick(box: KnownRomBox):
        states.append((box.open_button.isEnabled(), box.start_button.isEnabled()))
        return box.start_button

    answer(qtbot, pick)
    assert offer_known_integration(None, target) is None  # a disabled button does nothing
    assert states == [(True, False)] and (target / "data.json").read_text() == "{not json"


def test_no_box_for_an_unknown_rom(qtbot, tmp_path, clean_data_state):
    target, _ = integration_folder_for(rom_copy(tmp_path, "Hacked.nes", body_byte=0xFF))
    seen = answer(qtbot, lambda box: None)  # would close a box shown by mistake
    assert offer_known_integration(None, target) is None
    qtbot.wait(20)
    assert seen == [None]


def test_the_name_clash_warning_names_the_other_folder(qtbot, tmp_path, clean_data_state):
    custom_set = tmp_path / "custom-set"
    custom_set.mkdir()
    clash_folder = integration_in(custom_set, "StudioDemo-Nes", GENESIS_DEMO)
    data.add_custom_integration(custom_set)
    texts: list = []

    def read(box: QMessageBox):
        texts.append(box.text())
        return box.buttons()[0]

    answer(qtbot, read)
    warn_name_clash(None, "StudioDemo-Nes", folder_clashes(NES_DEMO))
    assert len(texts) == 1 and str(clash_folder) in texts[0] and "custom set" in texts[0]
    warn_name_clash(None, "StudioDemo-Nes", [])  # nothing to say: no box (a shown one would never close)


def test_the_window_offers_the_integration_that_knows_a_new_rom(qtbot, tmp_path):
    """Opening a bare copy of our NES ROM: the box names the repository's StudioDemo-Nes, and
    "Start from it" gives the new integration its variables and done."""

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from studio.model.opening import resolve_game
    from studio.model.play.session import Session
    from studio.model.settings import Settings
    from studio.model.workspace import Workspace
    from studio.qt.known_rom_prompt import KnownRomBox
    from studio.qt.main_window import MainWindow

    demo = Session(*resolve_game(str(integrations_dir() / "StudioDemo-Genesis"), None))
    window = MainWindow(Workspace(demo, Settings()),
                        persist=False)
    window.timer.stop()
    qtbot.addWidget(window)
    rom = tmp_path / "roms" / "Smiley.nes"
    rom.parent.mkdir()
    shutil.copyfile(integrations_dir() / "StudioDemo-Nes" / "rom.nes", rom)
    seen = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, KnownRomBox):
            QTimer.singleShot(50, answer)
            return
        seen.append(box.text() + "\n" + box.informativeText())
        box.start_button.click()

    QTimer.singleShot(50, answer)
    window.open_game(rom)
    assert seen and "StudioDemo-Nes" in seen[0]
    assert window.session.name == "Smiley-Nes"
    data = json.loads((window.session.folder / "data.json").read_text())["info"]
    assert data == json.loads((integrations_dir() / "StudioDemo-Nes" / "data.json").read_text())["info"]
