"""What emucore reads at run time ships inside the package, and the environment variables still override it."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import emucore
from emucore.paths import descriptors_dir, integrations_dir, package_resources
from emucore.systems import systems
from tests.conftest import ROOT

PACKAGE = Path(emucore.__file__).parent


def test_descriptors_and_demo_integrations_are_inside_the_package(monkeypatch):
    monkeypatch.delenv("EMUCORE_CORES_DIR", raising=False)
    assert package_resources() == PACKAGE / "resources"
    assert descriptors_dir().parent == integrations_dir().parent == package_resources()
    assert {path.stem for path in (descriptors_dir() / "systems").glob("*.json")} == set(systems())
    for demo in ("StudioDemo-Genesis", "StudioDemo-Nes"):
        assert {"data.json", "scenario.json", "metadata.json", "rom.sha", "Start.state"} <= {
            path.name for path in (integrations_dir() / demo).iterdir()
        }


def test_package_data_globs_cover_every_resource_file():
    """A file under emucore/resources that pyproject's package-data does not match would be missing from the wheel."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["emucore"]
    shipped = {path for pattern in globs for path in PACKAGE.glob(pattern) if path.is_file()}
    resources = {path for path in package_resources().rglob("*") if path.is_file()}
    assert resources and resources <= shipped


def test_emucore_cores_dir_replaces_the_descriptors(monkeypatch, tmp_path):
    shutil.copytree(descriptors_dir(), tmp_path / "cores")
    (tmp_path / "cores" / "systems" / "N64.json").unlink()
    monkeypatch.setenv("EMUCORE_CORES_DIR", str(tmp_path / "cores"))
    assert descriptors_dir() == tmp_path / "cores"
    assert "N64" not in systems() and "Nes" in systems()
