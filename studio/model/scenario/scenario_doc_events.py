"""What a scenario document tells its views and the models built on it. No Qt."""

from __future__ import annotations

from psygnal import Signal, SignalGroup


class ScenarioEvents(SignalGroup):
    """What a scenario document tells its views and the models built on it."""

    changed = Signal()
    """After every edit: the document, its findings and evaluator are up to date."""
    evaluated = Signal()
    """The live result or its history changed (a frame was evaluated, a rewind, a new evaluator)."""
