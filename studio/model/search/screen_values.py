"""Find from screen: type the number the screen shows a few times, get the variable. No Qt.

Each entry keeps the state of that moment as a checkpoint; from two entries on,
:func:`emucore.assist.solve_value` ranks the places and types that read what was typed at every
checkpoint (with a scale and bias when the screen draws a trailing zero or shows lives + 1),
checked on the play the rewind history holds (a HUD buffer that holds the score only at some
frames ranks after the steady readings; of two copies of the value, the one that changes first
ranks first; a value typed a few frames stale, from a blinking or late-drawn score, is read where
the play held it, and said).
Checkpoints are kept in the game's workspace, so they survive a restart.

data.json has no scale or bias. Making a variable from a candidate therefore stores the value as
kept in memory; a scale becomes the reward multiplier when the variable is made a reward, and a
bias is written down in the variable's provenance (its tooltip and "About" view).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emucore.assist import ValueCandidate, ValueCandidates, solve_value
from emucore.assist.value_near import NEAR
from studio.model.play.state_list import StateList
from studio.model.search import provisional
from studio.model.set_aside import OpenProblem
from studio.model.variables.provenance import Provenance

SHOWN = re.compile(r"^\s*-?\s*\d[\d ]*$")  # digits as drawn; inner spaces are places drawn blank
MAX_CHECKPOINTS = 32
INDEX = "screen_values.json"


@dataclass(frozen=True)
class Checkpoint:
    """A moment of play and the number the screen showed then."""

    shown: str
    frame: int
    state: bytes

    @property
    def step(self) -> str:
        """The checkpoint in words, as a variable's provenance keeps it: ``frame 134: shown 000300``."""
        return f"frame {self.frame}: shown {self.shown}"

    @classmethod
    def from_step(cls, step: str) -> Checkpoint:
        """The frame and shown value of a provenance step (without the state, which it does not keep)."""
        frame, _, shown = step.partition(": shown ")
        return cls(shown, int(frame.removeprefix("frame ") or 0), b"")


def check_shown(text: str) -> str:
    """The number as typed (digits as drawn, leading zeros kept); ValueError if it is not one."""
    if not isinstance(text, str) or not SHOWN.match(text):
        raise ValueError(f"type the number the screen shows (digits, e.g. 000120), not {text!r}")
    return text.strip()


def relation(candidate: ValueCandidate) -> str:
    """How the value on screen follows from the stored one, in words ("" when they are equal)."""
    if candidate.scale == 1 and not candidate.bias:
        return ""
    formula = "stored" + (f" \u00d7 {candidate.scale}" if candidate.scale != 1 else "")
    formula += f" {'+' if candidate.bias > 0 else '-'} {abs(candidate.bias)}" if candidate.bias else ""
    return f"the screen shows {formula}"


class _Rewound:
    """The rewind history's states, oldest first, read anew each time it is iterated: the solver
    reads the play twice (the frames around each checkpoint, then every frame) without keeping it."""

    def __init__(self, rewind: Any):
        self.rewind = rewind

    def __iter__(self) -> Iterator[bytes]:
        return (state for _, state in self.rewind.states())


class ScreenValueFinder:
    """The checkpoints of one game's "find from screen", and what they give.

    Args:
        session: The open game (``emulator``, ``frame``, ``states.workspace``).
        report: Told about a workspace file that could not be read (it is set aside).
    """

    def __init__(self, session: Any, report: Callable[[OpenProblem], None] | None = None):
        self.session = session
        self.folder = Path(session.states.workspace) / "screen_values"
        self.store: StateList[Checkpoint] = StateList(self.folder, INDEX, "checkpoints", "checkpoint")
        self.report = report or (lambda problem: None)
        self.checkpoints: list[Checkpoint] = self._load()

    # ---- checkpoints ----

    def add(self, shown: str) -> Checkpoint:
        """Keeps the state now with the number the screen shows."""
        text = check_shown(shown)
        if len(self.checkpoints) >= MAX_CHECKPOINTS:
            raise ValueError(f"at most {MAX_CHECKPOINTS} checkpoints: remove some first")
        checkpoint = Checkpoint(text, int(self.session.frame), bytes(self.session.emulator.get_state()))
        self.checkpoints.append(checkpoint)
        self._save()
        return checkpoint

    def remove(self, index: int) -> None:
        """Forgets one checkpoint."""
        if not 0 <= index < len(self.checkpoints):
            raise IndexError(f"no checkpoint {index}")
        del self.checkpoints[index]
        self._save()

    def clear(self) -> None:
        """Forgets every checkpoint."""
        self.checkpoints = []
        self._save()

    # ---- results ----

    def candidates(self, limit: int = 20) -> ValueCandidates:
        """The ranked candidates, checked on the rewind history (empty with fewer than two
        checkpoints), with the ``ambiguities`` the checkpoints leave open."""
        if len(self.checkpoints) < 2:
            return ValueCandidates()
        pairs = [(c.state, c.shown) for c in self.checkpoints]
        rewind = self.session.rewind
        history = _Rewound(rewind) if len(rewind) > 1 else None
        nearby = self._nearby(rewind) if history is not None else None
        with self.session.scratch() as emulator:  # the checkpoints are loaded in turn: the picture stays
            return solve_value(emulator, pairs, history, limit=limit, nearby=nearby)

    def _nearby(self, rewind: Any) -> list[list[tuple[int, bytes]]]:
        """For each checkpoint, the rewind's states within :data:`NEAR` frames of it (by frame
        number: the rewind keeps a state every few frames, so the checkpoint's own is seldom
        among them). A typed value the screen showed a few frames stale is read there. Frames
        the rewind went back over and played again are the new play's: such a match is ranked
        after the exact ones anyway, and says how far off it was."""
        frames = [c.frame for c in self.checkpoints]
        out: list[list[tuple[int, bytes]]] = [[] for _ in frames]
        for frame, state in rewind.states():
            for index, at in enumerate(frames):
                if 0 < abs(frame - at) <= NEAR:
                    out[index].append((frame - at, state))
        return out

    @staticmethod
    def same_reading(results: list[ValueCandidate], candidate: ValueCandidate) -> list[ValueCandidate]:
        """Other widths over the same bytes that read the same at every checkpoint: the
        checkpoints cannot tell them apart until the value needs the wider one's extra bytes."""
        width = int(candidate.type[-1])

        def overlaps(other: ValueCandidate) -> bool:
            return other.address < candidate.address + width and candidate.address < other.address + int(other.type[-1])

        return [other for other in results if other is not candidate and other.shown == candidate.shown
                and int(other.type[-1]) != width and other.type[1] == candidate.type[1] and overlaps(other)]

    def steps(self) -> list[str]:
        """The checkpoints in words, for a variable's provenance."""
        return [c.step for c in self.checkpoints]

    def provenance(self, candidate: ValueCandidate, note: str = "", open_choice: dict[str, Any] | None = None
                   ) -> Provenance:
        """How ``candidate`` was found, to keep with the variable made from it (``open_choice``:
        the readings the checkpoints could not tell it from, :func:`provisional.marking`)."""
        how = relation(candidate)
        details: dict[str, Any] = {"address": candidate.address, "type": candidate.type, "scale": candidate.scale,
                                   "bias": candidate.bias,
                                   "candidate": candidate.describe(), "stored": list(candidate.values)}
        if candidate.notes:
            details["play"] = list(candidate.notes)
        if open_choice is not None:
            details[provisional.KEY] = open_choice
        text = "; ".join(part for part in (how.capitalize() if how else "", note) if part)
        return Provenance("find from screen", self.steps(), note=text, details=details)

    def make_variable(self, candidate: ValueCandidate, name: str, watch: Any, scenario: Any = None,
                      as_reward: bool = False, ambiguities: Any = ()) -> str:
        """Adds ``candidate`` as variable ``name`` (and as a reward term when ``as_reward``).
        When one of ``ambiguities`` involves it, the variable is provisional: the next
        checkpoint re-solves it (:func:`studio.model.search.provisional.settle`).

        Returns:
            What was done, in a sentence for the status line.
        """
        open_choice = provisional.marking(candidate, ambiguities, self.steps())
        name = watch.add(name, candidate.address, candidate.type,
                         provenance=self.provenance(candidate, open_choice=open_choice))
        said = [f"made {name} ({candidate.type} at 0x{candidate.address:X})"]
        if open_choice is not None:
            said.append(f"provisional: {open_choice['says']}")
        if as_reward:
            if scenario is None:
                raise ValueError("no scenario to add the reward to")
            scenario.set_reward_term(name, measurement="delta", reward=float(candidate.scale))
            said.append(f"its increase is the reward \u00d7 {candidate.scale}" if candidate.scale != 1
                        else "its increase is the reward")
        elif candidate.scale != 1:
            said.append(f"the screen shows it \u00d7 {candidate.scale}: making it a reward puts {candidate.scale} "
                        "in the reward multiplier")
        if candidate.bias:
            said.append(f"data.json keeps the stored value; {relation(candidate)} (noted in its provenance)")
        return "; ".join(said)

    # ---- the workspace ----

    def _save(self) -> None:
        self.store.save([({"shown": c.shown, "frame": c.frame}, c.state) for c in self.checkpoints])

    def _load(self) -> list[Checkpoint]:
        _, checkpoints = self.store.load(
            lambda facts, state: Checkpoint(check_shown(facts["shown"]), int(facts["frame"]), state),
            self.report, "find from screen starts without checkpoints")
        return checkpoints[:MAX_CHECKPOINTS]
