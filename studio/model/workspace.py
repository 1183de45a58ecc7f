"""The studio's root model: the open game and every model of it. No Qt.

The window is given a :class:`Workspace`; its views are given the workspace and read the models from it
(``workspace.session``, ``watch``, ``scenario``, ``done_marks``, ``searches``, ``labels``,
``screen_values``, ``screen_reader``, ``ram``); none of them
builds a model. :meth:`Workspace.open` replaces the game: ``events.closing`` (views unbind from the old
models), the old models and session closed, the new ones built, ``events.opened`` (views bind to them).

>>> workspace = Workspace(Session(*resolve_game("StudioDemo-Nes", None)), Settings())
>>> @workspace.events.opened.connect
... def bind():                      # a view binds to the new game's models
...     print(workspace.session.name)
>>> session = workspace.open("StudioDemo-Genesis")
StudioDemo-Genesis
"""

from __future__ import annotations

import os

from psygnal import Signal, SignalGroup

from studio.model.events import Connections
from studio.model.opening import resolve_game
from studio.model.play.bindings import key_map
from studio.model.play.input_router import InputRouter
from studio.model.play.session import Session
from studio.model.scenario.done_marks import DoneMarks
from studio.model.scenario.regression_recheck import RegressionRecheck
from studio.model.scenario.scenario_doc import ScenarioDocument
from studio.model.search.screen_reader import ScreenReader
from studio.model.search.screen_values import ScreenValueFinder
from studio.model.search.search_book import SearchBook
from studio.model.search.search_book_store import SearchStore
from studio.model.search.state_labels import StateLabels
from studio.model.settings import Settings
from studio.model.variables.ram import Ram
from studio.model.variables.watch import Watch


class WorkspaceEvents(SignalGroup):
    closing = Signal()
    """The open game's models are about to close (another game opens, or the studio closes): unbind."""
    opened = Signal()
    """Another game is open and its models are built: bind to them."""


class Workspace:
    """The open game, its models, the input router and the settings.

    Args:
        session: The game to start with (opened by the caller: the app resolves it, or restores a crashed one).
        settings: The studio's settings (key bindings, rewind length, ...); defaults when None.
    """

    def __init__(self, session: Session, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.events = WorkspaceEvents()
        self.input = InputRouter()
        self.recheck = RegressionRecheck()
        self._game_connections = Connections()
        self._take(session)

    def _take(self, session: Session) -> None:
        self.session = session
        self.watch = Watch(session)
        self.scenario = ScenarioDocument(session)
        self.done_marks = DoneMarks(session)
        self.searches = SearchBook(lambda: session.emulator)
        self.search_store = SearchStore.attach(self.searches, session.states.workspace / "searches", session.report)
        self.labels = StateLabels(session, report=session.report)
        self.screen_values = ScreenValueFinder(session, report=session.report)
        self.screen_reader = ScreenReader(session, report=session.report)
        self.ram = Ram(session.emulator)
        self.input.attach(session)
        self.input.set_keys(key_map(session.system, self.settings))
        self.recheck.follow(session.folder)
        self._game_connections.connect(self.scenario.events.changed, self.recheck.request)

    def open(self, target: str | os.PathLike[str], state: str | None = None, core: str | None = None) -> Session:
        """Opens another game (an integration name or folder, or a ROM) in place of this one.

        Errors (a ROM that cannot be read, a state that does not load) are raised before anything is
        closed: the current game goes on.
        """
        rom, state_path = resolve_game(str(target), state)
        session = Session(rom, state_path, core=core, rewind_seconds=self.settings.rewind_seconds)
        self.events.closing.emit()
        self._close_models()
        self._take(session)
        self.events.opened.emit()
        return session

    def _close_models(self) -> None:
        self._game_connections.disconnect_all()
        self.search_store.detach()
        self.screen_reader.close()
        self.done_marks.close()
        self.scenario.close()
        self.watch.close()
        self.session.close()

    def close(self) -> None:
        """Closes the game and its models (the studio is closing)."""
        self.events.closing.emit()
        self.recheck.close()
        self.input.attach(None)
        self._close_models()
