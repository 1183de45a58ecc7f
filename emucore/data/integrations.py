"""Integration sets, the process default mask and the folders each set stands for.

See the package docstring (:mod:`emucore.data`) for the lookup order.
"""

from __future__ import annotations

import enum
import os
from functools import cache

from emucore.host.corefinder import stable_retro_cores_dir
from emucore.paths import integrations_dir, studio_integrations_dir

_STABLE, _EXPERIMENTAL, _CONTRIB, _CUSTOM, _ALL, _DEFAULT = 1, 2, 4, 8, 15, 16

#: ``emucore/data``, which holds ``stable``, ``contrib`` and ``experimental`` folders as stable-retro's package
#: does (``dirname(retro.__file__)/data/stable/<Game>`` under the ``retro`` alias): searched first in each set.
PACKAGE_SETS = os.path.dirname(os.path.abspath(__file__))

_SET_NAMES = ((_STABLE, "stable"), (_CONTRIB, "contrib"), (_EXPERIMENTAL, "experimental"), (_CUSTOM, "custom"))

#: Custom folders registered with ``Integrations.add_custom_path``, as given (stable-retro's list),
#: and the absolute folders they name, in registration order.
_CUSTOM_PATHS: list[str] = []
_CUSTOM_FOLDERS: list[str] = []


class Integrations(enum.Flag):
    """Which integration sets a lookup searches (stable-retro's ``data.Integrations``).

    ``DEFAULT`` stands for the process default mask *at the time it is used*: ``STABLE``, plus
    whatever :func:`add_integrations` / :func:`add_custom_integration` added, plus ``CUSTOM_ONLY``
    while ``EMUCORE_DATA_PATH`` names a folder. Every operator (``|``, ``&``, ``^``, ``~``,
    ``in``), :attr:`paths` and ``str()`` resolve it first, as stable-retro's ``DEFAULT`` does.
    Unlike stable-retro on Python 3.11+, any combination of flags is a valid value
    (``CONTRIB_ONLY | EXPERIMENTAL_ONLY`` is 6, not a ``ValueError``).
    """

    STABLE = _STABLE
    EXPERIMENTAL_ONLY = _EXPERIMENTAL
    CONTRIB_ONLY = _CONTRIB
    CUSTOM_ONLY = _CUSTOM
    EXPERIMENTAL = _EXPERIMENTAL | _STABLE
    CONTRIB = _CONTRIB | _STABLE
    CUSTOM = _CUSTOM | _STABLE
    ALL = _ALL
    DEFAULT = _DEFAULT

    def resolve(self) -> Integrations:
        """This mask with ``DEFAULT`` replaced by the current process default mask."""
        value = self._value_
        if value & _DEFAULT:
            return Integrations((value & _ALL) | DefaultIntegrations.current()._value_)
        return self

    @staticmethod
    def _bits(other: object) -> int | None:
        if isinstance(other, Integrations):
            return other.resolve()._value_
        if isinstance(other, int) and not isinstance(other, bool):
            return Integrations(other).resolve()._value_
        return None

    def __or__(self, other: object) -> Integrations:
        bits = self._bits(other)
        if bits is None:
            return NotImplemented
        return Integrations(self.resolve()._value_ | bits)

    def __and__(self, other: object) -> Integrations:
        bits = self._bits(other)
        if bits is None:
            return NotImplemented
        return Integrations(self.resolve()._value_ & bits)

    def __xor__(self, other: object) -> Integrations:
        bits = self._bits(other)
        if bits is None:
            return NotImplemented
        return Integrations(self.resolve()._value_ ^ bits)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self) -> Integrations:
        return Integrations(self.resolve()._value_ ^ _ALL)

    def __contains__(self, other: object) -> bool:
        bits = self._bits(other)
        if bits is None:
            raise TypeError(f"unsupported operand type for 'in': {type(other).__qualname__!r}")
        return self.resolve()._value_ & bits == bits

    def __str__(self) -> str:
        value = self.resolve()._value_
        if value == _ALL:
            return "all"
        if value == _STABLE:
            return ""
        return "|".join(name for bit, name in _SET_NAMES if value & bit)

    @property
    def paths(self) -> list[str]:
        """stable-retro's view of the sets searched: ``contrib``, ``experimental``, the registered
        custom folders as given, ``stable``; only the enabled sets.

        Set names are relative to the data root, as in stable-retro. The folders actually searched,
        which add the ``EMUCORE_DATA_PATH`` folders, the studio's and our integrations, are
        :attr:`folders`.
        """
        value = self.resolve()._value_
        found: list[str] = []
        if value & _CONTRIB:
            found.append("contrib")
        if value & _EXPERIMENTAL:
            found.append("experimental")
        if value & _CUSTOM:
            found.extend(_CUSTOM_PATHS)
        if value & _STABLE:
            found.append("stable")
        return found

    @property
    def folders(self) -> list[str]:
        """The folders searched, in lookup order, as absolute paths.

        ``contrib``, ``experimental``, the custom folders (``EMUCORE_DATA_PATH`` first, then
        registration order), the studio's integrations, our ``integrations/``, ``stable``; each of
        ``contrib``, ``experimental`` and ``stable`` is emucore's own (:data:`PACKAGE_SETS`) first, then
        stable-retro's. Only the enabled sets take part.
        """
        value = self.resolve()._value_
        root = path()
        roots = [PACKAGE_SETS, *([root] if root and root != PACKAGE_SETS else [])]
        found: list[str] = []
        if value & _CONTRIB:
            found.extend(os.path.join(root, "contrib") for root in roots)
        if value & _EXPERIMENTAL:
            found.extend(os.path.join(root, "experimental") for root in roots)
        if value & _CUSTOM:
            found.extend(custom_paths())
        if value & _STABLE:
            found.append(str(studio_integrations_dir().absolute()))
            found.append(str(integrations_dir()))
            found.extend(os.path.join(root, "stable") for root in roots)
        return found

    @classmethod
    def add_custom_path(cls, path: str | os.PathLike[str]) -> None:
        """Register a custom folder of game folders (searched after the ones already registered).

        A relative path names a folder of the data root when there is one (stable-retro's
        meaning, so ``add_custom_path("stable")`` is the stable set), else a folder of the
        current directory. This does not change ``DEFAULT``.
        """
        given = os.fspath(path)
        _CUSTOM_PATHS.append(given)
        _CUSTOM_FOLDERS.append(_custom_folder(given))

    @classmethod
    def clear_custom_paths(cls) -> None:
        """Forget the registered custom folders (``EMUCORE_DATA_PATH`` folders stay)."""
        del _CUSTOM_PATHS[:]
        del _CUSTOM_FOLDERS[:]


def _custom_folder(given: str) -> str:
    folder = os.path.expanduser(given)
    if os.path.isabs(folder):
        return folder  # as given, so found files read back as the caller spelled the folder
    root = path()
    if root and os.path.isdir(os.path.join(root, folder)):
        return os.path.join(root, folder)
    return os.path.abspath(folder)


# stable-retro keeps the list on the class; code reading Integrations.CUSTOM_PATHS sees ours.
Integrations.CUSTOM_PATHS = _CUSTOM_PATHS  # type: ignore[attr-defined]


class DefaultIntegrations:
    """The process default mask that ``Integrations.DEFAULT`` stands for."""

    _added = Integrations.STABLE

    @classmethod
    def current(cls) -> Integrations:
        """The mask in force: ``STABLE``, what was added, and ``CUSTOM_ONLY`` if ``EMUCORE_DATA_PATH`` is set."""
        value = cls._added._value_
        if env_custom_paths():
            value |= _CUSTOM
        return Integrations(value)

    @classmethod
    def add(cls, extra: Integrations | int) -> None:
        """OR ``extra`` into the mask (``DEFAULT`` inside ``extra`` means the current mask)."""
        cls._added = Integrations((cls._added | extra)._value_ & _ALL)

    @classmethod
    def reset(cls) -> None:
        """Back to ``STABLE`` only (``EMUCORE_DATA_PATH`` still applies)."""
        cls._added = Integrations.STABLE


def add_integrations(integrations: Integrations | int) -> None:
    """Include extra sets in the process default mask (any combination is accepted).

    Args:
        integrations: The sets to add, e.g. ``Integrations.EXPERIMENTAL_ONLY | Integrations.CONTRIB_ONLY``.
    """
    DefaultIntegrations.add(integrations)


def add_custom_integration(path: str | os.PathLike[str]) -> None:
    """Register a custom folder and enable custom sets by default, so ``make(game)`` finds it.

    Args:
        path: A folder that holds game folders.
    """
    DefaultIntegrations.add(Integrations.CUSTOM_ONLY)
    Integrations.add_custom_path(path)


def env_custom_paths() -> list[str]:
    """The folders named by ``EMUCORE_DATA_PATH`` (``os.pathsep``-separated), absolute."""
    text = os.environ.get("EMUCORE_DATA_PATH", "")
    return [os.path.abspath(os.path.expanduser(p)) for p in text.split(os.pathsep) if p.strip()]


def custom_paths() -> list[str]:
    """Every custom folder in lookup order: ``EMUCORE_DATA_PATH`` ones, then registered ones."""
    return env_custom_paths() + list(_CUSTOM_FOLDERS)


@cache
def _installed_stable_retro_data() -> str | None:
    cores = stable_retro_cores_dir()
    if cores is None:
        return None
    data = cores.parent / "data"
    return str(data) if data.is_dir() else None


def path(hint: str | os.PathLike[str] | None = None) -> str | None:
    """The stable-retro data root (the folder holding ``stable``, ``experimental``, ``contrib``).

    ``RETRO_DATA_PATH`` wins when set (read on every call, so tests may change it). Otherwise
    ``hint``, else the ``data`` folder of an installed stable-retro, found without importing
    its compiled module. ``None`` when there is none.

    Args:
        hint: A data root to use when ``RETRO_DATA_PATH`` is unset.
    """
    env = os.environ.get("RETRO_DATA_PATH")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    if hint is not None:
        return os.path.abspath(os.fspath(hint))
    return _installed_stable_retro_data()


def data_path_parent() -> str | None:
    """``DATA_PATH``, stable-retro's folder that holds the ``data`` folder of its sets, so that
    ``os.path.join(DATA_PATH, "data", "stable", game)`` is a game's folder: the parent of the data root
    (:func:`path`, ``RETRO_DATA_PATH`` included) when that folder is named ``data`` (an installed
    stable-retro's is), else the folder of an installed stable-retro (stable-retro's own ``DATA_PATH``,
    which ignores ``RETRO_DATA_PATH``); None without either. Read on every access, as :func:`path` is."""
    for root in (path(), _installed_stable_retro_data()):
        if root is not None and os.path.basename(root) == "data":
            return os.path.dirname(root)
    return None


def resolve(inttype: Integrations | int | None = None) -> Integrations:
    """``inttype`` as a concrete :class:`Integrations`: ``DEFAULT`` (or ``None``) replaced by the current default mask.

    Args:
        inttype: A mask, its int value, or ``None`` for ``DEFAULT``.
    """
    if inttype is None:
        return Integrations.DEFAULT.resolve()
    if isinstance(inttype, Integrations):
        return inttype.resolve()
    return Integrations(int(inttype)).resolve()


def is_registered_custom(folder: str) -> bool:
    """Whether ``folder`` was registered explicitly (not through ``EMUCORE_DATA_PATH``)."""
    return folder in _CUSTOM_FOLDERS and folder not in env_custom_paths()
