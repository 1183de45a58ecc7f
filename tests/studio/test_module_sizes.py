"""The studio's modules stay small enough to read whole, each class counted with the mixins it was split into,
and its main window a composition root."""

from __future__ import annotations

from pathlib import Path

import studio
from tests.class_sizes import class_sizes

LIMIT = 400
MAIN_WINDOW_LIMIT = 250


def sizes() -> dict[str, int]:
    package = Path(studio.__file__).parent
    return {path.relative_to(package.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for path in package.rglob("*.py")}


def test_no_module_of_the_studio_is_over_the_limit():
    found = sizes()
    assert len(found) > 60
    assert {name: lines for name, lines in found.items() if lines > LIMIT} == {}


def test_no_class_of_the_studio_is_over_the_limit_with_its_mixins():
    found = class_sizes(Path(studio.__file__).parent)
    assert found["studio.model.scenario.scenario_doc:ScenarioDocument"] > 200  # the document is counted whole
    assert {name: lines for name, lines in found.items() if lines > LIMIT} == {}


def test_the_main_window_only_composes():
    assert sizes()["studio/qt/main_window.py"] < MAIN_WINDOW_LIMIT


def test_feature_folders_pair_up():
    """Each feature has a folder of models and one of views, and each view module is named after a model."""
    package = Path(studio.__file__).parent
    for feature in ("play", "variables", "search", "scenario", "agents"):
        models = {p.stem for p in (package / "model" / feature).glob("*.py")} - {"__init__"}
        views = {p.stem for p in (package / "qt" / feature).glob("*.py")} - {"__init__"}
        assert models and views, feature
        unpaired = {view for view in views if not any(view.startswith(model) for model in models)}
        assert unpaired <= PAIRED_ELSEWHERE.get(feature, set()), (feature, unpaired)


PAIRED_ELSEWHERE = {
    "play": {"keys"},  # Qt's key codes to the names the bindings and the input router use
    "search": {"search_dock"},  # the tabs of the three search panels
}
