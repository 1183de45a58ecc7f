"""The alias's old module name, kept for the scripts that import it: see :mod:`emucore.retro.alias`."""

from emucore.retro.alias import install

__all__ = ["install"]
