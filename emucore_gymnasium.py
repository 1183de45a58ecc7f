"""Declares ``emucore/<Game>`` ids to Gymnasium in every interpreter, without importing emucore first.

Gymnasium 1.x has no plugin entry points, so ``gymnasium.make("emucore/Game")`` in a fresh
process (a SubprocVecEnv worker, an RLlib env runner, a plain script) would not know the
namespace. The installed ``emucore-gymnasium.pth`` calls :func:`install` at interpreter start;
it only adds an import hook (no emucore import). When Gymnasium is first imported, the hook
registers the known games through ``emucore.env.registration``.

The ``.pth`` runs in every interpreter of the environment (pip's included), so this module
imports nothing that a bare ``python -c pass`` does not import anyway (only ``sys``): no
``from __future__ import annotations`` (annotations that name types are strings instead), no
``typing``, and ``importlib.util`` only once ``import gymnasium`` has begun.
``tests/emucore/env/test_pth_hook.py`` holds it to that.
"""

import sys

TYPE_CHECKING = False  # not typing's: the .pth must import no module a bare interpreter does not (see above)
if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType


def _register() -> None:
    try:
        from emucore.env.registration import register_games

        register_games()
    except Exception as exc:  # an import hook must never break `import gymnasium`
        import warnings

        warnings.warn(f"emucore: could not register emucore/* ids with Gymnasium: {exc}", stacklevel=2)


class _RegisteringLoader:
    """Gymnasium's own loader, then the registration."""

    def __init__(self, loader: "Loader"):
        self.loader = loader

    def create_module(self, spec: "ModuleSpec") -> "ModuleType | None":
        return self.loader.create_module(spec)

    def exec_module(self, module: "ModuleType") -> None:
        self.loader.exec_module(module)
        _register()


class _GymnasiumWatcher:
    """A ``sys.meta_path`` finder that waits for the first ``import gymnasium``, then leaves ``sys.meta_path``."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> "ModuleSpec | None":
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        import importlib.util  # here, not at the top: every interpreter start would pay for it (~4 ms, 13 modules)

        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _RegisteringLoader(spec.loader)  # type: ignore[assignment]  # a Loader by duck typing
        return spec


def install() -> None:
    """Registers the ids now if Gymnasium is loaded, else when it is first imported."""
    if "gymnasium" in sys.modules:
        _register()
    elif not any(isinstance(finder, _GymnasiumWatcher) for finder in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumWatcher())
