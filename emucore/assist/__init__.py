"""From examples to variables and rules, and back: the assisted tools and the checks of an integration.

* :func:`solve_value` - the variables that read what the screen showed at a few checkpoints, with
  their type, scale and bias, checked on the play between them, ranked as an integrator would
  choose, with the ambiguities the checkpoints leave open;
* :func:`suggest_done` / :func:`done_rules` - a done rule from alive and game-over examples
  (:func:`episode_examples` makes them from episode movies), with the evidence each rests on;
  :func:`find_onsets` - where a game over marked late (on seeing it) began;
* :class:`ScreenNumber` - reads the number the screen draws on every frame, after a few examples;
  :class:`ScreenIcons` counts icons drawn in a row (lives shown as ships or heads);
* :func:`check_integration` - movies and episodes replayed through an integration exactly as
  training evaluates it: rewards that are always 0 or absurd, a reward that disagrees with the
  score the screen showed, done rules that fire early, late or never, and data.json variables
  that are unmapped or never change.

The solvers work on :mod:`emucore.search`'s snapshots; the checks replay movies through
:mod:`emucore.movie`.
"""

from emucore.assist.check import LATE_FRAMES, check_integration
from emucore.assist.checkpoints import CheckpointError
from emucore.assist.done_examples import DoneExamples, episode_examples
from emucore.assist.done_onset import Onsets, find_onsets
from emucore.assist.done_suggestion import DoneRule, DoneRules, DoneSuggestion, done_rules, suggest_done
from emucore.assist.report import Finding, IntegrationReport, MovieCheck
from emucore.assist.screen_icons import ScreenIcons
from emucore.assist.screen_number import ScreenNumber, ScreenNumberError, Unseen
from emucore.assist.value_candidates import Ambiguity, ValueCandidate, ValueCandidates
from emucore.assist.value_solver import solve_value

__all__ = [
    "LATE_FRAMES",
    "Ambiguity",
    "CheckpointError",
    "DoneExamples",
    "DoneRule",
    "DoneRules",
    "DoneSuggestion",
    "Finding",
    "IntegrationReport",
    "MovieCheck",
    "Onsets",
    "ScreenIcons",
    "ScreenNumber",
    "ScreenNumberError",
    "Unseen",
    "ValueCandidate",
    "ValueCandidates",
    "check_integration",
    "done_rules",
    "episode_examples",
    "find_onsets",
    "solve_value",
    "suggest_done",
]
