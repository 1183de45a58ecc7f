"""Check: the open integration replayed on the play the workspace holds, as a list to act on. No Qt.

:func:`check_workspace` runs :func:`emucore.assist.check_integration` on the episode movies
Suggest uses (each ends at a marked game over) and the regression movies, and checks the
numbers typed in Find from screen against the reward: between two checkpoints the screen's
value changed by as much as the reward would pay. With Find from screen's reader, the number read
off every frame of the movies is compared with the reward at each of its changes (findings of kind
``screen`` and ``screen-reward``, with the frame to go to). Each finding becomes a :class:`CheckRow`
that says what the user can do about it: go to the frame, open the variable, or suggest the
done rule again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.assist import check_integration
from emucore.assist.report import Finding, IntegrationReport, number
from emucore.errors import EmucoreError
from emucore.integration import DATA_FILE, SCENARIO_FILE, read_data_file, read_scenario_json
from emucore.search.snapshot import snapshot_from_state
from studio.model.scenario.regression import RegressionSuite
from studio.model.search.screen_values import Checkpoint

GO_TO_FRAME, OPEN_VARIABLE, SUGGEST_DONE = "go to the frame", "open the variable", "suggest the done rule again"
SEVERITY_ORDER = {"problem": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class CheckRow:
    """One finding and what to do about it (``action`` one of the constants above, or "")."""

    severity: str
    message: str
    action: str = ""
    movie: Path | None = None
    frame: int | None = None
    variable: str | None = None


@dataclass
class WorkspaceCheck:
    """The report of the replayed movies (None when there were none) and every row, problems first."""

    report: IntegrationReport | None
    rows: list[CheckRow]
    movies: list[Path]

    @property
    def ok(self) -> bool:
        return not any(row.severity == "problem" for row in self.rows)

    def summary(self) -> str:
        counts = {s: sum(r.severity == s for r in self.rows) for s in SEVERITY_ORDER}
        replayed = f"{len(self.movies)} movie{'s' if len(self.movies) != 1 else ''} replayed"
        if self.report is not None:
            replayed += f" ({number(self.report.frames)} frames)"
        verdict = "Problems found" if not self.ok else "No problem found" if self.movies else "Not checked on play"
        return (f"{verdict}: {replayed}; "
                f"{counts['problem']} problem(s), {counts['warning']} warning(s), {counts['info']} note(s)")


def check_workspace(session: Any, episodes: list[Path], checkpoints: list[Any],
                    found: dict[str, Any] | None = None, screen: Any = None) -> WorkspaceCheck:
    """Checks ``session``'s integration on ``episodes`` (movies ending at a game over), the
    regression movies, and the reward terms on the variables found from the screen (``found``:
    name -> provenance) against what the screen showed (Find from screen's ``checkpoints``).
    With ``screen`` (Find from screen's :class:`~emucore.assist.ScreenNumber`), the reward is also
    compared with the number read off every frame of the movies, at each of its changes.

    Raises:
        ValueError: the integration cannot be loaded or a movie cannot be read (the message names it).
    """
    folder = Path(session.folder)
    try:
        regression = [folder / e.movie for e in RegressionSuite(folder).expectations()]
    except (EmucoreError, ValueError) as exc:
        raise ValueError(f"regression.json: {exc}") from exc
    regression = [p for p in regression if p.is_file() and p.resolve() not in {e.resolve() for e in episodes}]
    report = None
    rows: list[CheckRow] = []
    if regression or episodes:
        try:
            report = check_integration(folder, movies=regression, episodes=episodes, screen=screen)
        except (EmucoreError, OSError) as exc:
            raise ValueError(f"the check could not replay the play: {exc}") from exc
        movies = [Path(m.path) for m in report.movies]
        rows += [_row(finding, movies) for finding in report.findings]
    else:
        rows.append(CheckRow("warning", "no episode or regression movie to replay: record episodes that end at a "
                                        "game over (Movie > Record episodes) so the reward and done are checked on "
                                        "play they were not made from"))
    rows += checkpoint_rows(session, checkpoints, found or {})
    rows.sort(key=lambda row: SEVERITY_ORDER[row.severity])
    return WorkspaceCheck(report, rows, regression + list(episodes))


def _row(finding: Finding, movies: list[Path]) -> CheckRow:
    movie = movies[finding.movie] if finding.movie is not None and finding.movie < len(movies) else None
    if finding.kind.startswith("done"):
        action = SUGGEST_DONE
    elif movie is not None and finding.frame is not None:
        action = GO_TO_FRAME
    elif finding.variable:
        action = OPEN_VARIABLE
    else:
        action = ""
    if action == SUGGEST_DONE and movie is not None and finding.frame is not None:
        action = GO_TO_FRAME + " / " + SUGGEST_DONE
    return CheckRow(finding.severity, finding.message, action, movie, finding.frame, finding.variable)


def checkpoint_rows(session: Any, checkpoints: list[Checkpoint], found: dict[str, Any]) -> list[CheckRow]:
    """For each reward term on a variable found from the screen (``found``: name -> provenance),
    the screen's change between its checkpoints against what the term pays: the variable's change
    times the multiplier. The values are read from the checkpoints' states while Find from screen
    still holds them, else taken from the provenance (when the variable is still the reading found)."""
    folder = Path(session.folder)
    if not found or not (folder / SCENARIO_FILE).exists():
        return []
    try:
        variables = read_data_file(folder / DATA_FILE, missing_ok=True).variables
        terms = read_scenario_json(folder / SCENARIO_FILE).get("reward", {}).get("variables", {})
    except (EmucoreError, ValueError) as exc:
        return [CheckRow("problem", f"the integration cannot be read: {exc}")]
    held = {c.step: c for c in checkpoints}
    rows = []
    for name, provenance in found.items():
        term = terms.get(name) if isinstance(terms, dict) else None
        if name not in variables or not isinstance(term, dict) or term.get("measurement", "delta") != "delta":
            continue
        variable, scale = variables[name], float(term.get("reward", 0) or 0)
        steps_held = [held.get(step) for step in provenance.steps]
        typed = [c for c in steps_held if c is not None]
        details = provenance.details
        if len(typed) == len(steps_held) >= 2:  # every step is a checkpoint held
            with session.scratch() as emulator:
                try:
                    read = [snapshot_from_state(emulator, c.state).read(variable.address, variable.type)
                            for c in typed]
                except (EmucoreError, ValueError) as exc:
                    rows.append(CheckRow("warning", f"the checkpoints cannot be read back: {exc}", variable=name))
                    continue
        elif (details.get("address"), details.get("type")) == (variable.address, variable.type):
            typed = [Checkpoint.from_step(step) for step in provenance.steps]
            read = [int(v) for v in details.get("stored", [])]
        else:
            rows.append(CheckRow("warning", f"{name} was changed after it was found from the screen: type its value "
                                            "again a few times to check the reward against the screen",
                                 OPEN_VARIABLE, variable=name))
            continue
        if len(read) == len(typed) >= 2:
            rows += _compare(name, scale, typed, read)
    return rows


def _compare(name: str, scale: float, checkpoints: list[Checkpoint], read: list[int]) -> list[CheckRow]:
    wrong = []
    for before, after, a, b in zip(checkpoints, checkpoints[1:], read, read[1:]):
        shown = int(after.shown.replace(" ", "") or 0) - int(before.shown.replace(" ", "") or 0)
        paid = (b - a) * scale
        if paid != shown:
            wrong.append(CheckRow(
                "problem", f"{name}: from frame {before.frame} to {after.frame} the screen went from {before.shown} to "
                f"{after.shown} ({shown:+,}) but the reward pays {paid:+,g} ({name} {a} \u2192 {b}, \u00d7 "
                f"{scale:g})", OPEN_VARIABLE, frame=after.frame, variable=name))
    if wrong:
        return wrong
    return [CheckRow("info", f"{name} \u00d7 {scale:g} pays what the screen showed at all {len(checkpoints)} "
                             "checkpoints typed", variable=name)]


__all__ = ["CheckRow", "WorkspaceCheck", "check_workspace", "checkpoint_rows"]
