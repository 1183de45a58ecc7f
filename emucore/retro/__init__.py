"""stable-retro compatibility that is not a module path of its own: ``import retro`` mapped onto
emucore (:mod:`~emucore.retro.alias`), and the ``GameData`` methods stable-retro offers beyond
evaluation (:mod:`~emucore.retro.gamedata`: variables, and its memory search with its
results exactly, :mod:`~emucore.retro.gamedata_search`). stable-retro's own paths (``retro.data``,
``retro.testing``, ``retro.enums``) are :mod:`emucore.data`, :mod:`emucore.testing` and
:mod:`emucore.enums`."""
