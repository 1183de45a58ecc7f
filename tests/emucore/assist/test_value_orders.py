"""``solve_value`` on byte order and width ties: readings that agree until the value needs a
second byte. Ground truth: the NES homebrew's bonus trap (homebrew/nes/README.md: a little-endian
binary count of hundreds at $30, drawn with "00") and stable-retro's Phoenix integration (its
score a little-endian BCD ``<d3`` at 0xc7) with ale-py's ROM.
"""

from __future__ import annotations

from emucore.assist import solve_value
from emucore.assist.value_candidates import byte_orders
from studio.model.search.provisional import explain
from tests.conftest import NES_ROM
from tests.emucore.assist.test_assisted_traps import BONUS, FRAME, NES_SELECT, keys, play, started


def bonus_checkpoints(nes, history):
    checkpoints = []
    for frames in (3, 2, 2, 1):  # counts 3, 5, 7, 8: the screen shows 000300 .. 000800
        play(nes, NES_SELECT, frames, history)
        checkpoints.append((nes.get_state(), f"{100 * nes.read(BONUS, '<u2'):06d}"))
    return checkpoints


def test_a_one_byte_reading_ranks_behind_the_wider_one_that_reads_the_same():
    """Typed as numbers (300 .. 800): one byte x100 reads them, and so does the 2-byte count
    whose high byte stayed 0. A count of hundreds is seldom one byte: the wider one first."""
    with started(NES_ROM, FRAME, "<u2") as nes:
        history: list[bytes] = []
        checkpoints = [(s, int(v)) for s, v in bonus_checkpoints(nes, history)]
        found = solve_value(nes, checkpoints, history)
    ranked = keys(found)
    assert ranked[0] == (BONUS, "<u2", 100)
    assert (BONUS, "|u1", 100) in ranked and ranked.index((BONUS, "|u1", 100)) > ranked.index((BONUS, "<u2", 100))


def test_a_big_endian_read_ending_in_the_low_byte_is_named_as_a_byte_order_pair():
    """Typed as drawn (000300 ..): BCD read big-endian over $2F-$30 ends in the count's low byte,
    as the little-endian count starts there; $2F and $31 stayed 0, so they agree below 1,000."""
    with started(NES_ROM, FRAME, "<u2") as nes:
        history: list[bytes] = []
        found = solve_value(nes, bonus_checkpoints(nes, history), history)
    assert (BONUS, "<u2", 100) in keys(found)[:3]
    pair = next(a for a in found.ambiguities if {(a.first.address, a.first.type), (a.second.address, a.second.type)}
                == {(0x2F, ">d2"), (BONUS, "<u2")})
    words = byte_orders(pair.first, pair.second)
    assert words.startswith("byte order: >d2 at 0x2f is big-endian") and "<u2 at 0x30 little-endian" in words
    assert "least significant byte, 0x30" in words and words in pair.describe()
    assert pair.value == 1000
    said = explain(pair)
    assert said.startswith("can't yet tell the byte order: ") and "big-endian (>d2 at 0x2f)" in said
    assert "little-endian (<u2 at 0x30)" in said and said.endswith("type the value again once it reaches 1,000")
    # byte-order pairs come before the width-only ones
    kinds = [bool(byte_orders(a.first, a.second)) for a in found.ambiguities if a.kind == "reading"]
    assert kinds == sorted(kinds, reverse=True)


def test_phoenix_scores_below_100_name_the_byte_order_pair(stable_atari):
    """Phoenix keeps its score as little-endian BCD; two scores below 100 read the same as a
    big-endian BCD ending in its low byte. The pair is named, with "once it reaches 100"."""
    env = stable_atari("Phoenix")
    truth = env.unwrapped.data.variables["score"]
    found: dict[int, bytes] = {}
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(6000):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        if 0 < info["score"] < 100 and info["score"] not in found:
            found[info["score"]] = env.unwrapped.em.get_state()
        if len(found) == 2 or terminated or truncated:
            break
    assert len(found) == 2
    result = solve_value(env.unwrapped.em, [(found[v], f"{v:06d}") for v in sorted(found)])
    truth_key = (truth.address, truth.type)
    pair = next(a for a in result.ambiguities
                if truth_key in {(a.first.address, a.first.type), (a.second.address, a.second.type)}
                and byte_orders(a.first, a.second))
    other = pair.first if (pair.second.address, pair.second.type) == truth_key else pair.second
    assert other.type[0] == ">" and other.address + int(other.type[-1]) - 1 == truth.address
    assert explain(pair).endswith("once it reaches 100") and result.ambiguities.index(pair) <= 1
