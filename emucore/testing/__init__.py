"""stable-retro's ``retro.testing``: the integration checks of its test suite (:mod:`emucore.testing.tools`)."""

from emucore.testing import tools

__all__ = ["tools"]
