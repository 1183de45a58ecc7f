"""Two copies of a value: candidates of :func:`~emucore.assist.solve_value` in other bytes that
read every checkpoint alike.

A game may keep a value twice: a top score that follows the score a frame later and keeps the
old game's best in a new game, or a copy for the display written a few frames after the game
logic. Checkpoints taken while the value stands still cannot tell the two apart, and the copy at
the lower address would win on address alone. The play around the checkpoints can tell them:

* the copy that **changes first leads**; the other follows it some frames later (a copy that
  lags): the follower's whole family ranks after the leader's, and the pair is named with the
  frames it lags;
* a copy that **keeps its value when the other falls back** (a new game after a game over) is a
  top score: named as such, and ranked after the value;
* copies that read alike in every frame of play, or with no play to look at, stay an
  ambiguity, with the moment that would separate them (a new game after a game over, where a
  top score keeps the old value).

Only copies of one type and scale are named when nothing in play sets them apart: a binary
score and its digits for the HUD, updated on the same frame, are one value kept two ways, not
a choice that matters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

LAG_MAX = 12  # a copy that follows a change later than this many frames is not matched to it
FAMILIES = 6  # the best families compared, pairwise
NEW_GAME = "a new game after a game over (a top score keeps the old value)"


@dataclass(frozen=True)
class Copy:
    """Two candidates (indexes of the ranking's arrays) that hold the value in disjoint bytes.

    Attributes:
        leader: The one preferred: it changes first (or the better ranked, when play cannot tell).
        follower: The other.
        kind: ``"lags"`` (the follower follows ``lag`` frames later), ``"keeps"`` (the follower
            kept its value when the leader fell back: a top score), ``"alike"`` (they never
            differed in play), ``"differs"`` (they differ, neither follows), ``"unseen"`` (no play).
        words: What was seen and what separates them, in words (no candidate names).
        lag: Frames the follower lags (``"lags"``; 0 otherwise).
    """

    leader: int
    follower: int
    kind: str
    words: str
    lag: int = 0

    @property
    def demotes(self) -> bool:
        """Whether the follower ranks after the leader because of what play showed."""
        return self.kind in ("lags", "keeps")

    @property
    def open(self) -> bool:
        """Whether the pair is still a choice the person has to make (an ambiguity)."""
        return self.kind != "keeps"


def family_of(raw: np.ndarray, address: int) -> frozenset[int]:
    """The addresses of a candidate's bytes that were not 0 at some checkpoint (``raw``:
    ``(checkpoints, width)``); a candidate whose bytes were all 0 has none."""
    return frozenset(address + int(k) for k in np.flatnonzero((raw != 0).any(axis=0)))


def _behind(a: np.ndarray, b: np.ndarray, continues: np.ndarray) -> list[int]:
    """The frames where ``b`` is behind ``a``: it differs from ``a`` but holds a value ``a`` went
    through in the last :data:`LAG_MAX` frames of one piece of play (between ``a`` then and now,
    so that a play sampled every few frames, as the studio's rewind is, still shows it); for
    each, the frames until ``b`` reached (or passed) ``a``'s value there, or -1 if it never did."""
    out = []
    frames = len(a)
    for t in np.flatnonzero(a != b):
        start = t
        while start > 0 and t - start < LAG_MAX and continues[start]:
            start -= 1
        if start == t:
            continue
        low, high = min(a[start:t].min(), a[t]), max(a[start:t].max(), a[t])
        if not low <= b[t] <= high:
            continue
        rising = a[t] >= b[t]
        caught = -1
        for d in range(1, LAG_MAX + 1):
            if t + d >= frames or not continues[t + d]:
                break
            if (b[t + d] >= a[t]) if rising else (b[t + d] <= a[t]):
                caught = d
                break
        out.append(caught)
    return out


def _keeps(a: np.ndarray, b: np.ndarray, continues: np.ndarray) -> int | None:
    """The first frame where ``a`` fell back while ``b`` kept a higher value (a top score), or None."""
    fell = (a[1:] < a[:-1]) & (b[1:] == b[:-1]) & (b[1:] > a[1:]) & continues[1:]
    hits = np.flatnonzero(fell)
    return int(hits[0]) + 1 if len(hits) else None


def compare(a: np.ndarray, b: np.ndarray, continues: np.ndarray) -> tuple[str, bool, str, int]:
    """What play says of two copies' shown series: ``(kind, b_leads, words, lag)``; ``words``
    name the first as "{0}" and the second as "{1}" (``str.format`` fields)."""
    frames = len(a)
    for first, second, swapped in ((a, b, False), (b, a, True)):
        kept = _keeps(first, second, continues)
        if kept is not None:
            names = ("{1}", "{0}") if swapped else ("{0}", "{1}")
            return "keeps", swapped, (
                f"{names[1]} kept {int(second[kept]):,} when {names[0]} fell back to {int(first[kept]):,} "
                f"(frame {kept} of play): {names[1]} is a top score (the best so far), {names[0]} the value"), 0
    differ = np.flatnonzero(a != b)
    if not len(differ):
        return "alike", False, f"they read alike in all {frames} frames of play: {NEW_GAME} would tell", 0
    ab, ba = _behind(a, b, continues), _behind(b, a, continues)
    for lags, other, swapped in ((ab, ba, False), (ba, ab, True)):
        caught = [d for d in lags if d > 0]
        # one follows the other: behind it wherever they differ (a few frames aside), never ahead
        if caught and not other and len(lags) * 4 >= len(differ) * 3:
            lag = int(np.median(caught))
            names = ("{1}", "{0}") if swapped else ("{0}", "{1}")
            return "lags", swapped, (
                f"{names[0]} changes first and {names[1]} follows it {lag} frame{'s' * (lag != 1)} later "
                f"(behind it in {len(lags)} of {frames} frames of play, never ahead), like a top score or "
                f"a copy for the display: {names[0]} is preferred; {NEW_GAME} would tell"), lag
    t = int(differ[0])
    return "differs", False, (f"they differ in {len(differ)} of {frames} frames of play (first at frame {t}: "
                              f"{int(a[t]):,} and {int(b[t]):,}) and neither follows the other"), 0


def find_copies(order: Sequence[int], families: dict[int, frozenset[int]], usable: Callable[[int], bool],
                comparable: Callable[[int, int], bool], same_kind: Callable[[int, int], bool],
                series: Callable[[int], np.ndarray] | None,
                continues: np.ndarray | None) -> list[Copy]:
    """The pairs of copies among the best :data:`FAMILIES` families of ``order`` (candidate
    indexes, best first): each family's best usable member (steady, exact) stands for it.

    Args:
        order: Candidate indexes, best first.
        families: Each candidate's family (:func:`family_of`).
        usable: Whether a candidate may stand for its family.
        comparable: Whether two candidates rest on evidence as good (as many checkpoints read
            a few frames off theirs): a copy is named only between those. A counter read a frame
            off every checkpoint "leads" the true value it is not a copy of.
        same_kind: Whether two candidates have one type and scale.
        series: A candidate's shown value at every frame of play (None: no play).
        continues: Where the play continues from the frame before (None: no play).
    """
    leaders: list[int] = []
    seen: set[frozenset[int]] = set()
    for i in order:
        family = families[i]
        if family and family not in seen and usable(i):
            seen.add(family)
            leaders.append(i)
            if len(leaders) == FAMILIES:
                break
    out = []
    for k, a in enumerate(leaders):
        for b in leaders[k + 1 :]:
            if families[a] & families[b] or not comparable(a, b):
                continue
            if series is None or continues is None:
                if same_kind(a, b):
                    out.append(Copy(a, b, "unseen", "no play to tell which changes first: the play around the "
                                    f"checkpoints would (prefer the one that changes first), or {NEW_GAME}"))
                continue
            kind, swapped, words, lag = compare(series(a), series(b), continues)
            if kind in ("alike", "differs") and not same_kind(a, b):
                continue  # one value kept two ways, in step (a binary score and its digits)
            first, second = (b, a) if swapped else (a, b)
            if swapped:  # the words name the first of the pair passed as {0}
                words = words.replace("{0}", "\0").replace("{1}", "{0}").replace("\0", "{1}")
            if all(second != c.follower for c in out):  # one pair per follower: its best leader
                out.append(Copy(first, second, kind, words, lag))
    return out


__all__ = ["Copy", "FAMILIES", "LAG_MAX", "compare", "family_of", "find_copies"]
