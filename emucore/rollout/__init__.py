"""Rollouts: an agent's episodes on an integration, each seeded by its index, here or on Ray."""

from emucore.rollout.episode import EpisodeResult, StepEvent, play_episode
from emucore.rollout.local import EpisodePlayer, run_local
from emucore.rollout.plan import Rollout

__all__ = ["EpisodePlayer", "EpisodeResult", "Rollout", "StepEvent", "play_episode", "run_local"]
