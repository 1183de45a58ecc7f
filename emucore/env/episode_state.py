"""One ``RetroEnv``'s emulator, evaluator and episode in progress, in one typed object.

The env's collaborators (:class:`~emucore.env.stepping.Stepper`, :class:`~emucore.env.observing.Observer`,
:class:`~emucore.env.recording.MovieRecorder`) hold it, and the vector env's batch step
(emucore.env.batch_slots) reads and writes it when it lends the env to C and hands it back. stable-retro's
attribute names on the env (``env.img``, ``env.initial_state``, ``env.movie``, ...) are the same values,
through :class:`Forwarded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import numpy as np

from emucore.enums import Observations
from emucore.env.frame_skip import Preprocessing
from emucore.host.emulator import Emulator
from emucore.libretro.observations import ObservationPlan
from emucore.scenario.evaluator import Evaluator

if TYPE_CHECKING:
    from emucore.movie import Movie

T = TypeVar("T")


@dataclass(eq=False)
class EpisodeState:
    """What stepping, observing and recording one env share."""

    em: Emulator
    evaluator: Evaluator
    players: int
    obs_type: Observations
    preprocessing: Preprocessing
    plan: ObservationPlan | None  # preprocessed observations (emucore.env.frame_skip); None: the screen as shown
    max_episode_steps: int | None
    initial_state: bytes | None  # what reset() loads (None: power on)
    statename: str | None  # its name, as given to make() or load_state()
    img: np.ndarray | None = None  # the last image observation (None before the first reset)
    ram: np.ndarray | None = None  # the last RAM observation
    movie: Movie | None = None  # the movie being recorded
    multi_rewards: bool = False  # a reward per player (two players)
    elapsed_steps: int = 0  # steps in this episode (max_episode_steps truncates)
    sticky_ready: bool = False  # an action of this episode is held: the next step may keep it a frame


class Forwarded(Generic[T]):
    """An attribute of the env that is an attribute of one of its parts: ``img = Forwarded("episode_state", "img")``
    makes ``env.img`` read and write ``env.episode_state.img``."""

    def __init__(self, part: str, name: str):
        self.part, self.name = part, name

    @overload
    def __get__(self, owner: None, kind: type | None = None) -> Forwarded[T]: ...

    @overload
    def __get__(self, owner: object, kind: type | None = None) -> T: ...

    def __get__(self, owner: Any, kind: type | None = None) -> Any:
        if owner is None:
            return self
        return getattr(getattr(owner, self.part), self.name)

    def __set__(self, owner: object, value: T) -> None:
        setattr(getattr(owner, self.part), self.name, value)


__all__ = ["EpisodeState", "Forwarded"]
