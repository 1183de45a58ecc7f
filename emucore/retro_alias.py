"""Deprecated: the alias's old module name; see :mod:`emucore.retro.alias`."""

import warnings

from emucore.retro.alias import install

warnings.warn("emucore.retro_alias is emucore.retro.alias now", DeprecationWarning, stacklevel=2)

__all__ = ["install"]
