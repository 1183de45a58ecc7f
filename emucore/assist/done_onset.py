"""Where a game over began, when the person marked it late: ``find_onsets(emulator, searched)``.

A person marks a game over when they *see* it ("GAME OVER" on screen), which is often seconds
after the game decided it: lives were already at their end value, the game-over flag set. Taken
literally, every frame before the mark is alive, so the end state is both alive and over there
and no rule separates the examples. :func:`find_onsets` treats the mark as approximate:

1. the last ``window`` frames before each searched mark are left out (neither alive nor over),
   and the rules true at every mark and false on every earlier frame are found as usual
   (:func:`~emucore.assist.done_rules`);
2. for each of those rules, the *onset* in an episode is the first frame of the run of frames,
   ending at the mark, on which the rule holds;
3. the game over is the earliest onset, among the robust rules' (flags and counts), from which
   the game no longer answered the controller: played from there to the mark with buttons
   (never START or SELECT) and with none, the memory at the mark is the same
   (:func:`answers_controller`). An earlier death is no such moment: the game went on after it.
   The states come from the episode's movie, or as the caller has them (:class:`OnsetStates`);
   an onset a few frames (:data:`SAME_TAIL`) before a mark is too close to try. When no onset
   is confirmed, the onsets of the rule the evidence ranks first are taken
   (:attr:`Onsets.confirmed` is False).

The answer rests on one rule and says which (:attr:`Onsets.rule`): an alive mark inside the
window (the game still running there) rules out an onset before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from emucore.assist.done_examples import DoneExamples
from emucore.assist.done_suggestion import DoneRule, done_rules
from emucore.datatypes import parse_type
from emucore.operations import Operation
from emucore.search.movies import MaskReplay
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import StateLike

#: Frames before a mark searched for the moment the game over began (6 s at 60 frames a second).
WINDOW = 360
CANDIDATES = 40  # rules whose onsets are compared
HOLD = 8  # frames each choice of buttons is held when trying the controller
SAME_TAIL = 4  # last frames before the mark played with no button either way (the game's copies of them agree)


@dataclass(frozen=True)
class Onsets:
    """Per searched episode, how many frames before its mark the game over began (0: at the
    mark), and the rule that says so (None when no rule holds at every mark)."""

    frames_before: list[int]
    rule: DoneRule | None
    confirmed: bool = False  # the controller no longer mattered from the onsets on (replayed)


def holds(rule: DoneRule, snap: Snapshot) -> bool:
    """Whether every test of ``rule`` is true on ``snap``'s memory."""
    for test in rule.tests:
        dtype = parse_type(test.type)
        position = int(snap.layout.positions_of(np.array([test.address], dtype=np.int64))[0])
        raw = bytes(snap.buf[position : position + dtype.width])
        value = dtype.decode(raw) if test.mask is None else dtype.decode(raw, test.mask & ((1 << 64) - 1))
        if not Operation(test.op).compute(value, test.reference):
            return False
    return True


def _run(rule: DoneRule, near: Sequence[Snapshot]) -> int:
    """How many of the frames just before the mark (``near``, in time order) the rule holds on
    without a break up to the mark."""
    count = 0
    for snap in reversed(near):
        if not holds(rule, snap):
            break
        count += 1
    return count


class OnsetStates(Protocol):
    """Where an episode's game states before its mark can be had, for the controller test."""

    def state_at(self, before: int) -> tuple[bytes, int] | None:
        """A state from at most a few frames after the moment ``before`` frames before the
        mark, and how many frames it is before the mark (None when there is none)."""


@dataclass(frozen=True)
class MovieStates:
    """An episode movie's states, replayed from its start."""

    emulator: Any
    movie: MaskReplay

    def state_at(self, before: int) -> tuple[bytes, int] | None:
        masks, emulator = self.movie.masks, self.emulator
        saved = emulator.get_state()
        try:
            if self.movie.start is not None:
                emulator.set_state(self.movie.start)
            _play(emulator, masks[: len(masks) - before])
            return bytes(emulator.get_state()), before
        finally:
            emulator.set_state(saved)


def find_onsets(emulator: Any, searched: DoneExamples, others: DoneExamples | None = None,
                alive: Iterable[StateLike] = (), *, data: Mapping[str, Any] | None = None,
                states: Sequence[OnsetStates | None] | None = None) -> Onsets:
    """Where each of ``searched``'s game overs began, in frames before its mark.

    Args:
        emulator: The game's emulator (left as it was).
        searched: The episodes whose ends are marks, taken with the search window as their
            margin (:func:`~emucore.assist.episode_examples` with ``margin=WINDOW``): their
            ``near`` frames are searched, in time order.
        others: More episodes, whose ends are taken as they are (alive and over evidence).
        alive: Alive marks.
        data: data.json's variables (a rule on one of them uses its name).
        states: Per searched episode, where its states can be had for the controller test
            (default: replayed from its movie; an episode given as snapshots has none).

    Returns:
        The frames before each searched mark where the end state began; all 0 when no rule
        holds at every mark and on none of the frames before the windows.
    """
    episodes = searched if others is None else searched + others
    try:
        rules = list(done_rules(emulator, alive, (), episodes=episodes, data=data, limit=CANDIDATES))
    except ValueError:  # no alive frame outside the windows: nothing to compare with
        rules = []
    if not rules:
        return Onsets([0] * len(searched.over), None)
    robust = [r for r in rules if max(t.tier for t in r.tests) == 0] or list(rules)
    runs = [[_run(rule, near) for near in searched.near] for rule in robust]
    if states is None:
        states = [MovieStates(emulator, r) if isinstance(r, MaskReplay) else None for r in searched.alive.replays]
    checked: dict[tuple[int, int], bool] = {}

    def over_from(k: int) -> bool:
        """Whether, in every episode, the controller no longer mattered from rule ``k``'s onset on."""
        for episode, (where, before) in enumerate(zip(states, runs[k])):
            if (episode, before) not in checked:
                if 0 < before <= SAME_TAIL:
                    return False  # too close to the mark to try the controller: not confirmed
                found = where.state_at(before) if where is not None and before else None
                if found is None and before:
                    return False  # nothing to replay: not confirmed
                checked[episode, before] = found is None or not answers_controller(emulator, *found)
            if not checked[episode, before]:
                return False
        return True

    earliest = sorted(range(len(robust)), key=lambda k: (-sum(runs[k]), k))
    best = next((k for k in earliest if over_from(k)), None)
    if best is None:  # nothing confirmed: the rule the evidence ranks first
        return Onsets(runs[0], robust[0], confirmed=False)
    return Onsets(runs[best], robust[best], confirmed=True)


def _pattern(emulator: Any, frames: int) -> np.ndarray:
    """Button masks that play: each direction with an action button, held 8 frames at a time,
    never START, SELECT or MODE (which would restart or pause a game)."""
    names = list(emulator.buttons)
    directions = [names.index(d) for d in ("RIGHT", "DOWN", "LEFT", "UP") if d in names]
    actions = [k for k, name in enumerate(names)
               if name and name not in ("START", "SELECT", "MODE", "RIGHT", "DOWN", "LEFT", "UP")]
    choices = [(1 << d) | (1 << actions[i % len(actions)]) if actions else 1 << d for i, d in enumerate(directions)]
    choices = choices or [1 << k for k in actions] or [0]
    return np.array([choices[(frame // HOLD) % len(choices)] for frame in range(frames)], dtype=np.int64)


def answers_controller(emulator: Any, state: bytes, frames: int) -> bool:
    """Whether the game still answers the controller in the ``frames`` frames after ``state``:
    played with buttons (:func:`_pattern`, released for the last :data:`SAME_TAIL` frames, so
    the game's copies of the buttons agree) and with none, its memory ends different. A game
    that is over ignores every button but START; one still running (after an earlier death
    too) does not."""
    if frames <= SAME_TAIL:
        return False
    saved = emulator.get_state()
    held = emulator.get_button_mask(0)
    try:
        ends = []
        for pressed in (np.zeros(frames, dtype=np.int64), _pattern(emulator, frames)):
            pressed[frames - SAME_TAIL :] = 0
            emulator.set_state(state)
            _play(emulator, pressed[:, None])
            ends.append(Snapshot.capture(emulator.memory).buf.copy())
        return not np.array_equal(ends[0], ends[1])
    finally:
        emulator.set_state(saved)
        emulator.set_button_mask(held, 0)


def _play(emulator: Any, masks: np.ndarray) -> None:
    for row in masks:
        for player, mask in enumerate(row):
            emulator.set_button_mask(int(mask), player)
        emulator.step()


__all__ = ["WINDOW", "MovieStates", "OnsetStates", "Onsets", "answers_controller", "find_onsets", "holds"]
