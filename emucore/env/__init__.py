"""The Gymnasium side of emucore: ``make``, ``RetroEnv``, the threaded vector env, and movies played through
an env (:class:`MoviePlayer`; :func:`replay`, ``emucore playback``, is emucore.rollout.movie_replay's).

Importing it registers every known game with Gymnasium as ``emucore/<Game>``.
"""

from emucore.errors import MissingExtraError

try:
    from emucore.env.make import make
    from emucore.env.movie_player import MoviePlayer, PlaybackStep
    from emucore.env.registration import register_games
    from emucore.env.retro_env import RetroEnv
    from emucore.env.vector import RetroVectorEnv
except ModuleNotFoundError as exc:
    if exc.name != "gymnasium":
        raise
    raise MissingExtraError("emucore's Gymnasium env (emucore.make, RetroEnv)", "Gymnasium", "env") from exc

register_games()


def __getattr__(name: str) -> object:
    """``replay`` and ``ReplaySummary`` (``emucore playback``, a tool over the env): emucore.rollout.movie_replay,
    a layer above, imported by name at first use."""
    if name in ("replay", "ReplaySummary"):
        from importlib import import_module

        return getattr(import_module("emucore.rollout.movie_replay"), name)
    raise AttributeError(f"module 'emucore.env' has no attribute {name!r}")


__all__ = [
    "MoviePlayer",
    "PlaybackStep",
    "ReplaySummary",
    "RetroEnv",
    "RetroVectorEnv",
    "make",
    "register_games",
    "replay",
]
