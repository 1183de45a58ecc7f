"""An integration put in Ray's object store once, and found (or unpacked) on whichever node needs it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emucore.ray.cluster import require_ray
from emucore.ray.package import IntegrationPackage, pack_integration, unpacked_game_folder


@dataclass(frozen=True)
class TravellingIntegration:
    """A reference to a packed integration in the object store, with what a node needs to use it.

    It pickles small (the package stays in the object store until a node that lacks it asks),
    and copies as itself, so RLlib can deep-copy a config that holds it.
    """

    ref: Any = field(repr=False)
    game: str
    digest: str
    kwargs: dict[str, Any]

    @classmethod
    def put(cls, game: str | os.PathLike[str], **make_kwargs: Any) -> TravellingIntegration:
        """Packs ``game``'s integration (see :func:`pack_integration`) into the object store."""
        ray = require_ray()
        if not ray.is_initialized():
            raise RuntimeError("connect to the cluster first (ray.init(address=...)): the integration goes to its "
                               "object store")
        package = pack_integration(game, **make_kwargs)
        return cls(ray.put(package), package.game, package.digest, package.kwargs)

    def materialise(self) -> tuple[Path, dict[str, Any]]:
        """The game folder on this node (unpacked now if it is not yet) and make()'s arguments for it."""
        folder = unpacked_game_folder(self.digest, self.game)
        if not folder.is_dir():
            package: IntegrationPackage = require_ray().get(self.ref)
            folder = package.unpack()
        return folder, IntegrationPackage.rewrite_paths(self.kwargs, folder)

    def __deepcopy__(self, memo: dict) -> TravellingIntegration:
        return self
