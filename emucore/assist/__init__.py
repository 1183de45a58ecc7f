"""From examples to variables and rules, and back: checks of an integration against recorded play.

:func:`check_integration` replays movies and episodes through an integration exactly as training
evaluates it and reports rewards that are always 0 or absurd, a reward that disagrees with the
score the screen showed, done rules that fire early, late or never, and data.json variables
that are unmapped or never change.
"""

from emucore.assist.check import LATE_FRAMES, check_integration
from emucore.assist.checkpoints import CheckpointError
from emucore.assist.report import Finding, IntegrationReport, MovieCheck

__all__ = ["LATE_FRAMES", "CheckpointError", "Finding", "IntegrationReport", "MovieCheck", "check_integration"]
