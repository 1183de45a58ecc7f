"""A rollout played on a Ray cluster: the same episodes as in one process, spread over the nodes.

One actor per CPU (at most one per episode) unpacks the integration on its node and makes the
env once; episodes go to whichever actor is free and come back in episode order. An agent that
learns across episodes is sent again at each round, with what it learnt from the rounds before.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Generator, Iterator
from typing import Any

from emucore.ray.cluster import cluster_cpus, connected, node_labels
from emucore.ray.travel import TravellingIntegration
from emucore.rollout.episode import EpisodeResult
from emucore.rollout.local import EpisodePlayer, learn_from_round
from emucore.rollout.plan import Rollout


class RolloutActor:
    """Plays episodes of one rollout on its node (a Ray actor; see :func:`run_on_ray`)."""

    def __init__(self, integration: TravellingIntegration, rollout: Rollout):
        import ray

        folder, kwargs = integration.materialise()
        state = kwargs.pop("state", rollout.state)
        local = dataclasses.replace(rollout, game=str(folder), state=state, make_kwargs=kwargs)
        self.node_id = ray.get_runtime_context().get_node_id()
        self.player = EpisodePlayer(local, node=self.node_id)
        self._agent_ref: str | None = None
        self._agent: Any = None

    def play(self, agent_refs: list, index: int) -> EpisodeResult:
        import ray

        (ref,) = agent_refs  # a list, so that Ray hands over the reference and not the agent
        if ref.hex() != self._agent_ref:
            self._agent, self._agent_ref = ray.get(ref), ref.hex()
        return self.player.play(self._agent, index)


def run_on_ray(rollout: Rollout, address: str | None, stop: threading.Event | None = None) -> Iterator[EpisodeResult]:
    """Plays the rollout on the cluster at ``address`` and yields the episodes in episode order.

    ``node`` of each result is the host that played it. ``stop``, once set, ends the run after
    the episodes already returned.
    """
    if rollout.episodes == 0:
        return
    with connected(address) as ray:
        integration = TravellingIntegration.put(rollout.game, state=rollout.state, **rollout.make_kwargs)
        labels = node_labels(ray)
        actor_class = ray.remote(num_cpus=1)(RolloutActor)
        actors = [actor_class.remote(integration, rollout)
                  for _ in range(min(rollout.episodes, cluster_cpus(ray)))]
        try:
            for episodes in rollout.rounds():
                results = yield from _play_round(ray, actors, rollout, episodes, labels, stop)
                learn_from_round(rollout.agent, results)
                if stop is not None and stop.is_set():
                    return
        finally:
            for actor in actors:
                ray.kill(actor)


def _play_round(ray: Any, actors: list, rollout: Rollout, episodes: range, labels: dict[str, str],
                stop: threading.Event | None) -> Generator[EpisodeResult, None, list[EpisodeResult]]:
    """Plays a round's episodes on the actors; yields them in order, and returns them."""
    agent_ref = ray.put(rollout.agent)
    waiting = list(episodes)
    free = list(actors)
    running: dict[Any, Any] = {}
    done: dict[int, EpisodeResult] = {}
    results: list[EpisodeResult] = []
    expected = episodes.start
    while expected < episodes.stop:
        if stop is not None and stop.is_set():
            break
        while free and waiting:
            actor = free.pop()
            running[actor.play.remote([agent_ref], waiting.pop(0))] = actor
        finished, _ = ray.wait(list(running), num_returns=1, timeout=0.5)
        for ref in finished:
            free.append(running.pop(ref))
            result = ray.get(ref)
            result.node = labels.get(result.node, result.node)
            done[result.index] = result
        while expected in done:
            result = done.pop(expected)
            results.append(result)
            yield result
            expected += 1
    return results
