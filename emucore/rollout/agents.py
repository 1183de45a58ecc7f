"""Agents that play an integration without training: sanity checks, baselines and saved policies.

Every agent is seeded per episode: episode ``i`` of a run with seed ``K`` draws from
``episode_rng(K, i)`` whichever process or machine plays it, so a run split across workers
(``emucore.ray``) plays exactly the episodes a run in one process plays.

Agents are picklable (a policy travels as its ``.zip`` bytes), since Ray ships them to workers.
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from emucore.enums import Actions, Observations


def episode_seed(seed: int, episode: int) -> int:
    """The 32-bit seed of episode ``episode`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, episode]).generate_state(1, np.uint32)[0])


class Agent:
    """An agent: ``begin`` at each episode's start, ``act`` every step, ``end`` with the return.

    ``round_size`` is for agents that learn across episodes (``end`` changes what they play):
    the episodes of a round all start from what the agent knew before the round, and ``end`` is
    called for them in episode order when the round is over. So a round can be played in
    parallel and give what it gives in one process.
    """

    name = "agent"
    round_size = 1
    learns = False

    def __init__(self, seed: int | None = 0):
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    @property
    def env_kwargs(self) -> dict[str, Any]:
        """Extra ``emucore.make`` arguments this agent needs (action or observation type)."""
        return {}

    def begin(self, env: Any, episode: int) -> None:
        """A new episode starts on ``env`` (already reset); the agent's generator is the episode's."""
        self.env = env
        self.rng = np.random.default_rng(None if self.seed is None else episode_seed(self.seed, episode))

    def act(self, obs: np.ndarray) -> np.ndarray | int | None:
        """The next action; None ends the episode (the agent has nothing more to play)."""
        raise NotImplementedError

    def end(self, total: float, actions: np.ndarray) -> None:
        """An episode ended with return ``total`` after playing ``actions`` (one row per step)."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("env", None)  # the env stays where it runs
        return state


class IdleAgent(Agent):
    """Presses nothing (useful to see what a scenario rewards when the player does nothing)."""

    name = "idle"

    def act(self, obs: np.ndarray) -> np.ndarray:
        return np.zeros(self.env.num_buttons, dtype=np.int8)


class RandomAgent(Agent):
    """Each button pressed with probability 1/2 every step."""

    name = "random"

    def act(self, obs: np.ndarray) -> np.ndarray:
        return self.rng.integers(0, 2, self.env.num_buttons, dtype=np.int8)


class RightBiasedAgent(Agent):
    """Random, but RIGHT is held with probability ``right`` and the jump buttons pressed sometimes.

    The jump buttons are B (and A, C on Genesis pads) - whichever of them the system has.
    """

    name = "right-biased"
    JUMPS = ("B", "A", "C")

    def __init__(self, seed: int | None = 0, right: float = 0.8, jump: float = 0.25):
        super().__init__(seed)
        self.right = right
        self.jump = jump

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        names = [b or "" for b in env.buttons]
        self._right = names.index("RIGHT") if "RIGHT" in names else None
        self._left = names.index("LEFT") if "LEFT" in names else None
        self._jumps = [names.index(b) for b in self.JUMPS if b in names]

    def act(self, obs: np.ndarray) -> np.ndarray:
        action = np.zeros(self.env.num_buttons, dtype=np.int8)
        if self._right is not None and self.rng.random() < self.right:
            action[self._right] = 1
        elif self._left is not None and self.rng.random() < 0.5:
            action[self._left] = 1
        for index in self._jumps:
            if self.rng.random() < self.jump:
                action[index] = 1
        return action


class BruteAgent(Agent):
    """Gym Retro's "Brute", simplified: replay the best action sequence so far, then explore.

    Each episode replays the best sequence found (by return), swapping each of its actions for a
    random one with probability ``explore``; past its end it plays random actions, each held for
    ``hold`` steps (Brute's frame skip). An episode that beats the best return becomes the best
    sequence. The env is deterministic from its start state, so replays are exact.

    With ``round_size`` above 1 the episodes of a round all explore from the best sequence of
    the rounds before it (see :class:`Agent`): that is what lets Ray play a round in parallel.
    """

    name = "brute"
    learns = True

    def __init__(self, seed: int | None = 0, explore: float = 0.05, hold: int = 4, round_size: int = 1):
        super().__init__(seed)
        if round_size < 1:
            raise ValueError(f"round_size must be at least 1, not {round_size}")
        self.explore = explore
        self.hold = max(1, hold)
        self.round_size = round_size
        self.best: np.ndarray = np.zeros((0, 0), dtype=np.int8)
        self.best_total = -np.inf

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        self._t = 0
        self._held: np.ndarray | None = None

    def _random(self) -> np.ndarray:
        if self._held is None or self._t % self.hold == 0:
            self._held = self.rng.integers(0, 2, self.env.num_buttons, dtype=np.int8)
        return self._held

    def act(self, obs: np.ndarray) -> np.ndarray:
        t = self._t
        if t < len(self.best) and self.rng.random() >= self.explore:
            action = self.best[t]
        else:
            action = self._random()
        self._t += 1
        return action

    def end(self, total: float, actions: np.ndarray) -> None:
        if total > self.best_total:
            self.best_total = total
            self.best = np.array(actions, dtype=np.int8, copy=True)


class MovieAgent(Agent):
    """Plays a movie's player-1 keys (line 0, the reset frame, is skipped), then ends the episode.

    It uses ``Actions.ALL`` so that every recorded combination reaches the game unfiltered.
    """

    name = "movie"

    def __init__(self, path: str | Path):
        from emucore.movie import Movie

        super().__init__(None)
        self.path = Path(path)
        self.masks = Movie(self.path).get_masks()[1:, 0]

    @property
    def env_kwargs(self) -> dict[str, Any]:
        return {"use_restricted_actions": Actions.ALL}

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        self._t = 0

    def act(self, obs: np.ndarray) -> np.ndarray | None:
        if self._t >= len(self.masks):
            return None
        mask = int(self.masks[self._t])
        self._t += 1
        return np.array([(mask >> i) & 1 for i in range(self.env.num_buttons)], dtype=np.int8)


def sb3_available() -> bool:
    """True when Stable-Baselines3 can be imported (PolicyAgent needs it)."""
    return importlib.util.find_spec("stable_baselines3") is not None


SB3_ALGOS = ("PPO", "A2C", "DQN", "SAC", "TD3", "DDPG")


def algo_of(path: str | Path) -> str | None:
    """The SB3 algorithm a model zip was saved by, guessed from its policy's module (or None)."""
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    module = str((data.get("policy_class") or {}).get("__module__", "")) if isinstance(data, dict) else ""
    for algo in SB3_ALGOS:
        if f".{algo.lower()}." in f"{module}.":
            return algo
    return None


class PolicyAgent(Agent):
    """A Stable-Baselines3 model (``.zip``) predicting actions.

    Args:
        path: The model file.
        algo: The SB3 class (``"PPO"``, ``"A2C"``, ...); None guesses it from the zip, else PPO.
        deterministic: Passed to ``model.predict``.

    The action type follows the model's action space (Discrete: ``Actions.DISCRETE``,
    MultiDiscrete: ``MULTI_DISCRETE``, MultiBinary: ``FILTERED``); a 1-D observation space means
    RAM observations. Observations must otherwise match the env's as they are (no wrappers).
    Pickled, it carries the zip's bytes and loads the model again where it is unpickled.
    """

    name = "policy"

    def __init__(self, path: str | Path, algo: str | None = None, deterministic: bool = True):
        super().__init__(None)
        self.path = Path(path)
        self.algo = algo or algo_of(self.path) or "PPO"
        self.deterministic = deterministic
        self._load(self.path.read_bytes())

    def _load(self, model_zip: bytes) -> None:
        import io

        import stable_baselines3

        self._zip = model_zip
        self.model = getattr(stable_baselines3, self.algo).load(io.BytesIO(model_zip), device="cpu")

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("model", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._load(state["_zip"])

    @property
    def env_kwargs(self) -> dict[str, Any]:
        space = self.model.action_space  # told apart by class name: only emucore.env imports Gymnasium
        kwargs: dict[str, Any] = {}
        if type(space).__name__ == "Discrete":
            kwargs["use_restricted_actions"] = Actions.DISCRETE
        elif type(space).__name__ == "MultiDiscrete":
            kwargs["use_restricted_actions"] = Actions.MULTI_DISCRETE
        if len(self.model.observation_space.shape) == 1:
            kwargs["obs_type"] = Observations.RAM
        return kwargs

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        want, have = self.model.observation_space.shape, env.observation_space.shape
        if tuple(want) != tuple(have):
            raise ValueError(f"the policy expects observations of shape {want}, the env gives {have}")

    def act(self, obs: np.ndarray) -> np.ndarray | int:
        action, _ = self.model.predict(obs, deterministic=self.deterministic)
        return action


def cli_agent(spec: str, seed: int, brute_round: int = 8) -> Agent:
    """The agent ``emucore rollout --agent`` names: ``random``, ``brute`` or a policy ``.zip``'s path."""
    if spec == "random":
        return RandomAgent(seed)
    if spec == "brute":
        return BruteAgent(seed, round_size=brute_round)
    if spec.endswith(".zip"):
        if not Path(spec).is_file():
            raise FileNotFoundError(f"--agent {spec}: no such file")
        if not sb3_available():
            raise ValueError(
                f"--agent {spec}: a policy needs Stable-Baselines3: pip install 'retro-integration-studio[rl]'"
            )
        return PolicyAgent(spec)
    raise ValueError(f"--agent {spec!r}: expected random, brute or the path of a Stable-Baselines3 .zip")
