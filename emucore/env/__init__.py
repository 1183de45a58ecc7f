"""The Gymnasium side of emucore: ``make``, ``RetroEnv``, the threaded vector env, and movies played through
an env (:class:`MoviePlayer`, :func:`replay`: ``emucore playback``).

Importing it registers every known game with Gymnasium as ``emucore/<Game>``.
"""

from emucore.errors import MissingExtraError

try:
    from emucore.env.make import make
    from emucore.env.movie_player import MoviePlayer, PlaybackStep
    from emucore.env.movie_replay import ReplaySummary, replay
    from emucore.env.registration import register_games
    from emucore.env.retro_env import RetroEnv
    from emucore.env.vector import RetroVectorEnv
except ModuleNotFoundError as exc:
    if exc.name != "gymnasium":
        raise
    raise MissingExtraError("emucore's Gymnasium env (emucore.make, RetroEnv)", "Gymnasium", "env") from exc

register_games()

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
