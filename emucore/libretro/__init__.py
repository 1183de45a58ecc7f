"""The cffi boundary: loading libretro cores and answering their callbacks.

Only this package touches ``_native`` (``ffi`` and ``lib``); an import contract keeps it so.
"""

from emucore.libretro.flags import flags_to_mask, mask_table
from emucore.libretro.session import CoreSession

__all__ = ["CoreSession", "flags_to_mask", "mask_table"]
