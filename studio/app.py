"""``retro-studio``: the desktop app. With no argument it opens the bundled demo game."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

import emucore
from emucore.errors import EmucoreError, MissingExtraError
from emucore.paths import studio_data_dir
from studio.model.opening import OpenError, resolve_game
from studio.model.set_aside import OpenProblem

__all__ = ["build_parser", "main", "window_size"]

# studio.qt.show_step.STAGES's steps, spelled here so that --help needs no Qt (a test keeps them equal)
SHOW_STEPS = ("open", "play", "find-score", "lives", "done", "check", "export", "agent")


def window_size(text: str) -> tuple[int, int]:
    """``"1280x860"`` as (1280, 860); argparse's type for ``--size``."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or not (200 <= int(match[1]) <= 16384 and 150 <= int(match[2]) <= 16384):
        raise argparse.ArgumentTypeError(f"{text!r} is not a window size WIDTHxHEIGHT (from 200x150), e.g. 1280x860")
    return int(match[1]), int(match[2])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="retro-studio",
        description="Play a game and build its integration.",
        epilog="Exit codes: 0 ok, 2 bad arguments or a game, state or core that cannot be opened.",
    )
    parser.add_argument("--version", action="version", version=f"retro-studio {emucore.__version__}")
    parser.add_argument("game", nargs="?", help="an integration name or folder, or a ROM file (default: the demo)")
    parser.add_argument("--state", help="a state name in the integration, or a .state file")
    parser.add_argument("--core", help="a core name or a path to a .so")
    parser.add_argument("--screenshot", metavar="PNG",
                        help="run, save a PNG of the window, and exit; settings and recovery are left untouched")
    parser.add_argument("--frames", type=int, default=120, help="frames to run before --screenshot (default: 120)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="the window's size, e.g. 1280x860 (default: the last size; 1280x860 for --screenshot)")
    parser.add_argument("--show", choices=SHOW_STEPS, metavar="STEP",
                        help="with --screenshot: the window at that step of making an integration, one of "
                             f"{', '.join(SHOW_STEPS)} (the walkthrough's steps: its dock, tab or dialog; on the "
                             "demo games played and typed as a person would). It is staged in a scratch copy of "
                             "the game and of the studio's data, deleted at exit, so it is for --screenshot only: "
                             "nothing done in it could be kept")
    parser.add_argument("--no-restore-prompt", action="store_true",
                        help="do not offer to restore a session that ended in a crash")
    return parser


# Qt Multimedia reports every missing sound backend (PipeWire, PulseAudio) at start, and the offscreen platform
# that it cannot do what no screen can: the studio says once, in its own words, when sound is off
QUIET_QT_LOGGING = "qt.multimedia.*=false"
HARMLESS_QT_MESSAGES = ("PulseAudioService: pa_context_connect() failed", "This plugin does not support ")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.show is not None and args.screenshot is None:
        parser.error("--show needs --screenshot: a step is staged in a scratch copy of the game, deleted at exit")
    if args.screenshot is not None and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # a screenshot needs no screen
    os.environ.setdefault("QT_LOGGING_RULES", QUIET_QT_LOGGING)
    try:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QMessageBox
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("PySide6"):
            raise
        print(f"retro-studio: {MissingExtraError('the studio', 'PySide6 (Qt)', 'studio')}", file=sys.stderr)
        return 2
    _quiet_qt_messages()

    from studio.model.play.recovery import Recovery
    from studio.model.play.session import Session
    from studio.model.settings import Settings
    from studio.model.workspace import Workspace
    from studio.qt.commands import offer_known_integration
    from studio.qt.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if args.show is not None:
        return _show_step(app, args)
    headless = args.screenshot is not None
    problems: list[OpenProblem] = []  # files that could not be read: shown by the window, never a traceback
    # a screenshot shows, and keeps, the default layout
    settings = Settings() if headless else Settings.load(problems=problems)
    recovery = Recovery(studio_data_dir())
    saved = None if (args.no_restore_prompt or headless) else recovery.crashed_session()
    restore = saved is not None and QMessageBox.question(
        None, "Retro Integration Studio",
        f"The studio did not close cleanly last time.\nRestore {saved.game} at frame {saved.frame}?",
    ) == QMessageBox.StandardButton.Yes
    session = _restore(recovery, saved, settings, args.core) if restore and saved else None
    try:
        if session is None:
            rom, state = resolve_game(args.game, args.state)
            session = Session(rom, state, core=args.core, rewind_seconds=settings.rewind_seconds)
    except (OpenError, EmucoreError, OSError) as exc:
        print(f"retro-studio: {exc}", file=sys.stderr)
        return 2
    problems.extend(recovery.problems)
    workspace = Workspace(session, settings)
    if headless:
        return _screenshot(app, MainWindow(workspace, persist=False), args)
    if args.game:
        settings.add_recent(args.game)
    recovery.start()
    window = MainWindow(workspace, recovery=recovery, problems=problems)
    if args.size:
        window.resize(*args.size)
    window.show()
    if session.created:  # a ROM seen for the first time: another integration may know it already
        QTimer.singleShot(0, lambda: offer_known_integration(window))
    return app.exec()


def _quiet_qt_messages() -> None:
    """Qt's messages to stderr as Qt writes them, less the harmless ones above."""
    from PySide6.QtCore import qInstallMessageHandler

    def write(_mode, context, message: str) -> None:
        if not message.startswith(HARMLESS_QT_MESSAGES):
            category = context.category if context.category and context.category != "default" else ""
            print(f"{category}: {message}" if category else message, file=sys.stderr)

    qInstallMessageHandler(write)


def _restore(recovery, saved, settings, core: str | None):
    """The crashed session's game at its saved state; None (the session set aside and reported) if it cannot
    be opened.

    A saved state that cannot be read or loaded is set aside: the game then opens at its usual start.
    """
    from studio.model.play.session import Session

    try:
        rom, state = resolve_game(saved.game, None)
        session = Session(rom, state, core=core, rewind_seconds=settings.rewind_seconds)
    except (OpenError, EmucoreError, OSError) as exc:
        recovery.set_aside_session(f"its game cannot be opened ({exc})")
        return None
    recovered = recovery.load_state(saved)
    if recovered:
        try:
            session.emulator.set_state(recovered)
            session.frame = saved.frame
        except EmucoreError as exc:
            recovery.reject_state(saved, exc)
            session.emulator.set_state(session.start_state)
    return session


def _show_step(app, args: argparse.Namespace) -> int:
    """``--screenshot --show STEP``: the game copied into a scratch studio folder, opened there, the step staged."""
    from studio.model.play.session import Session
    from studio.model.settings import Settings
    from studio.model.workspace import Workspace
    from studio.qt.main_window import MainWindow
    from studio.qt.show_step import scratch_copy, scratch_studio

    try:
        rom, state = resolve_game(args.game, args.state)  # found where the user's integrations are
        with scratch_studio() as scratch:
            rom, state = scratch_copy(rom, state, scratch)
            session = Session(rom, state, core=args.core)
            return _screenshot(app, MainWindow(Workspace(session, Settings()), persist=False), args)
    except (OpenError, EmucoreError, OSError) as exc:
        print(f"retro-studio: {exc}", file=sys.stderr)
        return 2


def _screenshot(app, window, args: argparse.Namespace) -> int:
    from studio.model.commands import advance

    window.timer.stop()
    window.resize(*(args.size or (1280, 860)))
    window.show()
    app.processEvents()  # the default layout is laid out for the window's size
    advance(window.workspace, args.frames)
    app.processEvents()
    if args.show is None:
        picture = window.grab()
    else:
        from studio.qt.show_step import stage

        picture = stage(window, args.show)
    saved = picture.save(args.screenshot)
    window.close()
    if not saved:
        print(f"retro-studio: {args.screenshot}: could not write the PNG", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
