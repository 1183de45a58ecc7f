"""stable-retro's Python API where its own test suite relies on it (issue 26's differences)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import emucore as retro
from emucore.paths import integrations_dir
from tests.conftest import NES_ROM

NOOP = [0] * 9  # StudioDemo-Nes: MultiBinary(9)


def test_make_looks_files_up_through_the_patchable_module_functions(tmp_path, monkeypatch):
    """stable-retro's suite replaces ``retro.data.get_romfile_path`` / ``get_file_path``; make() follows."""
    (tmp_path / "variables.json").write_text(json.dumps({"info": {"x": {"address": 0, "type": "|u1"}}}))
    asked = []

    def romfile(game, *args, **kwargs):
        asked.append(("rom", game))
        return str(NES_ROM)

    def file_path(game, file, *args, **kwargs):
        asked.append(("file", file))
        return str(tmp_path / file)  # like the suite's: a path whether or not the file exists

    monkeypatch.setattr(retro.data, "get_romfile_path", romfile)
    monkeypatch.setattr(retro.data, "get_file_path", file_path)
    env = retro.make("NoSuchGame", state=retro.State.NONE, info=str(tmp_path / "variables.json"))
    try:
        assert ("rom", "NoSuchGame") in asked and ("file", "metadata.json") in asked
        env.reset()
        assert env.step(env.action_space.sample())[4] == {"x": env.get_ram()[0]}
    finally:
        env.close()


@pytest.fixture
def nes_env():
    env = retro.make("StudioDemo-Nes")
    env.reset()
    yield env
    env.close()


def test_data_item_access_reads_and_writes_like_lookup_and_set_value(nes_env):
    data = nes_env.data
    assert data["lives"] == data.lookup_value("lives") == 3
    data["lives"] = 5
    assert data["lives"] == 5 and nes_env.step(NOOP)[4]["lives"] == 5
    data["foo"] = 1
    assert data["foo"] == 1
    nes_env.reset()
    with pytest.raises(KeyError):
        data["foo"]


def test_variables_can_be_listed_added_changed_and_removed(nes_env):
    data = nes_env.data
    listed = data.list_variables()
    assert listed["lives"] == data.get_variable("lives") == data.vars["lives"]
    assert set(listed) == set(dict(iter(data.vars)))
    lives = listed["lives"]
    data.set_variable("lives_again", {"address": lives["address"], "type": lives["type"]})
    assert "lives_again" in data.vars and data.lookup_value("lives_again") == data.lookup_value("lives")
    info = nes_env.step(NOOP)[4]
    assert info["lives_again"] == info["lives"]
    data.vars["lives_again"] = {"address": lives["address"], "type": "|u1", "mask": 1}
    assert nes_env.step(NOOP)[4]["lives_again"] == info["lives"] & 1
    del data.vars["lives_again"]
    assert "lives_again" not in nes_env.step(NOOP)[4]
    with pytest.raises(KeyError, match="lives_again"):
        data.get_variable("lives_again")


def test_editing_variables_keeps_rewards_and_deltas_exact(nes_env):
    """A variable added mid-episode recompiles the scenario; the delta history carries over."""
    twin = retro.make("StudioDemo-Nes")
    try:
        twin.reset()
        for step in range(120):
            action = nes_env.action_space.sample()
            if step == 40:
                nes_env.data.set_variable("extra", {"address": 0, "type": "|u1"})
            a, b = nes_env.step(action), twin.step(action)
            assert a[1] == b[1] and a[2] == b[2]
            assert {k: v for k, v in a[4].items() if k != "extra"} == b[4]
    finally:
        twin.close()


def test_bad_variable_edits_are_clear_errors(nes_env):
    from emucore.integration import IntegrationError

    data = nes_env.data
    with pytest.raises(IntegrationError, match="no 'type'"):
        data.set_variable("x", {"address": 1})
    with pytest.raises(IntegrationError, match="address"):
        data.set_variable("x", {"address": "one", "type": "|u1"})
    with pytest.raises(TypeError, match="must be a dict"):
        data.set_variable("x", 5)
    measured = sorted(nes_env.data.scenario.variable_names())[0]
    with pytest.raises(ValueError, match="measured by the scenario"):
        data.remove_variable(measured)
    with pytest.raises(KeyError):
        data.remove_variable("nothing")


def test_use_after_close_is_a_clear_error_catchable_as_stable_retros():
    from emucore.errors import EmulatorClosedError

    env = retro.make("StudioDemo-Nes")
    env.reset()
    env.close()
    for call in (lambda: env.step(NOOP), env.reset, env.get_ram):
        with pytest.raises(AttributeError, match="closed"):
            call()
        with pytest.raises(RuntimeError, match="closed"):
            call()
        with pytest.raises(EmulatorClosedError):
            call()
    env.close()  # closing twice is harmless


def test_import_retro_resolves_to_emucore_modules_after_install():
    import subprocess
    import sys

    code = (
        "import emucore.retro.alias; emucore.retro.alias.install()\n"
        "import retro, retro.data, retro.testing.tools, emucore, emucore.data, emucore.testing.tools\n"
        "assert retro is emucore and retro.data is emucore.data and retro.testing.tools is emucore.testing.tools\n"
        "from retro.data import Integrations\n"
        "assert Integrations is emucore.data.Integrations\n"
        "retro.data.get_file_path = lambda *a: 'patched'\n"
        "assert emucore.data.get_file_path() == 'patched'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_top_level_names_of_stable_retro_are_there():
    names = set(dir(retro))
    assert {"make", "RetroEnv", "Movie", "RetroEmulator", "core_path", "get_fbneo_rom_name", "is_fbneo_game",
            "get_core_path", "get_romfile_system", "get_system_info"} <= names
    assert retro.is_fbneo_game("StudioDemo-Nes") is False and retro.get_fbneo_rom_name("StudioDemo-Nes") is None
    assert retro.core_path()  # the folder searched first


def test_standalone_game_data_reads_files_then_evaluates_an_emulators_memory():
    """stable-retro's pattern: GameData(), RetroEmulator.configure_data(data), data.load(...), update_ram()."""

    folder = integrations_dir() / "StudioDemo-Nes"
    named = retro.data.GameData("StudioDemo-Nes")
    assert named.list_variables() == retro.data.GameData(data=str(folder / "data.json")).list_variables()
    assert named.lookup_all() == {}  # no emulator: nothing is mapped yet
    with pytest.raises(IndexError):
        named.lookup_value("lives")
    named.set_variable("extra", {"address": 0, "type": "|u1"})

    env = retro.make("StudioDemo-Nes", state=retro.State.NONE, use_restricted_actions=retro.Actions.ALL)
    data = retro.data.GameData()
    emulator = retro.RetroEmulator(str(folder / "rom.nes"))
    try:
        emulator.configure_data(data)
        emulator.step()  # as RetroEnv's construction
        assert data.load(str(folder / "data.json"), str(folder / "scenario.json")) is True
        named_bound = named
        emulator.configure_data(named_bound)
        assert "extra" in named_bound.vars  # edits made before survive configure_data
        env.reset()  # as RetroEnv.reset: a frame with no buttons, then a fresh evaluation
        emulator.step()
        data.reset()
        data.update_ram()
        rng = np.random.default_rng(5)
        for _ in range(300):
            action = rng.integers(0, 2, 9).astype(np.uint8)
            _, reward, terminated, _, info = env.step(action)
            emulator.set_button_mask(action)
            emulator.step()
            data.update_ram()
            assert list(data.lookup_all().items()) == list(info.items())
            assert data.current_reward() == reward and data.is_done() == terminated
            assert np.array_equal(emulator.get_ram()[:2048], env.get_ram()[:2048])  # the console's RAM
            if terminated:
                break
        assert data.memory.blocks and data.valid_actions() == env.data.valid_actions()
    finally:
        emulator.close()
        env.close()


def test_standalone_game_data_names_a_bad_file(tmp_path):
    from emucore.integration import IntegrationError

    bad = tmp_path / "data.json"
    bad.write_text("{ not json")
    with pytest.raises(IntegrationError, match="data.json"):
        retro.data.GameData(data=str(bad))


def test_standalone_game_data_saves_what_it_holds(tmp_path):

    folder = integrations_dir() / "StudioDemo-Nes"
    data = retro.data.GameData("StudioDemo-Nes")
    data.set_variable("extra", {"address": 5, "type": "<u2", "mask": 0xFF})
    assert data.save(str(tmp_path / "data.json"), str(tmp_path / "scenario.json")) is True
    again = retro.data.GameData(data=str(tmp_path / "data.json"), scenario=str(tmp_path / "scenario.json"))
    assert again.list_variables() == data.list_variables()
    assert json.loads((tmp_path / "scenario.json").read_text()) == json.loads((folder / "scenario.json").read_text())
