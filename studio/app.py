"""``retro-studio``: the desktop app. With no argument it opens the bundled demo game."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from emucore.errors import EmucoreError
from emucore.paths import integrations_dir

DEMO = "StudioDemo-Genesis"


def resolve_game(target: str | None, state: str | None) -> tuple[Path, Path | None]:
    """A ROM and a state from an integration name or folder, or a ROM path."""
    target = target or DEMO
    folder = Path(target)
    if not folder.exists() and (integrations_dir() / target).is_dir():
        folder = integrations_dir() / target
    if folder.is_dir():
        roms = sorted(p for p in folder.glob("rom.*") if p.suffix not in (".sha", ".delta"))
        if not roms:
            raise SystemExit(f"retro-studio: {folder} has no rom.* file")
        name = state
        if name is None and (folder / "metadata.json").is_file():
            name = json.loads((folder / "metadata.json").read_text()).get("default_state")
        state_path = None
        if name:
            state_path = folder / (name if name.endswith(".state") else f"{name}.state")
        return roms[0], state_path
    return folder, Path(state) if state else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="retro-studio", description="Play a game and build its integration.")
    parser.add_argument("game", nargs="?", help="an integration name or folder, or a ROM file")
    parser.add_argument("--state", help="a state name in the integration, or a .state file")
    parser.add_argument("--core", help="a core name or a path to a .so")
    parser.add_argument("--screenshot", metavar="PNG", help="run, save a PNG of the window, and exit")
    parser.add_argument("--frames", type=int, default=120, help="frames to run before --screenshot")
    parser.add_argument("--no-restore-prompt", action="store_true",
                        help="do not offer to restore a session that ended in a crash")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from PySide6.QtWidgets import QApplication, QMessageBox

    from studio.model.recovery import Recovery
    from studio.model.session import Session, data_dir
    from studio.model.settings import Settings
    from studio.qt.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = Settings.load()
    recovery = Recovery(data_dir())
    saved = None if (args.no_restore_prompt or args.screenshot) else recovery.crashed_session()
    restore = saved is not None and QMessageBox.question(
        None, "Retro Integration Studio",
        f"The studio did not close cleanly last time.\nRestore {saved.game} at frame {saved.frame}?",
    ) == QMessageBox.StandardButton.Yes
    target = saved.game if restore and saved else args.game
    rom, state = resolve_game(target, None if restore else args.state)
    try:
        session = Session(rom, state, core=args.core, rewind_seconds=settings.rewind_seconds)
        if restore and saved:
            recovered = recovery.load_state(saved)
            if recovered:
                session.emulator.set_state(recovered)
                session.frame = saved.frame
    except EmucoreError as exc:
        print(f"retro-studio: {exc}", file=sys.stderr)
        return 2
    if args.game:
        settings.add_recent(args.game)
    recovery.start()
    window = MainWindow(session, settings, recovery=None if args.screenshot else recovery)
    window.show()
    if args.screenshot:
        window.timer.stop()
        window.advance(args.frames)
        app.processEvents()
        window.grab().save(args.screenshot)
        window.close()
        return 0
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
