"""The ``core`` marker, given to a test by what its code names; and a check at run time that it is right.

``pytest -m "not core"`` runs the tests that need no libretro core. Marking hundreds of tests by hand would go
stale, so the marker is given at collection (``mark_core``, from ``tests/conftest.py``): a test is ``core`` when
the code it runs names a way in to a core. That code is the test function, the fixtures it uses and, followed
through, the functions and classes of ``tests/`` and ``bench/`` they name: helpers imported from other test
modules (inside a function too), those in a table they name and those a parameter holds included. The names
are read from the compiled code, attribute names with them (``emucore.make`` names ``make``), so a test is
marked whether it calls ``Emulator`` itself or a helper that does. A way in is a name of :data:`CORE_NAMES`
(the APIs that start an emulator, ``require_core``, the fixtures of the demo ROMs and of the installed games),
or a string naming a demo game (``"StudioDemo-Nes"``: a test that runs the ``emucore`` command on it).

The check (``core_loads_are_marked``, autouse): a test that starts a core in this process and is not marked
fails, saying so. Add the name it went through to :data:`CORE_NAMES`, or mark the test ``@pytest.mark.core``
(a fixture named at run time, ``request.getfixturevalue``, is not seen at collection). A core started in
another process (the command line, a fork probe, a Ray worker) is not seen by the check.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

CORE_NAMES = frozenset({
    # emucore: an emulator, an env or a vector of them, and what plays one inside
    "Emulator", "RetroEmulator", "make", "RetroEnv", "RetroVectorEnv", "RetroVecEnv", "MoviePlayer", "replay",
    "check_integration", "suggest_done", "solve_value", "rollout", "episode_examples",
    "snapshot_from_state", "compare_states", "require_core",
    # the studio: a session on a game, the workspace of its models, what plays it, the app's main
    "Session", "Workspace", "run_episodes", "poke_test", "studio_main",
    # fixtures and helpers: the demo ROMs, stable-retro's Airstriker, ale-py's Atari ROMs, an opened Atari game
    "nes_rom", "genesis_rom", "NES_ROM", "GENESIS_ROM", "airstriker", "ale_rom", "stable_atari", "open_game",
})
DEMO_GAMES = ("StudioDemo-Nes", "StudioDemo-Genesis")
_loads = [0]


def _ours(obj: object) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in ("tests", "bench", "conftest")


def _codes(obj: object) -> Iterator[types.CodeType]:
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if inspect.isclass(obj):
        for value in vars(obj).values():
            yield from _codes(value)
        return
    code = getattr(inspect.unwrap(obj), "__code__", None) if callable(obj) else None
    if code is None:
        return
    stack = [code]
    while stack:
        code = stack.pop()
        yield code
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))


def _module(name: str) -> types.ModuleType | None:
    try:
        return importlib.import_module(name)
    except (Exception, pytest.skip.Exception):  # not importable here (Qt blocked, an extra missing): not followed
        return None


@functools.cache
def _direct(obj: object) -> tuple[frozenset[str], tuple[object, ...]]:
    """The names and demo-game strings the code of ``obj`` holds, and the helpers of ours it names."""
    found: set[str] = set()
    helpers: list[object] = []
    glob = getattr(inspect.unwrap(obj), "__globals__", {}) if callable(obj) else {}
    for code in _codes(obj):
        found.update(code.co_names)
        for module in (_module(n) for n in code.co_names if n.split(".")[0] in ("tests", "bench")):
            # imported inside the function: ``from tests.x import helper`` names the module and the helper
            helpers.extend(v for v in (getattr(module, n, None) for n in code.co_names) if v is not None and _ours(v))
        found.update(c for c in code.co_consts if isinstance(c, str) and any(g in c for g in DEMO_GAMES))
        for value in (glob[n] for n in code.co_names if n in glob):
            if isinstance(value, (str, Path)) and any(g in str(value) for g in DEMO_GAMES):  # DEMO = "StudioDemo-..."
                found.add(str(value))
            if isinstance(value, dict):  # a table of helpers: fuzz targets by name
                value = list(value.values())
            helpers.extend(v for v in (value if isinstance(value, (list, tuple)) else [value]) if _ours(v))
    return frozenset(found), tuple(helpers)


def _names(objects: list[object]) -> set[str]:
    found: set[str] = set()
    seen: set[int] = set()
    while objects:
        obj = objects.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        try:
            names, helpers = _direct(obj)
        except TypeError:  # not hashable: not a function or class
            continue
        found |= names
        objects.extend(helpers)
    return found


def needs_core(item: pytest.Item) -> bool:
    names: set[str] = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = list(callspec.params.values()) if callspec else []
    names.update(str(v) for v in params if isinstance(v, (str, Path)))
    objects = [getattr(item, "obj", None)]
    for value in params:  # a parameter of ours (a fuzz target's parser): its class and the functions it holds
        if _ours(type(value)):
            objects.append(type(value))
            objects.extend(v for v in getattr(value, "__dict__", {}).values() if callable(v) and _ours(v))
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        objects.extend(d.func for d in defs if _ours(d.func))
    names |= _names([obj for obj in objects if obj is not None])
    return bool(names & CORE_NAMES) or any(g in n for n in names for g in DEMO_GAMES)


def mark_core(items: list[pytest.Item]) -> None:
    for item in items:
        if not item.get_closest_marker("core") and needs_core(item):
            item.add_marker(pytest.mark.core)


def count_core_loads() -> None:
    """Counts every core started in this process (``CoreSession``: every emulator starts one)."""
    from emucore.libretro import CoreSession

    init = CoreSession.__init__
    if getattr(init, "counted", False):
        return

    @functools.wraps(init)
    def counted(self, *args, **kwargs):
        _loads[0] += 1
        init(self, *args, **kwargs)

    counted.counted = True  # type: ignore[attr-defined]
    CoreSession.__init__ = counted  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def core_loads_are_marked(request):
    before = _loads[0]
    yield
    if _loads[0] > before and not request.node.get_closest_marker("core"):
        pytest.fail("this test started a libretro core but is not marked core: add the name it went through to "
                    "tests/markers.py's CORE_NAMES, or mark it @pytest.mark.core", pytrace=False)
