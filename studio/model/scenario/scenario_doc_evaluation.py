"""The live half of the scenario document: its reward and done evaluated on the running game. No Qt.

:class:`LiveEvaluation`, the document's ``live``, builds the env's own evaluator
(:class:`emucore.scenario.evaluator.Evaluator`) from the document as it stands, runs it once per emulated
frame and keeps the history the timeline plots, so the reward the studio shows is the reward training sees.
It follows rewinds: the history past the frame rewound to is dropped and the evaluation goes on from there;
a reset to frame 0 is a new episode. Errors a script raises when it is loaded are kept here, and the document
lists them among its findings, because only building the evaluator runs the scripts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container
from dataclasses import dataclass

import numpy as np

from emucore.integration import IntegrationError, LintFinding
from emucore.lua import LuaError
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.explain import DoneReason
from emucore.scenario.loader import GameDataSources, load_game_data
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.scenario.scenario_doc_events import ScenarioEvents

HISTORY = 20_000  # frames of (frame, reward, cumulative, done) kept for the timeline
LOAD_FAILED = "fails when loaded (stable-retro runs on without it)"


@dataclass(frozen=True)
class Sample:
    """One evaluated frame."""

    frame: int
    reward: float
    cumulative: float
    done: bool


class LiveEvaluation:
    """The evaluation of a :class:`~studio.model.scenario.scenario_doc.ScenarioDocument` on its session.

    The document rebuilds it (:meth:`rebuild`) after every edit; it follows the session's frames itself
    until :meth:`close`.

    Args:
        session: The game it is evaluated on.
        events: The document's: ``evaluated`` is told of each change of the result.
        sources: What the evaluator is built from: the document as it stands (data.json re-read if it changed).

    Attributes:
        load_errors: Errors the listed Lua files raise when they are loaded (stable-retro only logs these, and
            its env then runs without the script), by file name.
        error: Why the live evaluation stopped (a Lua error, an unknown variable), or "".
        reward, cumulative, done: The last evaluated frame's result.
        done_reasons: Why ``done`` is true (:meth:`Evaluator.explain_done`); empty when it is not.
        history: The evaluated frames of this episode, oldest first (the last :data:`HISTORY`).
    """

    def __init__(self, session: Session, events: ScenarioEvents, sources: Callable[[], GameDataSources]):
        self.session = session
        self.events = events
        self._sources = sources
        self.load_errors: dict[str, LuaError] = {}
        self.history: deque[Sample] = deque(maxlen=HISTORY)
        self.reward = 0.0
        self.cumulative = 0.0
        self.done = False
        self.done_reasons: list[DoneReason] = []
        self.error = ""
        self._game: Evaluator | None = None
        self._last_frame = session.frame
        self._connections = Connections()
        self._connections.connect(session.events.after_frame, self._after_frame)
        self._connections.connect(session.events.frame, self._frame_changed)

    def close(self) -> None:
        """Stops following the session's frames."""
        self._connections.disconnect_all()

    def rebuild(self) -> None:
        """A new evaluator for the current document; the history starts again from the current frame."""
        self._game = None
        self.error = ""
        self.history.clear()
        self.reward = self.cumulative = 0.0
        self.done = False
        self.done_reasons = []
        self.events.evaluated.emit()
        sources = self._sources()
        try:
            game = load_game_data(sources, self.session.system, lambda: self.session.emulator.memory).data
            game.reset()
            errors = game.lua.load_errors if game.lua is not None else []
            self.load_errors = {e.file: e for e in errors if e.file}
            game.update_ram()  # the evaluation env.reset() makes; its reward is discarded
            game.totals = [np.float32(0)] * len(game.totals)  # the total sums the frames shown
            self.done_reasons = game.explain_done()  # done reads the memory now: shown at once, paused or not
            self.done = bool(game.done)
        except Exception as e:  # noqa: BLE001 - any evaluation failure is shown, never raised into the loop
            self.error = str(e) if isinstance(e, IntegrationError) else f"{type(e).__name__}: {e}"
            return
        self._game = game
        self._last_frame = self.session.frame

    def load_findings(self, skip: Container[str] = ()) -> list[LintFinding]:
        """The load errors as lint findings, but of the files in ``skip`` (those lint finds a syntax error in)."""
        return [LintFinding("error", name, f"line {e.line}" if e.line else "", f"{LOAD_FAILED}: {e.message}")
                for name, e in self.load_errors.items() if name not in skip]

    def restart(self) -> None:
        """A new episode from the current frame: totals and history cleared, scripts re-run."""
        self.rebuild()

    def _after_frame(self) -> None:
        game = self._game
        if game is None:
            return
        try:
            game.update_ram()
            reasons = game.explain_done()
        except Exception as e:  # noqa: BLE001
            self._game = None
            self.error = f"{type(e).__name__}: {e}"
            self.events.evaluated.emit()
            return
        self.reward = game.current_reward(0)
        self.cumulative = game.total_reward(0)
        self.done = game.done
        self.done_reasons = reasons
        self._last_frame = self.session.frame
        self.history.append(Sample(self.session.frame, self.reward, self.cumulative, self.done))
        self.events.evaluated.emit()

    def _frame_changed(self) -> None:
        frame = self.session.frame
        if frame >= self._last_frame:
            return
        self._last_frame = frame
        if frame == 0 or self._game is None:  # reset to start: a new episode
            self.rebuild()
            return
        while self.history and self.history[-1].frame > frame:
            self.history.pop()
        last = self.history[-1] if self.history else None
        self.reward = last.reward if last else 0.0
        self.cumulative = last.cumulative if last else 0.0
        self.done = last.done if last else False
        self.done_reasons = []
        game = self._game
        try:  # a fresh snapshot of the rewound memory, so the next delta is against it
            game.update_ram()
            game.totals[0] = np.float32(self.cumulative)
        except Exception as e:  # noqa: BLE001
            self._game = None
            self.error = f"{type(e).__name__}: {e}"
        self.events.evaluated.emit()

    def timeline(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Frames, cumulative rewards, and the done events (frames where done became true), for the plot."""
        if not self.history:
            empty = np.zeros(0)
            return empty, empty, empty
        frames = np.fromiter((s.frame for s in self.history), float, len(self.history))
        cumulative = np.fromiter((s.cumulative for s in self.history), float, len(self.history))
        done = np.fromiter((s.done for s in self.history), bool, len(self.history))
        rising = done & ~np.concatenate(([False], done[:-1]))
        return frames, cumulative, frames[rising]
