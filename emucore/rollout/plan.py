"""A rollout: which game, how the env is made, which agent, how many episodes, from which seed."""

from __future__ import annotations

import secrets
import socket
from dataclasses import dataclass, field
from typing import Any

from emucore.enums import State
from emucore.rollout.agents import Agent


@dataclass
class Rollout:
    """Everything that decides the episodes of a run; the same rollout gives the same episodes anywhere.

    Args:
        game: A game name (looked up in ``inttype``) or the path of a game folder.
        agent: The agent (its ``env_kwargs`` join ``make_kwargs``).
        episodes: How many episodes.
        seed: The run's seed; episode ``i`` (env and agent) is seeded from ``(seed, i)``. None draws one.
        max_steps: Steps after which an episode is cut ("max steps").
        state: A state name or path; ``State.DEFAULT`` is the game's default state.
        make_kwargs: Other ``emucore.make`` arguments (``scenario``, ``inttype``, ...).
        record: Keep each episode's ``.bk2`` in its result.
        hashes: Keep a hash of each step's screen and RAM in the results.
    """

    game: str
    agent: Agent
    episodes: int = 1
    seed: int | None = 0
    max_steps: int = 4500
    state: Any = State.DEFAULT
    make_kwargs: dict[str, Any] = field(default_factory=dict)
    record: bool = False
    hashes: bool = False

    def __post_init__(self) -> None:
        if self.episodes < 0:
            raise ValueError(f"episodes must be 0 or more, not {self.episodes}")
        if self.max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {self.max_steps}")
        if self.seed is None:
            self.seed = secrets.randbits(32)
        self.agent.seed = self.seed  # the agent draws from the episode's seed, as the env does

    def env_kwargs(self) -> dict[str, Any]:
        """The arguments of ``emucore.make`` besides the game."""
        return {"state": self.state, "render_mode": None, **self.make_kwargs, **self.agent.env_kwargs}

    def rounds(self) -> list[range]:
        """The episodes in rounds: all in one, unless the agent learns (then ``agent.round_size`` each)."""
        size = max(1, self.agent.round_size if self.agent.learns else self.episodes)
        return [range(start, min(start + size, self.episodes)) for start in range(0, self.episodes, size)]


def host_name() -> str:
    """This machine's name, as the ``node`` of episodes played here."""
    return socket.gethostname()
