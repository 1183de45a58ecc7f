"""Every ``retro.X`` module path of stable-retro 1.0.1 resolves on emucore under the alias: the table of
modules with another home here (``retro.retro_env``, ``retro._retro``, ``retro.import``, ``retro.scripts``),
``retro._retro``'s names on working classes, and the compatibility repro scripts.

The alias is installed in subprocesses only, so this process keeps its own ``sys.modules``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import emucore
from emucore.paths import integrations_dir
from emucore.retro.alias import emucore_name
from tests.conftest import ROOT, airstriker_folder, require_core

REPROS = ROOT.parent / "shared" / "repros"


def run_python(code: str) -> None:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=240, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_renamed_modules_map_to_their_emucore_homes():
    assert emucore_name("retro") == "emucore"
    assert emucore_name("retro.data") == "emucore.data"
    assert emucore_name("retro.testing.tools") == "emucore.testing.tools"
    assert emucore_name("retro.retro_env") == "emucore.env.retro_env"
    assert emucore_name("retro._retro") == "emucore.retro.native"
    assert emucore_name("retro.import") == "emucore.cli.import_roms"
    assert emucore_name("retro.scripts") == "emucore.cli"
    assert emucore_name("retro.scripts.import_path") == "emucore.cli.import_roms"
    assert emucore_name("retro.scripts.playback_movie") == "emucore.cli.playback"
    assert emucore_name("retro.import_x") == "emucore.import_x"  # a prefix of a name is no match


def test_the_old_module_names_warn_and_name_their_new_homes():
    run_python("""
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import emucore.retro_alias, emucore.retro_native
        assert [str(w.message) for w in caught if w.category is DeprecationWarning] == [
            "emucore.retro_alias is emucore.retro.alias now", "emucore.retro_native is emucore.retro.native now"]
    """)


def test_every_stable_retro_module_path_imports_under_the_alias(tmp_path):
    """Through the old name emucore.retro_alias, after stable-retro's own ``retro`` package was imported."""
    run_python(f"""
        import importlib, warnings
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import retro  # stable-retro's compatibility package, where installed: install() replaces it
        except ImportError:
            pass
        import emucore.retro_alias, emucore.retro.alias
        assert emucore.retro_alias.install is emucore.retro.alias.install
        emucore.retro_alias.install()
        import retro, retro.data, retro.enums, retro.examples, retro.scripts, retro._retro, retro.testing
        import retro.retro_env, retro.scripts.import_path, retro.scripts.playback_movie, retro.examples.discretizer
        import emucore, emucore.cli, emucore.cli.import_roms, emucore.cli.playback, emucore.env.retro_env
        import emucore.examples.discretizer, emucore.retro.native, emucore.retro_native
        assert emucore.retro_native.GameDataGlue is emucore.retro.native.GameDataGlue  # the old name still works
        assert retro is emucore and retro.data is emucore.data and retro.enums is emucore.enums
        assert retro.testing is emucore.testing and retro.examples is emucore.examples
        assert retro.retro_env is emucore.env.retro_env and retro._retro is emucore.retro.native
        assert retro.scripts is emucore.cli and retro.scripts.import_path is emucore.cli.import_roms
        assert retro.scripts.playback_movie is emucore.cli.playback
        assert importlib.import_module("retro.import") is emucore.cli.import_roms
        from retro.retro_env import RetroEnv
        assert RetroEnv is emucore.RetroEnv
        from retro.examples.discretizer import Discretizer, SonicDiscretizer
        assert Discretizer is emucore.examples.discretizer.Discretizer
        from retro._retro import GameDataGlue, Memory, Movie, RetroEmulator, Search, core_path, data_path
        assert RetroEmulator is emucore.Emulator and Movie is emucore.Movie and GameDataGlue is retro.data.GameData
        assert core_path is emucore.core_path and data_path is emucore.data.path
        from retro.scripts import import_path
        assert import_path.main([{str(tmp_path)!r}, "--no-progress"]) == 0  # scans an empty folder
    """)


def test_retro_native_has_stable_retros_names_on_working_classes(genesis_rom):
    require_core("genesis_plus_gx")
    from emucore.retro import native as retro_native

    folder = integrations_dir() / "StudioDemo-Genesis"
    data = retro_native.GameDataGlue()  # made empty, then loaded, as stable-retro's glue is used
    assert data.load(str(folder / "data.json"), str(folder / "scenario.json")) is True
    emulator = retro_native.RetroEmulator(str(genesis_rom))
    try:
        emulator.configure_data(data)
        emulator.step()
        data.update_ram()
        assert emulator.get_screen().shape == (224, 320, 3)
        assert set(data.lookup_all()) == set(json.loads((folder / "data.json").read_text())["info"])
        assert isinstance(data.memory, retro_native.Memory)
        data.search("lives", data["lives"])
        assert isinstance(data.get_search("lives"), retro_native.Search)
    finally:
        emulator.close()
    assert retro_native.data_path() == emucore.data.path()
    assert retro_native.core_path() == emucore.core_path()


@pytest.mark.parametrize("script", ["compat-01.py", "compat-02.py"])
def test_the_compatibility_repros_pass(script):
    if not REPROS.is_dir():
        pytest.skip(f"the repro scripts ({REPROS}) are not beside this checkout")
    if script == "compat-02.py" and airstriker_folder() is None:
        pytest.skip("compat-02 needs Airstriker-Genesis-v0 (stable-retro's data)")
    result = subprocess.run([sys.executable, str(REPROS / script)], capture_output=True, text=True, timeout=240,
                            cwd=ROOT, env={**os.environ, "EMUCORE_REPO": str(ROOT)})
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "FAIL" not in output and "MISSING" not in output
