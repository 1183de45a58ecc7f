"""``gymnasium.make("emucore/...")`` works in an interpreter that never imported emucore."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

FRESH = """
import json, sys
assert not any(m == "emucore" or m.startswith("emucore.") for m in sys.modules), "emucore imported at start"
import gymnasium
env = gymnasium.make(sys.argv[1])
obs, info = env.reset(seed=0)
obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
print(json.dumps({"shape": list(obs.shape), "game": env.unwrapped.gamename}))
env.close()
"""


def run_fresh(env_id: str, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", FRESH, env_id], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, cwd=os.path.expanduser("~"))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("game", "shape"), [("StudioDemo-Genesis", [224, 320, 3]), ("StudioDemo-Nes", [224, 240, 3])])
def test_make_in_a_fresh_interpreter(game, shape):
    assert run_fresh(f"emucore/{game}") == {"shape": shape, "game": game}


def test_studio_integrations_are_ids_in_a_fresh_interpreter(tmp_path, ale_rom, monkeypatch):
    from studio.model.play.session import Session

    data = tmp_path / "studio-data"
    monkeypatch.setenv("RETRO_STUDIO_DATA", str(data))
    session = Session(ale_rom("pong", "Video Olympics (1977).a26"))
    session.emulator.close()
    assert session.folder == data / "integrations" / "VideoOlympics-Atari2600"
    found = run_fresh("emucore/VideoOlympics-Atari2600", RETRO_STUDIO_DATA=str(data))
    assert found == {"shape": [210, 160, 3], "game": "VideoOlympics-Atari2600"}


def test_the_hook_registers_cheaply():
    """The ids come from folder listings, not ``gymnasium.register``'s all-pairs checks."""
    import gymnasium

    from emucore.env.registration import register_games

    register_games()
    spec = gymnasium.spec("emucore/StudioDemo-Nes")
    assert spec.entry_point == "emucore.env.make:make" and spec.kwargs["game"] == "StudioDemo-Nes"


def test_make_vec_builds_a_retro_vector_env_with_the_make_kwargs():
    import gymnasium
    import numpy as np

    import emucore
    from emucore.env import RetroVectorEnv

    kwargs = {"state": "Start", "frame_skip": 2, "grayscale": True, "obs_size": (84, 84), "max_episode_steps": 3}
    vector = gymnasium.make_vec("emucore/StudioDemo-Genesis", num_envs=3, vectorization_mode="vector_entry_point",
                                **kwargs)
    single = emucore.make("StudioDemo-Genesis", **kwargs)
    try:
        assert isinstance(vector, RetroVectorEnv) and vector.num_envs == 3
        assert vector.spec.id == "emucore/StudioDemo-Genesis" and vector.spec.kwargs["frame_skip"] == 2
        assert vector.single_observation_space == single.observation_space
        obs, _ = vector.reset(seed=0)
        assert np.array_equal(obs[0], single.reset(seed=0)[0])
        actions = np.zeros((3, *vector.single_action_space.shape), dtype=np.int8)
        truncations = [vector.step(actions)[3].tolist() for _ in range(3)]
        assert truncations == [[False] * 3, [False] * 3, [True] * 3]  # max_episode_steps reached every env
    finally:
        vector.close()
        single.close()
    default = gymnasium.make_vec("emucore/StudioDemo-Genesis", num_envs=2)  # Gymnasium takes the vector entry point
    default.close()
    assert type(default) is RetroVectorEnv


def test_make_vec_with_wrappers_takes_the_sync_mode():
    """Gymnasium refuses ``wrappers=`` with a vector entry point before emucore runs (as for ale-py's ids); the
    README's recipe, ``vectorization_mode="sync"``, applies them to each env."""
    import gymnasium
    import pytest

    wrappers = [gymnasium.wrappers.RecordEpisodeStatistics]
    with pytest.raises(gymnasium.error.Error, match="Cannot use `vector_entry_point` vectorization mode with the "
                                                    "wrappers argument"):
        gymnasium.make_vec("emucore/StudioDemo-Nes", 2, wrappers=wrappers)
    vector = gymnasium.make_vec("emucore/StudioDemo-Nes", 2, wrappers=wrappers, vectorization_mode="sync",
                                max_episode_steps=3)
    try:
        assert isinstance(vector, gymnasium.vector.SyncVectorEnv)
        assert all(isinstance(env, gymnasium.wrappers.RecordEpisodeStatistics) for env in vector.envs)
        vector.reset(seed=0)
        for _ in range(3):
            infos = vector.step(vector.action_space.sample())[4]
        assert infos["episode"]["l"].tolist() == [3, 3]
    finally:
        vector.close()
