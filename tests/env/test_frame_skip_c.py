"""A frame-skipping step's frames run in one call into C (GameData.update_frames, skip.c) against the
per-frame Python loop with the Python evaluator: the same observations, rewards, flags, info, totals,
frame counters and deltas, step after step and episode after episode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import emucore
from emucore.libretro.evaluator import NativeEvaluator

ALL = emucore.data.Integrations.ALL


def make(game: str, skip: int, pool: bool, compiled: bool, **kwargs: Any):
    env = emucore.make(game, inttype=ALL, use_restricted_actions=emucore.Actions.ALL, frame_skip=skip,
                       max_pool=pool, **kwargs)
    env.data.compile = compiled  # False: the reference, frame by frame in Python
    return env


def state_of(env, step: tuple) -> tuple:
    obs, reward, terminated, truncated, info = step
    data = env.data
    deltas = {name: data.measure(name, "delta") for name in data._delta_names}
    return obs.tobytes(), obs.shape, reward, terminated, truncated, info, data.total_reward(), data.frame, deltas


class Calls:
    """What GameData.update_frames returned, per call (None: not compiled)."""

    def __init__(self, env):
        self.runs: list[Any] = []
        update = env.data.update_frames

        def counted(*args: Any, **kwargs: Any):
            run = update(*args, **kwargs)
            self.runs.append(run)
            return run

        env.data.update_frames = counted


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
                ours.data.totals[0] = reference.data.totals[0] = 2.5
            if step == 45:
                ours.data.totals[0] = reference.data.totals[0] = np.float32(1.25)
            action = rng.integers(0, 2, ours.action_space.n).astype(np.int8)
            before = ours.data.frame
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


@pytest.mark.parametrize("skip", [2, 3, 4, 5])
@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_episodes_that_end_are_the_same_as_frame_by_frame(game, skip):
    play(game, skip, skip % 2 == 0, 1800, need_mid_skip_done=True, grayscale=skip == 4,
         obs_size=(84, 84) if skip == 4 else None)
    play(game, skip, skip % 2 == 1, 300, need_mid_skip_done=False)


@pytest.mark.parametrize(("skip", "pool", "kwargs"), [
    (2, True, {"grayscale": True}),
    (3, False, {}),
    (4, True, {"grayscale": True, "obs_size": (84, 84)}),
    (5, True, {"obs_size": (100, 120)}),
    (4, False, {"obs_type": emucore.Observations.RAM}),
])
def test_airstriker_is_the_same_as_frame_by_frame(airstriker, skip, pool, kwargs):
    play("Airstriker-Genesis-v0", skip, pool, 600, need_mid_skip_done=False, **kwargs)


@pytest.mark.parametrize("game", ["StudioDemo-Genesis", "StudioDemo-Nes"])
def test_a_stale_memory_location_stops_before_evaluating(game, monkeypatch):
    """Bound to memory elsewhere (as after the core moved it or sent new maps), C runs one frame and leaves
    it unevaluated; the Python evaluates it and runs the rest: still the same steps."""
    run_frames = NativeEvaluator.run_frames
    seen: list[tuple[str, tuple[int, int, bool]]] = []

    def stale(self, session, frames, hold, location=None):
        ram, size, maps = session.memory_location
        kind = ("ram", "maps", "as it is")[len(seen) % 3]
        where = {"ram": (ram + 4096, size, maps), "maps": (ram, size, maps + 1)}.get(kind)
        try:
            return run_frames(self, session, frames, hold, where)
        finally:
            seen.append((kind, self.ran()))

    monkeypatch.setattr(NativeEvaluator, "run_frames", stale)
    play(game, 4, True, 1200, need_mid_skip_done=False, grayscale=True)
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
