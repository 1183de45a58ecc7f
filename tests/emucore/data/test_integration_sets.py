"""emucore.data's integration sets: the flags, the process default mask, ``paths`` (stable-retro's
names) and ``folders`` (what is searched), in lookup order."""

from __future__ import annotations

import os

import pytest

from emucore import data
from emucore.data import DefaultIntegrations, Integrations
from emucore.data.integrations import PACKAGE_SETS
from emucore.paths import integrations_dir, studio_integrations_dir

OURS = str(integrations_dir())


pytestmark = pytest.mark.usefixtures("clean_data_state")


def test_integration_values_and_names():
    assert Integrations.STABLE.value == 1 and Integrations.EXPERIMENTAL_ONLY.value == 2
    assert Integrations.CONTRIB_ONLY.value == 4
    assert Integrations.CUSTOM_ONLY.value == 8 and Integrations.ALL.value == 15
    assert Integrations.EXPERIMENTAL.value == 3 and Integrations.CONTRIB.value == 5 and Integrations.CUSTOM.value == 9
    assert str(Integrations.STABLE) == ""
    assert str(Integrations.ALL) == "all"
    assert str(Integrations.STABLE | Integrations.CONTRIB_ONLY) == "stable|contrib"
    assert str(Integrations.CUSTOM) == "stable|custom"
    assert str(Integrations.EXPERIMENTAL) == "stable|experimental"


def test_unnamed_combinations_are_allowed():
    six = Integrations.CONTRIB_ONLY | Integrations.EXPERIMENTAL_ONLY  # ValueError in stable-retro on 3.11
    assert six.value == 6 and str(six) == "contrib|experimental"
    eleven = Integrations.EXPERIMENTAL | Integrations.CUSTOM_ONLY
    assert eleven.value == 11 and Integrations(11) == eleven
    assert (~Integrations.STABLE).value == 14
    assert Integrations.STABLE in Integrations.CUSTOM and Integrations.CONTRIB_ONLY not in Integrations.CUSTOM
    data.add_integrations(six)
    assert Integrations.DEFAULT.resolve().value == 7


def test_default_resolves_to_the_process_mask(tmp_path):
    assert Integrations.DEFAULT.resolve() is Integrations.STABLE
    assert str(Integrations.DEFAULT) == ""
    assert Integrations.DEFAULT | Integrations.CONTRIB_ONLY is Integrations.CONTRIB
    assert Integrations.CONTRIB_ONLY | Integrations.DEFAULT is Integrations.CONTRIB
    assert Integrations.DEFAULT.paths == Integrations.STABLE.paths
    data.add_integrations(Integrations.EXPERIMENTAL_ONLY)
    assert Integrations.DEFAULT.resolve() is Integrations.EXPERIMENTAL
    assert str(Integrations.DEFAULT) == "stable|experimental"
    Integrations.add_custom_path(tmp_path)  # does not change DEFAULT
    assert Integrations.DEFAULT.resolve() is Integrations.EXPERIMENTAL
    data.add_custom_integration(tmp_path)
    assert Integrations.DEFAULT.resolve().value == 11
    DefaultIntegrations.reset()
    assert Integrations.DEFAULT.resolve() is Integrations.STABLE
    assert data.resolve() is data.resolve(None) is data.resolve(Integrations.DEFAULT) is Integrations.STABLE
    assert data.resolve(6).value == 6 and data.resolve(Integrations.ALL) is Integrations.ALL


def test_paths_order(tmp_path, monkeypatch):
    root = tmp_path / "root"
    monkeypatch.setenv("RETRO_DATA_PATH", str(root))
    a, b, env = tmp_path / "a", tmp_path / "b", tmp_path / "env"
    Integrations.add_custom_path(a)
    Integrations.add_custom_path(b)
    assert data.path() == str(root)
    studio = str(studio_integrations_dir())
    contrib, experimental, stable = (os.path.join(PACKAGE_SETS, name) for name in ("contrib", "experimental", "stable"))
    expected = [contrib, str(root / "contrib"), experimental, str(root / "experimental"), str(a), str(b), studio, OURS,
                stable, str(root / "stable")]
    assert Integrations.ALL.folders == expected
    assert Integrations.STABLE.folders == [studio, OURS, stable, str(root / "stable")]
    assert Integrations.CUSTOM_ONLY.folders == [str(a), str(b)]
    assert Integrations(6).folders == [contrib, str(root / "contrib"), experimental, str(root / "experimental")]
    monkeypatch.setenv("EMUCORE_DATA_PATH", os.pathsep.join([str(env), ""]))
    assert Integrations.CUSTOM_ONLY.folders == [str(env), str(a), str(b)]
    assert Integrations.DEFAULT.folders == [str(env), str(a), str(b), studio, OURS, stable, str(root / "stable")]
    Integrations.clear_custom_paths()
    assert Integrations.CUSTOM_ONLY.folders == [str(env)]


def test_paths_are_stable_retros_names(tmp_path, monkeypatch):
    """``paths`` is stable-retro's list (set names, custom folders as given); ``folders`` is what is searched."""
    monkeypatch.setenv("RETRO_DATA_PATH", str(tmp_path / "root"))
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(tmp_path / "env"))
    assert Integrations.STABLE.paths == ["stable"]
    assert Integrations.ALL.paths == ["contrib", "experimental", "stable"]
    assert Integrations.CUSTOM.paths == ["stable"] and not Integrations.CUSTOM_ONLY.paths
    Integrations.add_custom_path(str(tmp_path / "a"))
    Integrations.add_custom_path("b")
    assert Integrations.CUSTOM.paths == [str(tmp_path / "a"), "b", "stable"]
    assert Integrations.ALL.paths == ["contrib", "experimental", str(tmp_path / "a"), "b", "stable"]


def test_relative_custom_path_is_the_data_roots_folder_else_the_current_directorys(tmp_path, monkeypatch):
    root = tmp_path / "root"
    (root / "stable").mkdir(parents=True)
    monkeypatch.setenv("RETRO_DATA_PATH", str(root))
    monkeypatch.chdir(tmp_path)
    Integrations.add_custom_path("stable")  # stable-retro's meaning: a folder of the data root
    Integrations.add_custom_path("mine")  # no such folder in the root: the current directory's
    assert Integrations.CUSTOM_ONLY.paths == ["stable", "mine"]
    assert Integrations.CUSTOM_ONLY.folders == [str(root / "stable"), str(tmp_path / "mine")]
