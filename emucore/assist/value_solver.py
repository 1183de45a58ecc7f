"""Find a value from what the screen shows: ``solve_value(emulator, [(state, shown), ...])``.

For example (not run: it needs a game's states or movies)::

    candidates = solve_value(emulator, [(s1, "000120"), (s2, "000350"), (s3, "001200")])
    best = candidates[0]
    best.address, best.type, best.scale, best.bias     # 16711680, ">d3", 1, 0

Every candidate reads the shown value at every checkpoint as ``stored * scale + bias``, with
``stored`` what ``emulator.memory.read(address, type)`` gives in that state.

How candidates are ranked (best first), in this order of importance:

1. **Exact encodings first.** The stored bytes are what the type writes for the value: valid
   packed BCD for ``d`` (every nibble 0-9), one digit 0-9 per byte for ``n``. A ``d`` or ``n``
   read of other bytes drops bits, as a screen buffer of digit tiles does; it is a copy at best.
2. **Scale 1, then 10, 100, 1000**: a trailing zero drawn, not stored, only when needed.
3. **Plain byte orders** (``<``, ``>``) before mixed-order words (``><``, ``<>``).
4. **The width the screen asks for.** When ``shown`` is the digits as drawn (``"000120"``), the
   stored value should hold that many digits (less the zeros a scale draws): six digits are a
   3-byte BCD or a 6-byte nibble value, and, as a looser fit ranked after those, the narrowest
   binary width of 1, 2, 4 or 8 bytes that holds them. When ``shown`` is an int, the narrowest
   type of its kind that holds the largest value. A wider type whose extra bytes merely happen
   to be zero comes later, by how many bytes it has too many (or too few); so do 3-byte binary
   numbers, which CPUs rarely keep. A one-byte reading of a score-like value (drawn with three
   digits or more, past 99, or scaled) ranks behind a wider exact reading of the same bytes at
   the same scale: they read alike until the value needs the second byte, and a score is
   seldom one byte.
5. **No bias, then the smallest**: lives shown as stored + 1 are found, after exact matches.
6. **The CPU's byte order** for binary numbers (the system descriptor's ``byte_order``: ``>``
   on the Genesis and other 68000 systems, ``<`` on the NES and the Atari 2600's 6502); BCD
   and digits big-endian, in the order drawn.
7. **Plausible starts**: a 2- or 4-byte value at an even address on systems with 16-bit words.
8. Binary before BCD before nibbles (they read the same only for values below 10), unsigned
   before signed, then by address.

Candidates that hold the value in the same bytes are one family (``d3`` at A, its ``d2`` tail
at A+1, a ``d4`` at A-1 over a zero byte): a family is listed together, in the rank of its best
member, so the true variable stays near the top beside its aliases when the evidence cannot
tell them apart: first the best member of each width, then the other encodings of those widths
(for values below 10, ``|u1``, ``|d1`` and ``|n1`` read the same byte alike). Only a family's
first three members (two when the digits drawn fix the width) come before the next family;
the rest follow all families' first ones, so a second copy of the value (a game keeps one for
the display) is not pushed down by the first copy's aliases. Values that
never reach 10 or 100 cannot tell widths apart: give the digits as drawn, or checkpoints with
larger values.

Three rules come before all of those:

* **Steady in play.** With ``history`` (the play around the checkpoints), every candidate of
  the first few hundred is read at every frame of it (:mod:`emucore.search.history`): one that
  changes far more often than the steadiest reading, leaves a value and comes straight back,
  jumps far beyond the values shown, or changes between two checkpoints that showed the same
  value is volatile (a HUD buffer the game reuses), and ranks after every steady one; one whose
  bytes stop being its encoding in play is lossy. ``candidate.notes`` says what the play showed.
* **A digit no checkpoint changed is no evidence.** A ``d`` or ``n`` reading whose least
  significant byte was 0 at every checkpoint explains the drawn trailing zeros with a byte that
  may not belong to the value (a second player's score next to it); it ranks after the
  readings that need no such byte, such as a scale of 10 over the bytes before it.
* **Read where taken.** A value typed from a screen that shows an older one (a blinking score,
  a HUD drawn late) may match memory only a few frames before its checkpoint: with a
  ``history`` that can be read twice, candidates that read a typed value within ``near``
  frames of its checkpoint are kept too (:mod:`emucore.assist.value_near`), ranked after those
  that read every checkpoint where it was taken, with ``offsets`` and a note saying so.
* **The copy that changes first.** Two candidates in disjoint bytes that read every checkpoint
  are two copies of the value (:mod:`emucore.assist.value_copies`): in the play, one that
  follows the other some frames later, or keeps its value when the other falls back (a top
  score in a new game), ranks after it, family and all; the pair is an ambiguity of kind
  ``"copies"`` unless the play showed a top score. A top score is no yardstick of how often
  the value changes (it is calmer than the score it keeps).
* **Every class first.** The best steady, exact candidate of each (encoding, scale) class is
  listed before any family's second member, so a ``>n6`` x10 is not crowded out by the scale-1
  readings of the same digits.

Pairs of top candidates that read the same at every checkpoint but decode the memory
differently are in the result's ``ambiguities``, with a shown value that would separate them
(:mod:`emucore.assist.value_ambiguity`); a big-endian read ending in the value's low byte and
the little-endian read starting there are named as a byte-order pair
(:func:`~emucore.assist.value_candidates.byte_orders`). Copies of the best candidate come first,
then byte-order pairs, then the other readings, then other copies.

Signed types are tried only when a shown value is negative (otherwise they read the same as
their unsigned twins). The emulator is left as it was found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from emucore.assist.value_ambiguity import ambiguities
from emucore.assist.value_candidates import Shown, ValueCandidate, ValueCandidates
from emucore.assist.value_near import NEAR, Window, near_matches, windows
from emucore.assist.value_ranking import SCALES, Group, ranked
from emucore.search.decode import decode_scratch, to_values
from emucore.search.history import segments
from emucore.search.plausible import preferences
from emucore.search.snapshot import Snapshot
from emucore.search.state_snapshots import StateLike, same_layout, snapshots_of
from emucore.search.typelist import SearchType, search_type, system_types

MAX_BIAS = 3
LIMIT = 20


def solve_value(
    emulator: Any,
    checkpoints: Sequence[tuple[StateLike, int | str]],
    history: Any = None,
    *,
    types: Iterable[str] | None = None,
    max_bias: int = MAX_BIAS,
    limit: int = LIMIT,
    near: int = NEAR,
    nearby: Sequence[Sequence[tuple[int, StateLike]]] | None = None,
    screen: Any = None,
) -> ValueCandidates:
    """The variables that read what the screen showed at each checkpoint, best first.

    Args:
        emulator: The :class:`~emucore.host.emulator.Emulator` the states belong to (left as it was).
        checkpoints: Two or more ``(state, shown)`` pairs: ``state`` from ``emulator.get_state()``
            (or a :class:`~emucore.search.Snapshot`), ``shown`` the value on screen, as an int
            or as the digits drawn (``"000120"``, leading spaces count as drawn places).
        history: The play around the checkpoints, to check the candidates on: a
            :class:`~emucore.movie.Movie` or ``.bk2`` path replayed from its start (or a list
            of them), or states / snapshots in the order they were taken (every frame or every
            few frames). None: the checkpoints only.
        types: Type strings to try; default: every size, byte order and encoding of the system.
        max_bias: The largest ``|bias|`` tried (at scale 1 only).
        limit: At most this many candidates.
        near: Frames either side of each checkpoint where a typed value may be read instead
            (a stale screen, :mod:`emucore.assist.value_near`); needs ``history`` that can be
            read twice. 0: only where each checkpoint was taken.
        nearby: Instead of finding them in ``history``: for each checkpoint, ``(frames from it,
            state)`` of the play around it (a caller that knows the frames, as the studio's
            rewind does; at its granularity).
        screen: A :class:`~emucore.assist.ScreenNumber` that reads the value off the screen: the
            states of ``history`` (states, not movies) are read and a checkpoint is added at each
            change of the number read (:func:`~emucore.assist.screen_play.screen_checkpoints`), so
            ``checkpoints`` may then be empty. The result's ``screen_read`` says how many frames
            were read.

    Returns:
        Up to ``limit`` candidates ranked as the module docstring says (empty when none fits),
        a list with ``ambiguities`` (:class:`~emucore.assist.value_candidates.Ambiguity`) and
        ``played_frames`` (the frames of ``history`` read).

    Raises:
        ValueError: fewer than two checkpoints, a shown value that is not a number, a negative
            value no signed type can hold, or a state the core rejects (another core's).
    """
    if isinstance(checkpoints, (str, bytes)) or not isinstance(checkpoints, Sequence):
        raise ValueError("checkpoints is a list of (state, shown) pairs")
    read = None
    if screen is not None:
        read = _screen_read(emulator, screen, history)
        checkpoints = [*checkpoints, *read.checkpoints]
    pairs = []
    for index, pair in enumerate(checkpoints):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"checkpoint {index} is not a (state, shown) pair")
        pairs.append(pair)
    if len(pairs) < 2:
        said = f" ({read.describe()})" if read is not None else ""
        raise ValueError(f"solve_value needs at least two checkpoints, got {len(pairs)}{said}")
    if int(max_bias) < 0 or int(limit) < 1:
        raise ValueError("max_bias must be >= 0 and limit >= 1")
    shown = Shown.parse([s for _, s in pairs])
    trial = _trial_types(emulator, types, shown)
    snaps = list(snapshots_of(emulator, [state for state, _ in pairs], "checkpoint"))
    same_layout(snaps, "checkpoint")
    around = windows(emulator, history, snaps, int(near)) if nearby is None else _given(emulator, nearby, snaps)
    pieces = segments(emulator, history)
    matches = _matches(snaps, trial, shown, int(max_bias))
    if around is not None:
        matches += _near_groups(snaps, around, trial, shown, matches)
    found, frames, copies = ranked(matches, snaps, shown, preferences(emulator), int(limit), pieces)
    # the copies of the best candidate first, then two readings of the same bytes, then other copies
    best = [c for c in copies if found and found[0] in (c.first, c.second)]
    others = [c for c in copies if c not in best]
    return ValueCandidates(found, best + ambiguities(found, snaps, shown.values) + others, frames, read)


def _screen_read(emulator: Any, screen: Any, history: Any) -> Any:
    from emucore.assist.screen_number import ScreenNumber
    from emucore.assist.screen_play import screen_checkpoints
    from emucore.search.movies import is_movie

    if not isinstance(screen, ScreenNumber):
        raise ValueError(f"screen must be a ScreenNumber, not {type(screen).__name__}")
    if history is None or is_movie(history) or isinstance(history, (bytes, str)) or (
            isinstance(history, Sequence) and any(is_movie(item) for item in history)):
        raise ValueError("screen= reads the pictures of history's states: give history as states in play order")
    if iter(history) is history:
        history = list(history)  # a one-pass iterator: read twice, for the screen and then for the play
    return screen_checkpoints(emulator, screen, history)


def _solver_texts(system: object) -> list[str]:
    texts = ["|u1", "|d1", "|n1"]
    texts += [f"{o}{k}{w}" for w in (2, 3, 4) for k in "ud" for o in "<>"]
    texts += [f"{o}{k}4" for k in "ud" for o in ("><", "<>")]
    texts += [f"{o}n{w}" for w in range(2, 9) for o in "<>"]
    return texts + [t for t in system_types(system) if "i" not in t[-2:-1]]


def _trial_types(emulator: Any, types: Iterable[str] | None, shown: Shown) -> list[SearchType]:
    texts = list(types) if types is not None else _solver_texts(getattr(emulator, "system", None))
    parsed = [search_type(t) for t in texts]
    if types is None and min(shown.values) < 0:
        parsed = [search_type(st.text[:-2] + "i" + st.text[-1]) for st in parsed if st.digits == "u"] + parsed
    lowest = min(shown.values)
    if lowest < 0 and not any(st.signed and st.bounds[0] <= lowest for st in parsed):
        raise ValueError(f"shown value {lowest} is negative and no signed type tried can hold it")
    seen: dict[tuple, SearchType] = {}
    for st in parsed:
        seen.setdefault((st.key, st.signed), st)
    return list(seen.values())


def _given(emulator: Any, nearby: Sequence[Sequence[tuple[int, StateLike]]], snaps: list[Snapshot]) -> list[Window]:
    if len(nearby) != len(snaps):
        raise ValueError(f"nearby has {len(nearby)} entries for {len(snaps)} checkpoints")
    out = []
    for index, pairs in enumerate(nearby):
        offsets = [int(offset) for offset, _ in pairs]
        states = list(snapshots_of(emulator, [state for _, state in pairs], f"frame near checkpoint {index}"))
        same_layout([snaps[0], *states], "frame near a checkpoint")
        out.append(sorted(((o, s) for o, s in zip(offsets, states) if o), key=lambda p: (abs(p[0]), p[0] > 0)))
    return out


def _near_groups(snaps: list[Snapshot], around: list[Window], trial: list[SearchType], shown: Shown,
                 strict: list[Group]) -> list[Group]:
    """The candidates that read the typed values only a few frames off some checkpoints (no bias)."""
    values = np.array(shown.values, dtype=np.int64)
    out = []
    for st in trial:
        for scale in SCALES:
            taken = [g.positions for g in strict if g.st == st and g.scale == scale]
            found = near_matches(snaps, around, st, scale, values,
                                 np.concatenate(taken) if taken else np.zeros(0, dtype=np.int64))
            if found is not None:
                positions, stored, offsets = found
                out.append(Group(st, scale, positions, np.zeros(len(positions), dtype=np.int64), stored, offsets))
    return out


def _matches(snaps: list[Snapshot], trial: list[SearchType], shown: Shown, max_bias: int) -> list[Group]:
    values = np.array(shown.values, dtype=np.int64)
    pivot = int(np.argmax(np.abs(values)))
    layout = snaps[0].layout
    space = decode_scratch()
    decoders = [snap.decoder(space) if i == pivot else snap.decoder() for i, snap in enumerate(snaps)]
    scales = [s for s in SCALES if s == 1 or (not (values % s).any() and values.any())]
    groups = []
    for st in trial:
        low, high = st.bounds
        full = decoders[pivot].full(*st.key)[: layout.positions]
        if st.signed:
            full = to_values(full, st.width, True)
        for scale in scales:
            spread = max_bias if scale == 1 else 0
            lo = max((int(values[pivot]) - spread + scale - 1) // scale, low)
            hi = min((int(values[pivot]) + spread) // scale, high)
            if lo > hi:
                continue
            mask = (full >= lo) & (full <= hi) if lo != hi else full == lo
            positions = np.flatnonzero(mask & layout.valid)
            if not len(positions):
                continue
            stored = np.empty((len(positions), len(snaps)), dtype=np.int64)
            stored[:, pivot] = full[positions]
            bias = values[pivot] - stored[:, pivot] * scale
            keep = np.abs(bias) <= spread
            for i, decoder in enumerate(decoders):
                if i == pivot or not keep.any():
                    continue
                read = decoder.gather(*st.key, positions)
                if st.signed:
                    read = to_values(read, st.width, True)
                stored[:, i] = read
                keep &= values[i] - stored[:, i] * scale == bias
            if keep.any():
                groups.append(Group(st, scale, positions[keep], bias[keep], stored[keep]))
    return groups


__all__ = ["ValueCandidate", "ValueCandidates", "solve_value"]
