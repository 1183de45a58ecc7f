"""What :func:`emucore.assist.check_integration` found: findings, per-movie totals, text and JSON.

The report is plain data: every finding has a severity (``"problem"``, ``"warning"`` or
``"info"``), a kind (a short stable token such as ``"done-early"``) and a message that names the
movie, the frame and the variable where they apply. ``ok`` is True when nothing is a problem.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: Severities, most serious first.
SEVERITIES = ("problem", "warning", "info")


def number(value: float) -> str:
    """A number as a person reads it: ``1,300``, ``-8,990``, ``0.5``, ``1.68e+07`` for huge fractions."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.6g}"


def times(count: int) -> str:
    """``once``, ``2 times``, ``1,300 times``."""
    return "once" if count == 1 else f"{number(count)} times"


def factor(value: float) -> str:
    """A ratio as ``10``, ``2.5`` or ``0.1``: three significant digits, no trailing zeros."""
    value = float(value)
    rounded = round(value)
    if rounded and abs(value - rounded) <= 1e-6 * abs(value):
        return f"{rounded:,}"
    return f"{value:.3g}"


def multiplier(value: float) -> str:
    """A reward multiplier as scenario.json shows it: ``1.0``, ``0.5``, ``10.0``."""
    value = float(f"{float(value):.6g}")  # float32 noise off: 0.1 rather than 0.10000000149011612
    return repr(value)


@dataclass(frozen=True)
class Finding:
    """One thing the check noticed.

    Attributes:
        severity: ``"problem"`` (training would learn from wrong numbers), ``"warning"`` (worth a
            look) or ``"info"`` (what happened, for the record).
        kind: What was checked, e.g. ``"reward-always-zero"``, ``"reward-spike"``, ``"reward-scale"``,
            ``"done-early"``, ``"unmapped"``, ``"never-changed"``.
        message: One sentence that names the movie, the frame and the variable where they apply.
        movie: The movie's index (movies first, then episodes), or None for the whole integration.
        frame: The movie frame it is about (frame k is the k-th step after the reset frame), or None.
        variable: The data.json variable it is about, or None.
    """

    severity: str
    kind: str
    message: str
    movie: int | None = None
    frame: int | None = None
    variable: str | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, not {self.severity!r}")


@dataclass
class MovieCheck:
    """One replayed movie, as training saw it.

    Attributes:
        path: The movie file.
        kind: ``"movie"`` (ordinary play) or ``"episode"`` (its last frame is the marked game over).
        index: Its index in the report (movies first, then episodes), as ``checkpoints`` count them.
        players: Players in the movie (the reward checked is player 1's, as a 1-reward env gives it).
        steps: Env steps replayed (the movie's frames after its reset frame).
        reward_total: The sum of the rewards of every step.
        rewards_nonzero: Steps whose reward was not 0.
        first_done: The first frame where done was true, or None if it never was in the movie.
        game_over: For an episode, its last frame (the marked game over); None for a movie.
        done_reason: Why done fired at ``first_done`` (``lives == 0 (is 0)``), or None.
        late_done: For an episode whose done did not fire in it, the first frame after its end (every
            button released) where it did, or None.
    """

    path: str
    kind: str
    index: int
    players: int
    steps: int
    reward_total: float
    rewards_nonzero: int
    first_done: int | None = None
    game_over: int | None = None
    done_reason: str | None = None
    late_done: int | None = None

    @property
    def name(self) -> str:
        return Path(self.path).name

    def summary(self) -> str:
        """One line: steps, reward total and where done fired."""
        if self.first_done is not None:
            done = f"done at frame {number(self.first_done)}"
        elif self.late_done is not None:
            done = f"done at frame {number(self.late_done)} (after the movie)"
        else:
            done = "done never"
        over = f", game over at frame {number(self.game_over)}" if self.game_over is not None else ""
        return (f"{self.index}: {self.name} ({self.kind}) {number(self.steps)} steps, reward "
                f"{number(self.reward_total)} ({number(self.rewards_nonzero)} non-zero), {done}{over}")


@dataclass
class IntegrationReport:
    """The result of :func:`emucore.assist.check_integration`.

    Attributes:
        game: The game's name.
        integration: The integration checked: its folder, or the game name it was looked up by.
        findings: Everything noticed, problems first.
        movies: One :class:`MovieCheck` per replayed movie, movies then episodes.
        frames: Frames replayed in all (each movie's reset frame included).
        changes: For each data.json variable read in play, how many times its value changed.
    """

    game: str
    integration: str
    findings: list[Finding] = field(default_factory=list)
    movies: list[MovieCheck] = field(default_factory=list)
    frames: int = 0
    changes: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no finding is a problem."""
        return not any(f.severity == "problem" for f in self.findings)

    def by_severity(self, severity: str) -> list[Finding]:
        """The findings of one severity, in report order."""
        return [f for f in self.findings if f.severity == severity]

    def sort(self) -> None:
        """Problems first, then warnings, then info; within each, by movie and frame."""
        def key(f: Finding) -> tuple[int, int, int]:
            movie = -1 if f.movie is None else f.movie
            frame = -1 if f.frame is None else f.frame
            return SEVERITIES.index(f.severity), movie, frame

        self.findings.sort(key=key)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``ok``, the game, the findings, the movies (each with ``name``) and the changes."""
        return {
            "ok": self.ok,
            "game": self.game,
            "integration": self.integration,
            "frames": self.frames,
            "findings": [asdict(f) for f in self.findings],
            "movies": [{**asdict(m), "name": m.name} for m in self.movies],
            "changes": dict(self.changes),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=indent)

    def text(self) -> str:
        """The report as a person reads it: the movies, then the findings by severity, then a verdict."""
        lines = [f"{self.game} ({self.integration}): {len(self.movies)} movies, {number(self.frames)} frames replayed"]
        lines += [f"  {movie.summary()}" for movie in self.movies]
        for severity in SEVERITIES:
            found = self.by_severity(severity)
            if found:
                title = {"problem": "problems", "warning": "warnings", "info": "info"}[severity]
                lines.append(f"{title} ({len(found)}):")
                lines += [f"  [{f.kind}] {f.message}" for f in found]
        problems, warnings = len(self.by_severity("problem")), len(self.by_severity("warning"))
        verdict = "ok" if self.ok else "NOT ok"
        lines.append(f"{verdict}: {problems} problem{'s' * (problems != 1)}, {warnings} warning{'s' * (warnings != 1)}")
        return "\n".join(lines)


__all__ = ["SEVERITIES", "Finding", "IntegrationReport", "MovieCheck", "factor", "multiplier", "number", "times"]
