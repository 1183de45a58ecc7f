"""make()'s and RetroVectorEnv's counts beyond what the C code holds are a ValueError naming the argument and
its range, not a bare OverflowError from cffi; the largest values that fit are accepted."""

from __future__ import annotations

import numpy as np
import pytest

import emucore
from emucore.env import RetroVectorEnv
from emucore.env.frame_skip import FRAME_SKIP_MAX, STEP_LIMIT_MAX

GAME = "StudioDemo-Genesis"


def test_the_limits_are_those_of_the_c_types():
    assert np.iinfo(np.int32).max == FRAME_SKIP_MAX and np.iinfo(np.int64).max == STEP_LIMIT_MAX


@pytest.mark.parametrize("build", [lambda **kw: emucore.make(GAME, **kw),
                                   lambda **kw: RetroVectorEnv(GAME, 2, num_threads=1, **kw)],
                         ids=["make", "RetroVectorEnv"])
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"frame_skip": 2**31}, r"frame_skip must be .* from 1 to 2147483647"),
    ({"frame_skip": 2**64}, r"frame_skip must be .* from 1 to 2147483647"),
    ({"max_episode_steps": 2**63}, r"max_episode_steps must be .* from 1 to 9223372036854775807"),
    ({"max_episode_steps": np.uint64(2**63)}, r"max_episode_steps must be .* from 1 to 9223372036854775807"),
])
def test_counts_past_the_c_types_are_a_value_error_naming_them(build, kwargs, named):
    with pytest.raises(ValueError, match=named):
        build(**kwargs)


def test_the_largest_step_limit_steps():
    env = emucore.make(GAME, max_episode_steps=STEP_LIMIT_MAX)
    try:
        env.reset(seed=0)
        assert env.step(env.action_space.sample())[3] is False  # not truncated
    finally:
        env.close()
    vector = RetroVectorEnv(GAME, 2, num_threads=1, max_episode_steps=np.int64(STEP_LIMIT_MAX))
    try:
        vector.reset(seed=0)
        assert not vector.step(vector.action_space.sample())[3].any()
    finally:
        vector.close()


def test_the_largest_frame_skip_is_accepted():
    emucore.make(GAME, frame_skip=FRAME_SKIP_MAX).close()
    RetroVectorEnv(GAME, 2, num_threads=1, frame_skip=np.int32(FRAME_SKIP_MAX)).close()
