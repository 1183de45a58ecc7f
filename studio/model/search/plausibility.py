"""How large a return can plausibly be, from the score typed in Find from screen and the reward terms. No Qt.

The integrator types the score the screen shows at a few moments (Find from screen's checkpoints,
kept in the workspace's ``screen_values/screen_values.json``). Two facts follow from them:

* ``max_shown`` - the highest score typed: the game does reach it;
* ``rate`` - the fastest the typed score rose, in points per frame, over every pair of checkpoints
  (later frame, higher score). Checkpoints of different plays can pair up too: that only makes
  the rate higher, the bound looser.

The reward terms say what a point of the shown score is worth: a term rewards its variable's
increase (``measurement`` delta) times its ``reward`` multiplier, and a variable found from screen
stores the shown value divided by its scale (provenance), so a shown point is worth
``reward / scale``. An episode of ``steps`` steps (``frames_per_step`` frames each) can then
plausibly return at most::

    PLAUSIBLE_FACTOR * per_point * max(rate * frames_per_step * steps, max_shown)

a generous bound (10x) on what the score rising at its fastest typed pace all episode long, or
one jump as large as the highest score ever typed, would give. The bound is not drawn (``limit``
is None) when no score was typed, or when the reward has parts the score does not bound: a Lua
reward, a positive time reward, a term on an absolute value or through an op, a term on another
variable than the score (the one found from screen; without provenance, a single rewarded term is
taken to be the score).

>>> p = plausibility_of([(0, "000000"), (600, "001500")], {"reward": {"variables": {"score": {"reward": 1.0}}}})
>>> p.limit(100)  # 10 * 1 * max(2.5 points a frame * 100 frames, 1500)
15000.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.fileio import read_json
from emucore.paths import studio_data_dir
from emucore.scenario.model import Scenario, ScenarioError
from studio.model.search.screen_values import INDEX, check_shown

PLAUSIBLE_FACTOR = 10.0
FIND_FROM_SCREEN = "find from screen"


def shown_number(text: str) -> float:
    """The number a typed checkpoint shows ("00 120" is 120: inner spaces are places drawn blank)."""
    return float(int(check_shown(text).replace(" ", "")))


@dataclass(frozen=True)
class Plausibility:
    """What the score checkpoints and the reward terms say about the returns an episode can reach.

    Attributes:
        checkpoints: ``(frame, shown score)`` as typed in Find from screen.
        per_point: The reward one point of the shown score is worth (0: unknown).
        terms: The reward terms in words ("score x 1").
        unknown: Why the return cannot be bounded ("" when it can).
    """

    checkpoints: tuple[tuple[int, float], ...] = ()
    per_point: float = 0.0
    terms: str = ""
    unknown: str = ""

    @property
    def max_shown(self) -> float:
        """The highest score typed (0 without checkpoints)."""
        return max((abs(shown) for _, shown in self.checkpoints), default=0.0)

    @property
    def rate(self) -> float | None:
        """The fastest the typed score rose, in points per frame (None: it never rose between two checkpoints)."""
        best: float | None = None
        for frame, shown in self.checkpoints:
            for later, then in self.checkpoints:
                if later > frame and then > shown:
                    pace = (then - shown) / (later - frame)
                    best = pace if best is None or pace > best else best
        return best

    @property
    def why_unchecked(self) -> str:
        """Why :meth:`limit` gives no bound ("" when it gives one)."""
        if self.unknown:
            return self.unknown
        if not self.checkpoints:
            return "no score was typed in Find from screen"
        if self.per_point <= 0:
            return "the reward terms give nothing for a rising score"
        if self.max_shown <= 0 and not self.rate:
            return "every score typed in Find from screen is 0"
        return ""

    def limit(self, steps: int, frames_per_step: int = 1) -> float | None:
        """The highest plausible return of an episode of ``steps`` steps, or None when it cannot be told."""
        if self.why_unchecked:
            return None
        rising = (self.rate or 0.0) * frames_per_step * steps
        return PLAUSIBLE_FACTOR * self.per_point * max(rising, self.max_shown)

    def describe(self) -> str:
        """What the bound rests on, in words."""
        rate = self.rate
        pace = f", rising at most {rate:,.3g} points a frame between them" if rate else ""
        return (f"{len(self.checkpoints)} score checkpoint(s) typed in Find from screen (highest "
                f"{self.max_shown:,.0f}{pace}) and the reward terms ({self.terms})")


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def plausibility_of(checkpoints: Sequence[tuple[int, str | float]], scenario: Mapping[str, Any] | None,
                    score_scales: Mapping[str, float] | None = None) -> Plausibility:
    """The plausibility of returns from checkpoints and a scenario (pure).

    Args:
        checkpoints: ``(frame, shown)`` pairs, the shown score as typed ("001500") or a number.
        scenario: scenario.json's object (None: no scenario).
        score_scales: The variables found from screen, each with its scale (the screen shows the
            stored value times it); the reward terms on them are the score's.
    """
    points = tuple((int(frame), shown_number(shown) if isinstance(shown, str) else float(shown))
                   for frame, shown in checkpoints)
    scales = dict(score_scales or {})
    try:
        reward = Scenario.parse(dict(scenario) if scenario else None).rewards[0]
    except ScenarioError as exc:
        return Plausibility(points, unknown=f"the scenario cannot be read ({exc})")
    rewarded = {name: term for name, term in reward.variables.items() if term.reward > 0 or term.penalty < 0}
    terms = ", ".join(f"{name} \u00d7 {float(term.reward):g}" for name, term in rewarded.items()) or "none"
    if reward.script:
        return Plausibility(points, terms=terms, unknown=f"the reward is the Lua function {reward.script}")
    if reward.time is not None and reward.time.reward > 0:
        return Plausibility(points, terms=terms, unknown="the reward has a positive time term")
    if not rewarded:
        return Plausibility(points, terms=terms, unknown="no reward term rewards a rising value")
    score = [name for name in rewarded if name in scales] or (list(rewarded) if len(rewarded) == 1 else [])
    others = [name for name in rewarded if name not in score]
    if others:
        return Plausibility(points, terms=terms, unknown=f"reward term(s) {', '.join(others)} are not the score "
                            "found from screen")
    for name in score:
        term = rewarded[name]
        if term.measurement != "delta" or term.op is not None or term.penalty < 0:
            return Plausibility(points, terms=terms, unknown=f"the reward term {name} is not the score's increase "
                                "times a multiplier")
    per_point = max(float(rewarded[name].reward) / (scales.get(name) or 1.0) for name in score)
    return Plausibility(points, per_point, terms)


# ---- the workspace ----


def _read_json(path: Path) -> Any:
    try:
        return read_json(path)
    except (OSError, ValueError):
        return None


def _checkpoints(workspace: Path) -> list[tuple[int, str]]:
    raw = _read_json(workspace / "screen_values" / INDEX)
    rows = raw.get("checkpoints") if isinstance(raw, dict) else None
    found = []
    for row in rows if isinstance(rows, list) else []:
        try:
            found.append((int(row["frame"]), check_shown(row["shown"])))
        except (KeyError, TypeError, ValueError):
            continue  # Find from screen sets a bad index aside when it opens; here it is only read
    return found


def _score_scales(workspace: Path) -> dict[str, float]:
    raw = _read_json(workspace / "provenance.json")
    scales: dict[str, float] = {}
    for name, entry in (raw.items() if isinstance(raw, dict) else ()):
        if isinstance(entry, dict) and entry.get("how") == FIND_FROM_SCREEN:
            details = entry.get("details")
            scale = _number(details.get("scale")) if isinstance(details, dict) else None
            scales[str(name)] = scale if scale and scale > 0 else 1.0
    return scales


def _scenario(game: str | Path, scenario: str | None, inttype: Any) -> tuple[dict | None, str]:
    import emucore.data

    name = "scenario.json" if not scenario else scenario if scenario.endswith(".json") else f"{scenario}.json"
    path = emucore.data.get_file_path(str(game), name, inttype)
    if path is None:
        return None, ""
    raw = _read_json(Path(path))
    return (raw, "") if isinstance(raw, dict) else (None, f"{Path(path).name} cannot be read")


def find_plausibility(game: str | Path, scenario: str | None = None, inttype: Any = None,
                      workspace: Path | None = None) -> Plausibility:
    """The plausibility of ``game``'s returns from the studio's workspace for it and its scenario.

    Args:
        game: The integration folder (or its name).
        scenario: The scenario's name or ``.json`` path (None: ``scenario.json``).
        inttype: Integration sets searched for the scenario (default: all).
        workspace: The game's workspace (default: the studio's, as :class:`~studio.model.play.session.Session` has it).
    """
    import emucore.data

    inttype = emucore.data.Integrations.ALL if inttype is None else inttype
    workspace = studio_data_dir() / "workspaces" / Path(game).name if workspace is None else Path(workspace)
    raw, problem = _scenario(game, scenario, inttype)
    if problem:
        return Plausibility(unknown=problem)
    return plausibility_of(_checkpoints(workspace), raw, _score_scales(workspace))
