"""The cffi boundary: loading libretro cores and answering their callbacks."""

from emucore.libretro.session import CoreSession

__all__ = ["CoreSession"]
