"""Making emucore envs in RLlib's env runners, on nodes that have emucore but not the integration.

For example (not run: it needs a Ray cluster)::

    ray.init(address="auto")
    register_env("emucore", env_creator)
    config = PPOConfig().environment("emucore", env_config=env_config("Airstriker-Genesis-v0", state="Level1",
                                     use_restricted_actions=emucore.Actions.DISCRETE))
"""

from __future__ import annotations

import os
from typing import Any

from emucore.ray.travel import TravellingIntegration

INTEGRATION_KEY = "integration"
SCALE_KEY = "scale_obs"  # make()'s; False keeps the uint8 observations (RLlib's encoders want floats)


def env_config(game: str | os.PathLike[str], **make_kwargs: Any) -> dict[str, Any]:
    """An RLlib ``env_config`` for :func:`env_creator`: ``game``'s integration (and any state or
    scenario given by path) put in the object store once, and the other ``make`` arguments."""
    integration = TravellingIntegration.put(game, **make_kwargs)
    return {INTEGRATION_KEY: integration}


def env_creator(config: dict[str, Any]) -> Any:
    """An env from an RLlib ``env_config``: one from :func:`env_config`, or ``make``'s arguments
    (``{"game": ..., "state": ...}``) for a game every node has. Keys besides the integration
    override the packed arguments. Observations are float32 in [0, 1] unless ``scale_obs`` is False."""
    kwargs = dict(config)
    kwargs[SCALE_KEY] = bool(kwargs.get(SCALE_KEY, True))
    return _make(kwargs)


def _make(kwargs: dict[str, Any]) -> Any:
    import emucore

    integration = kwargs.pop(INTEGRATION_KEY, None)
    if integration is None:
        if "game" not in kwargs:
            raise ValueError("env_config needs 'game' (or 'integration', from emucore.ray.env_config)")
        return emucore.make(kwargs.pop("game"), **kwargs)
    if not isinstance(integration, TravellingIntegration):
        raise TypeError(f"env_config['{INTEGRATION_KEY}'] must come from emucore.ray.env_config, not "
                        f"{type(integration).__name__}")
    folder, packed = integration.materialise()
    kwargs.pop("game", None)
    kwargs.pop("inttype", None)
    return emucore.make(str(folder), **{**packed, **kwargs})
