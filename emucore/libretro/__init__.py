"""The cffi boundary: loading libretro cores and answering their callbacks.

Only this package touches ``_native`` (``ffi`` and ``lib``); an import contract keeps it so.
"""

from emucore.libretro.core_session import CoreSession
from emucore.libretro.flags import flags_to_mask, mask_table

__all__ = ["CoreSession", "flags_to_mask", "mask_table"]
