"""``suggest_done`` on the recorded play: every frame before a game over is alive, rules are
ranked by how robust their values are, and thin evidence is said out loud.

Ground truth: the homebrew Genesis game's RAM map (homebrew/genesis/README.md): score at
$FF0000 (``>u4``), lives at $FF0012, game_over at $FF0013; a life is lost every 300 frames.
"""

from __future__ import annotations

import pytest

from emucore import Emulator
from emucore.assist import done_rules, suggest_done
from emucore.operations import Operation
from emucore.search import Snapshot
from tests.conftest import GENESIS_ROM

pytestmark = pytest.mark.slow  # long replays: episode movies played to their game over

G_SCORE, G_LIVES, G_GAME_OVER = 0xFF0000, 0xFF0012, 0xFF0013
G_B = 1 << 0
DATA = {"info": {"score": {"address": G_SCORE, "type": ">u4"}, "lives": {"address": G_LIVES, "type": "|u1"}}}


@pytest.fixture(scope="module")
def scoring_episode():
    """B held from the start to the game over (the score grows every frame): the memory after
    every frame, the last one the first frame of the game over; then 3 frames of game over."""
    emulator = Emulator(GENESIS_ROM)
    for _ in range(9):
        emulator.step()
    emulator.set_button_mask(G_B)
    frames = []
    while not frames or not frames[-1].read(G_GAME_OVER, "|u1"):
        emulator.step()
        frames.append(Snapshot.capture(emulator.memory))
    after = []
    for _ in range(3):
        emulator.step()
        after.append(Snapshot.capture(emulator.memory))
    yield emulator, frames, after
    emulator.close()


def test_a_flag_of_the_game_beats_an_equal_on_the_integrators_score(scoring_episode):
    """Four alive marks and one game over: the score (a variable of the integrator) equals its
    game-over value only there, but it takes a new value at every mark; the game's own flag,
    which never changed while alive, is offered before it (four marks cannot rule out every
    byte that happened to be 0 at each: the timer's high byte is one), and the thin evidence is
    said."""
    emulator, frames, _ = scoring_episode
    marks = [frames[i] for i in (50, 250, 450, 800)]
    rules = done_rules(emulator, marks, frames[-1:], data=DATA)
    described = [rule.describe() for rule in rules]
    score_rule = next(i for i, text in enumerate(described) if text.startswith("score equal"))
    flag_rule = next(i for i, rule in enumerate(rules) if rule.tests[0].address == G_GAME_OVER)
    assert flag_rule < score_rule and rules[0].tests[0].tier == 0
    assert rules[score_rule].tests[0].tier == 2 and any("took" in w for w in rules[score_rule].warnings)
    assert "one game over seen" in rules.warnings[0]
    assert any("only 4 alive frames" in w for w in rules.warnings)


def test_episodes_make_every_frame_before_the_game_over_alive(scoring_episode):
    """Marks that all come before the first death allow ``lives not-equal 3``, which would end
    the episode at the first death; the whole episode rules it out: the rule offered is false
    on every frame before the game over."""
    emulator, frames, _ = scoring_episode
    marks = frames[10:250:40]
    from_marks = [rule.describe() for rule in done_rules(emulator, marks, frames[-1:], data=DATA)]
    assert "lives not-equal 3" in from_marks or "lives less-than 3" in from_marks
    suggestion = suggest_done(emulator, episodes=[frames], data=DATA)
    variables, done = suggestion
    assert variables == {} and done == {"variables": {"lives": {"op": "zero"}}}
    for rule in done_rules(emulator, episodes=[frames], data=DATA):
        fires = [all(_true(t, snap) for t in rule.tests) for snap in frames]
        assert fires.index(True) == len(frames) - 1, rule.describe()
    assert suggestion.warnings == ["one game over seen: record another episode that ends in a game over"]


def test_ops_are_plain_strings_as_in_scenario_json(scoring_episode):
    emulator, frames, _ = scoring_episode
    _, done = suggest_done(emulator, episodes=[frames])
    assert all(type(spec["op"]) is str for spec in done["variables"].values())


def test_a_rule_true_in_the_margin_before_the_mark_says_how_early_it_fires(scoring_episode):
    """The game over marked 3 frames late: with a margin of 3 the flag rule is still offered
    first, with a warning that it fires 3 frames before the mark."""
    emulator, frames, after = scoring_episode
    episode = frames + after
    suggestion = suggest_done(emulator, episodes=[episode], margin=3, data=DATA)
    assert suggestion.rule.early == 3
    assert suggestion.rule.tests[0].address in (G_GAME_OVER, G_LIVES)
    assert any("true 3 frame(s) before the marked game over of episode 0" in w for w in suggestion.warnings)
    with pytest.raises(ValueError, match="episode 0 has 2 frames; with margin 3 it needs 5"):
        suggest_done(emulator, episodes=[episode[:2]], margin=3)


def _true(test, snap: Snapshot) -> bool:
    return bool(Operation(test.op).compute(snap.read(test.address, test.type), test.reference))
