"""stable-retro's ``GameData.load(data, scen)`` and ``save(data, scen)`` on an env's ``env.data``: the files'
variables and scenario replace those in force from the next step, what is held is written back in
stable-retro's layout, and a bad file is an error naming it that changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

import emucore
from emucore.integration import IntegrationError
from emucore.paths import integrations_dir
from tests.conftest import require_core

FOLDER = integrations_dir() / "StudioDemo-Genesis"
NOOP = np.zeros(12, dtype=np.int8)


@pytest.fixture
def env():
    require_core("genesis_plus_gx")
    env = emucore.make("StudioDemo-Genesis", use_restricted_actions=emucore.Actions.ALL)
    env.reset()
    yield env
    env.close()


def test_save_writes_the_files_it_was_made_from(env, tmp_path):
    assert env.data.save(str(tmp_path / "data.json"), str(tmp_path / "scenario.json")) is True
    assert json.loads((tmp_path / "data.json").read_text()) == json.loads((FOLDER / "data.json").read_text())
    assert json.loads((tmp_path / "scenario.json").read_text()) == json.loads((FOLDER / "scenario.json").read_text())
    assert env.data.save() is True and sorted(p.name for p in tmp_path.iterdir()) == ["data.json", "scenario.json"]


def test_edited_variables_round_trip_through_save_and_load(env, tmp_path):
    env.data.set_variable("extra", {"address": 0xFF0012, "type": "|u1"})
    env.data.save(tmp_path / "data.json")
    env.data.remove_variable("extra")
    assert "extra" not in env.data.vars
    assert env.data.load(tmp_path / "data.json") is True
    assert env.data.get_variable("extra") == {"address": 0xFF0012, "type": "|u1"}
    info = env.step(NOOP)[4]
    assert info["extra"] == info["lives"]  # the same byte, read from the next step on


def test_a_loaded_scenario_is_what_the_next_steps_measure(env, tmp_path):
    scenario = {"reward": {"variables": {"lives": {"reward": 2.0, "measurement": "absolute"}}},
                "done": {"variables": {"lives": {"op": "nonzero"}}}}
    (tmp_path / "scenario.json").write_text(json.dumps(scenario))
    _, reward, terminated, _, info = env.step(NOOP)
    assert info["lives"] > 0 and not terminated
    assert env.data.load(None, str(tmp_path / "scenario.json")) is True
    _, reward, terminated, _, info = env.step(NOOP)
    assert reward == 2.0 * info["lives"] and terminated
    env.data.save(scen=tmp_path / "saved.json")
    assert json.loads((tmp_path / "saved.json").read_text()) == scenario


def test_a_bad_file_names_itself_and_changes_nothing(env, tmp_path):
    before = env.data.list_variables()
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(IntegrationError, match="broken.json"):
        env.data.load(tmp_path / "broken.json")
    with pytest.raises(IntegrationError, match="missing.json"):
        env.data.load(None, tmp_path / "missing.json")
    (tmp_path / "scenario.json").write_text(json.dumps({"reward": {"variables": {"nowhere": {"reward": 1}}}}))
    with pytest.raises(IntegrationError, match=r"scenario\.json.*nowhere"):
        env.data.load(None, tmp_path / "scenario.json")
    # data.json without the variables the scenario in force measures
    (tmp_path / "data.json").write_text(json.dumps({"info": {"x": {"address": 0xFF000A, "type": ">u2"}}}))
    with pytest.raises(IntegrationError, match="score"):
        env.data.load(tmp_path / "data.json")
    assert env.data.list_variables() == before
    _, _, terminated, _, info = env.step(NOOP)
    assert set(info) == set(before) and not terminated


def test_env_data_is_stable_retros_gamedata_over_the_envs_own_evaluator(env):
    """One GameData class serves env.data and retro.data.GameData; the env's step calls its evaluator, which
    has none of stable-retro's editing or search methods (they are the wrapper's)."""
    from emucore.scenario.evaluator import Evaluator

    assert type(env.data) is emucore.data.GameData and env.data is env.data  # made once, at first use
    assert env.data.evaluator is env.evaluator and type(env.evaluator) is Evaluator
    assert not any(hasattr(Evaluator, name) for name in ("set_variable", "search", "memory", "crop_info", "load"))
    env.data.load(str(FOLDER / "data.json"), str(FOLDER / "scenario.json"))
    assert env.data.evaluator is env.evaluator  # reloaded in place: the env's step sees the files
    with pytest.raises(TypeError, match="env.data reads the env's emulator"):
        env.em.configure_data(env.data)
