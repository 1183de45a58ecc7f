"""A frame-skipping step's frames run in one call into C (Evaluator.update_frames, skip.c) against the
per-frame Python loop with the Python evaluator: the same observations, rewards, flags, info, totals,
frame counters and deltas, step after step and episode after episode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import emucore
from emucore.libretro.native_evaluator import NativeEvaluator

ALL = emucore.data.Integrations.ALL


def make(game: str, skip: int, pool: bool, compiled: bool, **kwargs: Any):
    env = emucore.make(game, inttype=ALL, use_restricted_actions=emucore.Actions.ALL, frame_skip=skip,
                       max_pool=pool, **kwargs)
    env.evaluator.compile = compiled  # False: the reference, frame by frame in Python
    return env


def state_of(env, step: tuple) -> tuple:
    obs, reward, terminated, truncated, info = step
    data = env.evaluator
    deltas = {name: data.measure(name, "delta") for name in data._delta_names}
    return obs.tobytes(), obs.shape, reward, terminated, truncated, info, data.total_reward(), data.frame, deltas


class Calls:
    """What Evaluator.update_frames returned, per call (None: not compiled)."""

    def __init__(self, env):
        self.runs: list[Any] = []
        update = env.evaluator.update_frames

        def counted(*args: Any, **kwargs: Any):
            run = update(*args, **kwargs)
            self.runs.append(run)
            return run

        env.evaluator.update_frames = counted


def play(game: str, skip: int, pool: bool, frames: int, *, need_mid_skip_done: bool, **kwargs: Any) -> Calls:
    """Both envs stepped in lockstep over the same random actions, resetting at done."""
    ours, reference = make(game, skip, pool, True, **kwargs), make(game, skip, pool, False, **kwargs)
    calls = Calls(ours)
    rng = np.random.default_rng(skip * 10 + pool)
    dones = mid_skip_dones = 0
    try:
        a, b = ours.reset(seed=0), reference.reset(seed=0)
        assert np.array_equal(a[0], b[0])
        step = 0
        while step * skip < frames or need_mid_skip_done and not mid_skip_dones and step * skip < 4 * frames:
            if step == 40:  # totals set from outside: a Python float (added as the Python adds it), then a float32
                ours.evaluator.totals[0] = reference.evaluator.totals[0] = 2.5
            if step == 45:
                ours.evaluator.totals[0] = reference.evaluator.totals[0] = np.float32(1.25)
            action = rng.integers(0, 2, ours.action_space.n).astype(np.int8)
            before = ours.evaluator.frame
            a, b = state_of(ours, ours.step(action)), state_of(reference, reference.step(action))
            assert a == b, f"step {step}: {[x == y for x, y in zip(a, b)]}"
            if a[3]:
                dones += 1
                mid_skip_dones += a[7] - before < skip
                ours.reset()
                reference.reset()
            step += 1
    finally:
        ours.close()
        reference.close()
    assert any(run is not None for run in calls.runs), "the frames never ran in C"
    if need_mid_skip_done:
        assert dones and mid_skip_dones, "no episode ended in the middle of a skip"
    return calls


@pytest.mark.slow  # long replays
@pytest.mark.parametrize("skip", [2, 3, 4, 5])
@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_episodes_that_end_are_the_same_as_frame_by_frame(game, skip):
    play(game, skip, skip % 2 == 0, 1800, need_mid_skip_done=True, grayscale=skip == 4,
         obs_size=(84, 84) if skip == 4 else None)
    play(game, skip, skip % 2 == 1, 300, need_mid_skip_done=False)


@pytest.mark.slow  # long replays
@pytest.mark.parametrize(("skip", "sticky"), [(1, 0.5), (2, 0.25), (4, 0.5)])
@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_sticky_frames_are_the_same_as_frame_by_frame(game, skip, sticky):
    """The previous buttons for a step's first frame, then the new ones, switched in C as in Python."""
    play(game, skip, True, 1200, need_mid_skip_done=skip > 1, sticky_prob=sticky)


@pytest.mark.parametrize(("skip", "pool", "kwargs"), [
    (2, True, {"grayscale": True}),
    (3, False, {}),
    (4, True, {"grayscale": True, "obs_size": (84, 84)}),
    (5, True, {"obs_size": (100, 120)}),
    (4, False, {"obs_type": emucore.Observations.RAM}),
])
def test_airstriker_is_the_same_as_frame_by_frame(airstriker, skip, pool, kwargs):
    play("Airstriker-Genesis-v0", skip, pool, 600, need_mid_skip_done=False, **kwargs)


@pytest.mark.parametrize("sticky", [0.0, 0.5])
@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_a_stale_memory_location_stops_before_evaluating(game, sticky, monkeypatch):
    """Bound to memory elsewhere (as after the core moved it or sent new maps), C runs one frame and leaves
    it unevaluated; the Python evaluates it and runs the rest: still the same steps."""
    run_frames = NativeEvaluator.run_frames
    seen: list[tuple[str, tuple[int, int, bool]]] = []

    def stale(self, session, frames, hold, location=None, switch=None):
        ram, size, maps = session.memory_location
        kind = ("ram", "maps", "as it is")[len(seen) % 3]
        where = {"ram": (ram + 4096, size, maps), "maps": (ram, size, maps + 1)}.get(kind)
        try:
            return run_frames(self, session, frames, hold, where, switch)
        finally:
            seen.append((kind, self.ran()))

    monkeypatch.setattr(NativeEvaluator, "run_frames", stale)
    play(game, 4, True, 1200, need_mid_skip_done=False, grayscale=True, sticky_prob=sticky)
    ran = {kind: [result for k, result in seen if k == kind] for kind in ("ram", "maps", "as it is")}
    assert ran["maps"] and all(result == (1, 0, False) for result in ran["maps"])
    assert all(result[1] == result[0] for result in ran["as it is"])
    # SYSTEM_RAM is the memory without maps (genesis_plus_gx); with maps (fceumm) where it is does not matter
    assert all((result == (1, 0, False)) == game.endswith("Genesis") for result in ran["ram"])


def test_the_host_counts_memory_maps():
    """fceumm sends memory maps when its game loads; genesis_plus_gx sends none."""
    for game, maps in (("StudioDemo-Nes", True), ("StudioDemo-Genesis", False)):
        env = emucore.make(game)
        try:
            session = env.em.session
            assert (session.memory_location[2] > 0) == maps == bool(session.memory_maps)
            assert session.memory_location[:2] != (0, 0)
        finally:
            env.close()


def test_one_frame_observed_gray_is_the_same_as_frame_by_frame():
    play("StudioDemo-Genesis", 1, False, 600, need_mid_skip_done=False, grayscale=True, obs_size=(84, 84))


def test_update_frames_sums_every_players_rewards_as_python_floats():
    """Player 2 (not scored here) sums its reward at every frame too, as the env's multi_rewards loop does."""
    ours, reference = make("StudioDemo-Genesis", 4, True, True), make("StudioDemo-Genesis", 4, True, False)
    try:
        ours.reset(seed=0)
        reference.reset(seed=0)
        ours.evaluator.rewards[1] = reference.evaluator.rewards[1] = 0.1  # what no evaluation writes stays each frame's
        for _ in range(100):
            ours.em.set_button_mask(0b1000_0001)
            reference.em.set_button_mask(0b1000_0001)
            ran, evaluated, sums = ours.evaluator.update_frames(ours.em.session, 4, None, players=2)
            expected = None
            for _ in range(evaluated):
                reference.em.step()
                reference.data.update_ram()
                rewards = [reference.data.current_reward(p) for p in range(2)]
                expected = rewards if expected is None else [a + b for a, b in zip(expected, rewards)]
            mine, theirs = ours.evaluator, reference.evaluator
            assert (ran, sums, mine.frame, mine.done) == (evaluated, expected, theirs.frame, theirs.done)
            if ours.evaluator.done:
                break
    finally:
        ours.close()
        reference.close()


def test_frames_evaluated_before_an_exception_are_counted(monkeypatch):
    """What a callback raised comes out of the call after the frames before it: they stay evaluated."""
    ours, reference = make("StudioDemo-Genesis", 4, True, True), make("StudioDemo-Genesis", 4, True, False)
    try:
        ours.reset(seed=0)
        reference.reset(seed=0)
        session = ours.em.session
        call = session.call

        def raising(function, *args):
            call(function, *args)
            raise RuntimeError("a callback raised")

        monkeypatch.setattr(session, "call", raising)
        with pytest.raises(RuntimeError, match="a callback raised"):
            ours.evaluator.update_frames(session, 3, None)
        for _ in range(3):
            reference.em.step()
            reference.data.update_ram()
        monkeypatch.undo()
        assert ours.evaluator.frame == reference.evaluator.frame
        assert ours.data.total_reward() == reference.data.total_reward()
        assert ours.evaluator.info_after_update() == reference.evaluator.info_after_update()
        assert ours.em.frame_count == reference.em.frame_count
        assert np.array_equal(ours.em.get_screen(), reference.em.get_screen())
    finally:
        ours.close()
        reference.close()
