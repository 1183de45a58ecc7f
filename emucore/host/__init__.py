"""The host: a libretro core running a ROM (:class:`~emucore.host.emulator.Emulator`), its memory
as data.json addresses and types, ROM files, finding cores, and the checks a state passes
before a core sees it. Below it only :mod:`emucore.libretro` (the cffi boundary and the C loop)."""
