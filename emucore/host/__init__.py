"""The host: a libretro core running a ROM (:class:`~emucore.host.emulator.Emulator`), its memory
as data.json addresses and types, ROM files, finding cores, the checks a state passes
before a core sees it, and the probes (a ROM or a state tried first in a forked process: ``rom_probe``,
``state_probe``, over ``fork_probe`` and ``probe_seal``). Below it only :mod:`emucore.libretro` (the cffi boundary
and the C loop)."""
