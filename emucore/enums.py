"""stable-retro's enums: which state to start from, what the agent sees and how it acts."""

from __future__ import annotations

from enum import Enum


class State(Enum):
    DEFAULT = -1  # the integration's default state (metadata.json)
    NONE = 0  # power-on: no state is loaded and reset() does not rewind


class Observations(Enum):
    IMAGE = 0
    RAM = 1


class Actions(Enum):
    ALL = 0  # MultiBinary over every button, unfiltered
    FILTERED = 1  # MultiBinary, keeping only the combinations in the action groups
    DISCRETE = 2  # one Discrete index over every combination of the groups
    MULTI_DISCRETE = 3  # one choice per group
