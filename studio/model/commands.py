"""The studio's commands that need no dialog, as functions of the workspace. No Qt.

The menu table (:mod:`studio.model.menus`) names each command; the window looks a name up here first,
then among the Qt-only commands (:mod:`studio.qt.commands`: file dialogs, message boxes). What a command
changes is told by the models' events, so none of these returns anything a view must show, except the
line for the status bar where one says what was done.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.model.play.session import SPEEDS
from studio.model.workspace import Workspace

UNBOUNDED = 0.0


def toggle_pause(workspace: Workspace) -> None:
    workspace.session.set_paused(not workspace.session.paused)


def advance(workspace: Workspace, frames: int = 1) -> None:
    """Pauses, then runs ``frames`` frames with the held buttons."""
    workspace.session.set_paused(True)
    workspace.session.advance(frames)


def advance_one(workspace: Workspace) -> None:
    advance(workspace, 1)


def next_speed(speed: float, step: int) -> float | None:
    """The session speed ``step`` rungs up (1) or down (-1) the ladder from ``speed``: past 8x comes unbounded
    (0), from which one rung down is 4x; None where there is no rung (faster than unbounded)."""
    speeds = [s for s in SPEEDS if s > 0]
    current = speed if speed <= 100 else speeds[-1] * 2  # the session keeps "unbounded" as a very high multiple
    if step > 0 and current > speeds[-1]:
        return None
    index = min(range(len(speeds)), key=lambda i: abs(speeds[i] - current))
    if step > 0 and index == len(speeds) - 1:
        return UNBOUNDED
    return speeds[max(0, min(len(speeds) - 1, index + step))]


def _step_speed(workspace: Workspace, step: int) -> None:
    speed = next_speed(workspace.session.speed, step)
    if speed is not None:
        workspace.session.set_speed(speed)


def slower(workspace: Workspace) -> None:
    _step_speed(workspace, -1)


def faster(workspace: Workspace) -> None:
    _step_speed(workspace, 1)


def normal_speed(workspace: Workspace) -> None:
    workspace.session.set_speed(1.0)


def reset_to_start(workspace: Workspace) -> None:
    workspace.session.reset_to_start()


def hard_reset(workspace: Workspace) -> None:
    workspace.session.hard_reset()


def stop_movie(workspace: Workspace) -> str | None:
    """Stops recording (saving the movie) or playing; the status line when a movie was saved."""
    session = workspace.session
    saved: Path | None = session.movies.stop_recording() if session.movies.recorder is not None else None
    session.movies.stop_playing()
    return f"saved {saved}" if saved is not None else None


COMMANDS: dict[str, Callable[[Workspace], str | None]] = {
    "toggle_pause": toggle_pause,
    "advance_one": advance_one,
    "slower": slower,
    "faster": faster,
    "normal_speed": normal_speed,
    "reset_to_start": reset_to_start,
    "hard_reset": hard_reset,
    "stop_movie": stop_movie,
}
"""The menu table's commands that are functions of the workspace."""
