"""One episode of an agent on an env, and what it gives: returns, lengths, why it ended."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from emucore.rollout.agents import Agent, episode_seed
from emucore.scenario.explain import reasons_text

MAX_STEPS = "max steps"
AGENT_FINISHED = "agent finished"
TRUNCATED = "truncated"
STOPPED = "stopped"


@dataclass
class StepEvent:
    """What ``on_step`` gets after each step (``obs`` is the env's array: copy it to keep it)."""

    episode: int
    step: int  # 1-based within the episode
    reward: float
    total: float
    obs: np.ndarray


@dataclass
class EpisodeResult:
    """An episode played: its return and length, why it ended and what was played."""

    index: int
    total: float
    length: int
    done_reason: str  # why done fired (emucore.scenario.explain), "max steps", "agent finished", "truncated", "stopped"
    terminated: bool
    rewards: np.ndarray  # float64, one per step
    masks: np.ndarray  # uint16 button masks actually sent, one per step
    actions: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.int64))  # as the agent gave them
    screen_hashes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.uint64))
    ram_hashes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.uint64))
    node: str = ""  # the host (or Ray node) that played it
    movie: bytes | None = field(repr=False, default=None)  # the episode's .bk2, when it was recorded

    @property
    def done(self) -> str | None:
        """The done condition that fired, or None when the episode ended otherwise."""
        return self.done_reason if self.terminated else None

    def keys(self, num_buttons: int) -> np.ndarray:
        """The buttons pressed each step, ``(length, num_buttons)`` bool."""
        return ((self.masks[:, None] >> np.arange(num_buttons, dtype=np.uint16)) & 1).astype(bool)

    def summary(self) -> dict[str, Any]:
        """The JSON line ``emucore rollout`` prints for it."""
        return {"episode": self.index, "return": self.total, "length": self.length, "done": self.done,
                "node": self.node}


def _hash(array: np.ndarray) -> int:
    return int.from_bytes(hashlib.blake2b(array.tobytes(), digest_size=8).digest(), "little")


def play_episode(
    env: Any,
    agent: Agent,
    index: int,
    *,
    seed: int,
    max_steps: int,
    record: Path | None = None,
    hashes: bool = False,
    on_step: Callable[[StepEvent], None] | None = None,
    stop: threading.Event | None = None,
) -> EpisodeResult:
    """Plays episode ``index`` of a run seeded ``seed``: env and agent both get the episode's seed.

    ``record`` is a ``.bk2`` path to record the episode to (its bytes end up in ``movie``);
    ``hashes`` keeps a hash of every screen and RAM (for the studio's stall detection).
    """
    if record is not None:
        env.record_movie(str(record))
    obs, _ = env.reset(seed=episode_seed(seed, index))
    agent.begin(env, index)
    rewards: list[float] = []
    masks: list[int] = []
    actions: list[Any] = []
    screens: list[int] = []
    rams: list[int] = []
    total = 0.0
    reason = MAX_STEPS
    terminated = False
    try:
        for step in range(1, max_steps + 1):
            if stop is not None and stop.is_set():
                reason = STOPPED
                break
            action = agent.act(obs)
            if action is None:
                reason = AGENT_FINISHED
                break
            mask = env.evaluator.actions.decode(action, env.use_restricted_actions, 1)[0]
            obs, reward, terminated, truncated, _ = env.step(action)
            reward = float(reward)
            total += reward
            rewards.append(reward)
            masks.append(mask)
            actions.append(np.array(action, copy=True))
            if hashes:
                screens.append(_hash(obs))
                rams.append(_hash(env.get_ram()))
            if on_step is not None:
                on_step(StepEvent(index, step, reward, total, obs))
            if terminated:
                reason = reasons_text(env.evaluator.explain_done())
                break
            if truncated:
                reason = TRUNCATED
                break
    finally:
        if record is not None:
            env.stop_record()
    return EpisodeResult(
        index, total, len(rewards), reason, bool(terminated),
        np.asarray(rewards, dtype=np.float64), np.asarray(masks, dtype=np.uint16),
        np.asarray(actions) if actions else np.zeros(0, np.int64),
        np.asarray(screens, dtype=np.uint64), np.asarray(rams, dtype=np.uint64),
        movie=record.read_bytes() if record is not None and record.exists() else None,
    )
