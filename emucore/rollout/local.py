"""Playing a rollout's episodes in this process, in episode order."""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from emucore.rollout.agents import Agent
from emucore.rollout.episode import EpisodeResult, StepEvent, play_episode
from emucore.rollout.plan import Rollout, host_name


class EpisodePlayer:
    """A rollout's env, made once, playing episodes by index: here, or in a Ray actor.

    An episode depends only on the rollout and its index, never on the episodes played before it
    in this env: a game without a start state starts every episode from its power-on state.
    """

    def __init__(self, rollout: Rollout, node: str | None = None):
        import emucore

        self.rollout = rollout
        self.node = node or host_name()
        self.env = emucore.make(rollout.game, **rollout.env_kwargs())
        if not self.env.initial_state:
            self.env.initial_state = self.env.em.get_state()
        self._folder = Path(tempfile.mkdtemp(prefix="emucore-rollout-")) if rollout.record else None

    def play(self, agent: Agent, index: int, on_step: Callable[[StepEvent], None] | None = None,
             stop: threading.Event | None = None) -> EpisodeResult:
        rollout = self.rollout
        record = self._folder / f"episode-{index}.bk2" if self._folder is not None else None
        try:
            result = play_episode(self.env, agent, index, seed=int(rollout.seed or 0), max_steps=rollout.max_steps,
                                  record=record, hashes=rollout.hashes, on_step=on_step, stop=stop)
        finally:
            if record is not None:
                record.unlink(missing_ok=True)
        result.node = self.node
        return result

    def close(self) -> None:
        self.env.close()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> EpisodePlayer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def learn_from_round(agent: Agent, results: list[EpisodeResult]) -> None:
    """Tells a learning agent how the episodes of a round went, in episode order."""
    for result in sorted(results, key=lambda r: r.index):
        agent.end(result.total, result.actions)


def run_local(rollout: Rollout, on_step: Callable[[StepEvent], None] | None = None,
              stop: threading.Event | None = None) -> Iterator[EpisodeResult]:
    """Plays the rollout's episodes one after another and yields each as it ends.

    ``stop``, once set, ends the episode in progress (its result says "stopped") and the run.
    """
    if rollout.episodes == 0:
        return
    with EpisodePlayer(rollout) as player:
        for episodes in rollout.rounds():
            results = []
            for index in episodes:
                if stop is not None and stop.is_set():
                    break
                result = player.play(rollout.agent, index, on_step, stop)
                results.append(result)
                yield result
            learn_from_round(rollout.agent, results)
            if stop is not None and stop.is_set():
                return
