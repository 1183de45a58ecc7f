"""``suggest_done`` and ``episode_examples`` on real cores and ROMs.

Ground truth: the homebrew Genesis game's RAM map (lives at $FF0012, game_over at $FF0013) and
stable-retro's shipped Atari 2600 scenarios, whose first done frame on episodes the rule has
not seen must be the suggested rule's, in emucore and in stable-retro alike.
"""

from __future__ import annotations

import numpy as np
import pytest

import emucore
from bench.eval_assisted import episode, first_done, with_rule
from emucore import Emulator
from emucore.assist import done_rules, episode_examples, suggest_done
from emucore.search import Snapshot
from tests.conftest import GENESIS_ROM, NES_ROM

pytestmark = pytest.mark.slow  # long replays: games and episode movies played to their game over

G_LIVES, G_GAME_OVER = 0xFF0012, 0xFF0013


@pytest.fixture(scope="module")
def genesis_episode():
    """The homebrew Genesis game left alone until game over (3 lives x 300 frames): the memory
    after every frame, the last one being the first frame of the game over."""
    emulator = Emulator(GENESIS_ROM)
    for _ in range(9):
        emulator.step()
    frames = []
    while True:
        emulator.step()
        frames.append(Snapshot.capture(emulator.memory))
        if emulator.read(G_GAME_OVER, "|u1"):
            break
    yield emulator, frames
    emulator.close()


def test_a_game_over_flag_is_preferred_to_a_lives_counter_when_nothing_is_named(genesis_episode):
    emulator, frames = genesis_episode
    assert emulator.read(G_LIVES, "|u1") == 0 and len(frames) > 850
    variables, done = suggest_done(emulator, frames[:-1], frames[-1:])
    assert variables == {"gameover": {"address": G_GAME_OVER, "type": "|u1"}}
    assert done == {"variables": {"gameover": {"op": "nonzero"}}}
    rules = [r.tests[0] for r in done_rules(emulator, frames[:-1], frames[-1:])]
    assert (G_LIVES, "zero") in [(t.address, t.op) for t in rules]  # the lives counter is an alternative


def test_the_integrators_own_variable_is_used_by_its_name(genesis_episode):
    emulator, frames = genesis_episode
    data = {"info": {"lives": {"address": G_LIVES, "type": "|u1"}, "x": {"address": 0xFF000A, "type": ">u2"}}}
    variables, done = suggest_done(emulator, frames[:-1], frames[-1:], data=data)
    assert variables == {} and done == {"variables": {"lives": {"op": "zero"}}}


def test_a_variable_with_a_mask_is_read_with_it(genesis_episode):
    emulator, frames = genesis_episode
    data = {"flags": {"address": G_LIVES, "type": ">u2", "mask": 0x00FF}}  # the game_over byte alone
    variables, done = suggest_done(emulator, frames[:-1], frames[-1:], data=data)
    assert variables == {} and done == {"variables": {"flags": {"op": "nonzero"}}}


def test_a_rule_that_would_fire_before_the_game_over_is_not_suggested(stable_atari, tmp_path):
    """Frostbite's lives reach 0 at the start of the last life, long before the game ends: the
    frames before the game over rule out ``lives zero`` alone, and the rule needs two tests."""
    env = stable_atari("Frostbite")
    episodes = [episode(env, seed) for seed in range(4)]
    assert all(snaps for snaps, _ in episodes)
    alive = [s for snaps, _ in episodes[:3] for s in snaps[:-1]]
    over = [snaps[-1] for snaps, _ in episodes[:3]]
    lives = env.unwrapped.data.variables["lives"].address
    assert any(s.read(lives, "|u1") == 0 for s in alive)
    variables, done = suggest_done(env.unwrapped.em, alive, over)
    assert done["condition"] == "all" and len(done["variables"]) == 2
    name = env.unwrapped.gamename
    folder = with_rule(tmp_path / name, variables, done, tmp_path / "custom" / name)
    snaps, actions = episodes[3]
    assert first_done(emucore.make(str(folder)), actions) == len(snaps)


@pytest.mark.parametrize("game", ["Breakout", "AirRaid"])
def test_episode_movies_give_a_rule_that_fires_where_the_shipped_one_does(stable_atari, tmp_path, game):
    """Two recorded episodes (``record=``) are enough; on a third, held-out one the rule fires at
    the shipped frame in emucore and in stable-retro."""
    retro = pytest.importorskip("stable_retro")
    env = stable_atari(game)
    folder = tmp_path / f"{game}-Atari2600-v0"  # where stable_atari put the integration
    movies = tmp_path / "movies"
    movies.mkdir()
    recorder = emucore.make(str(folder), record=str(movies))
    episodes = [episode(recorder, seed) for seed in range(3)]
    assert all(snaps for snaps, _ in episodes)
    recorder.close()
    recorded = sorted(movies.glob("*.bk2"))[:2]
    examples = episode_examples(env.unwrapped.em, recorded)
    assert len(examples.over) == 2 and len(examples.alive) == sum(len(s) for s, _ in episodes[:2])
    assert np.array_equal(examples.over[0].buf, episodes[0][0][-1].buf)
    variables, done = suggest_done(env.unwrapped.em, examples.alive, examples.over)
    rule_folder = with_rule(folder, variables, done, tmp_path / "custom" / folder.name)
    snaps, actions = episodes[2]
    assert first_done(emucore.make(str(rule_folder)), actions) == len(snaps)
    retro.data.Integrations.add_custom_path(str(rule_folder.parent))
    theirs = retro.make(rule_folder.name, inttype=retro.data.Integrations.CUSTOM_ONLY, render_mode=None)
    assert first_done(theirs, actions) == len(snaps)


def test_state_bytes_work_and_leave_the_emulator_as_it_was():
    """The NES homebrew game (lives at 19, game_over at 18): states every 10th frame and the last
    20 before the game over are the alive examples."""
    emulator = Emulator(NES_ROM)
    try:
        states = []
        while not emulator.read(18, "|u1"):
            emulator.step()
            states.append(emulator.get_state())
        alive = states[:-21:10] + states[-21:-1]
        before = emulator.get_state()
        data = {"lives": {"address": 19, "type": "|u1"}}
        named = suggest_done(emulator, iter(alive), states[-1:], data=data)  # a one-shot iterator will do
        assert named == ({}, {"variables": {"lives": {"op": "zero"}}})
        assert suggest_done(emulator, alive, states[-1:]) == (
            {"gameover": {"address": 18, "type": "|u1"}}, {"variables": {"gameover": {"op": "nonzero"}}})
        assert emulator.get_state() == before
    finally:
        emulator.close()


def test_three_tests_when_no_two_separate_the_examples(genesis_episode):
    """Memory that differs only in three bytes, all 1 when over and never all 1 while alive."""
    emulator, frames = genesis_episode
    base = frames[0]
    flags = (0xFF0100, 0xFF0102, 0xFF0104)

    def memory(*bits: int) -> Snapshot:
        buf = base.buf.copy()
        buf[base.layout.positions_of(np.array(flags))] = bits
        return Snapshot(base.layout, buf)

    alive = [memory(*bits) for bits in ((1, 1, 0), (1, 0, 1), (0, 1, 1), (0, 0, 0), (1, 0, 0))]
    over = [memory(1, 1, 1)]
    variables, done = suggest_done(emulator, alive, over)
    assert done["condition"] == "all" and len(done["variables"]) == 3
    assert sorted(v["address"] for v in variables.values()) == list(flags)
    assert done_rules(emulator, alive, over, max_terms=2) == []


def test_no_rule_when_an_over_state_is_also_alive(genesis_episode):
    emulator, frames = genesis_episode
    assert done_rules(emulator, frames, frames[-1:]) == []
    with pytest.raises(ValueError, match="no rule of up to 3 tests"):
        suggest_done(emulator, frames, frames[-1:])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda e, f: suggest_done(e, f[:-1], []), "at least one over state"),
        (lambda e, f: suggest_done(e, [], f[-1:]), "at least one alive state"),
        (lambda e, f: suggest_done(e, f[:-1], e.get_state()), "over is a list of states"),
        (lambda e, f: suggest_done(e, f[:-1], [b"junk"]), "over state 0:"),
        (lambda e, f: suggest_done(e, f[:-1], f[-1:], data={"x": {"type": "|u1"}}), "'x' needs an integer address"),
        (lambda e, f: suggest_done(e, f[:-1], f[-1:], data={"x": {"address": 1, "type": "?"}}), "'x'"),
        (lambda e, f: suggest_done(e, f[:-1], f[-1:], max_terms=4), "max_terms must be 1 to 3"),
        (lambda e, f: episode_examples(e, [], margin=0), "at least one movie"),
        (lambda e, f: episode_examples(e, np.zeros((3, 1)), margin=-1), "margin"),
        (lambda e, f: episode_examples(e, np.zeros((3, 1)), margin=2), "needs 4"),
    ],
)
def test_bad_arguments_get_a_clear_value_error(genesis_episode, call, message):
    emulator, frames = genesis_episode
    before = emulator.get_state()
    with pytest.raises(ValueError, match=message):
        call(emulator, frames)
    assert emulator.get_state() == before


def test_a_state_of_another_core_names_the_example(genesis_episode):
    emulator, frames = genesis_episode
    nes = Emulator(NES_ROM)
    try:
        with pytest.raises(ValueError, match="alive state 0: .*state"):
            suggest_done(emulator, [nes.get_state()], [emulator.get_state()])
    finally:
        nes.close()
