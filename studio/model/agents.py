"""Sanity-check agents for an integration, and a headless runner that reports likely scenario bugs.

>>> report = run_episodes("StudioDemo-Nes", agent=RandomAgent(0), episodes=3, max_steps=600)
>>> [(e.total, e.length, e.done_reason) for e in report.episodes], report.flags
>>> report.save_best("best.bk2")

Agents see a :class:`~emucore.env.RetroEnv` (FILTERED ``MultiBinary`` actions unless the agent
asks otherwise through :attr:`Agent.env_kwargs`). Every episode is recorded as a ``.bk2`` from the
episode's start state; only the best one (highest return) is kept, as bytes, in the report.

Flags (heuristics, see :func:`scenario_flags`):

* ``never done`` - no episode ended by the scenario's done condition (all hit ``max_steps``);
* ``done on first step`` - an episode was done after its first step (an ``all`` with no tests,
  a test that is true at the start state, ...);
* ``reward always zero`` - not one step of any episode was rewarded;
* ``reward farming`` - within some window of :data:`FARM_WINDOW` steps (or the whole episode
  when shorter, at least :data:`FARM_MIN_WINDOW`), at least :data:`FARM_REWARDED` of the steps
  were rewarded and the cumulative reward grew linearly (R^2 >= :data:`FARM_LINEAR`), while the
  game stalled: the window shows at most :data:`FARM_DISTINCT` distinct screens, or distinct
  RAM contents (both hashed per step). Reward that keeps coming while nothing on screen moves
  is what a reward on a timer or a frame counter looks like.

This module is Qt-free (import-linter checks it).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import emucore
from emucore.done_explanation import reasons_text

# ---- agents ----


class Agent:
    """An agent: ``begin`` at each episode's start, ``act`` every step, ``end`` with the return."""

    name = "agent"

    @property
    def env_kwargs(self) -> dict[str, Any]:
        """Extra ``emucore.make`` arguments this agent needs (action or observation type)."""
        return {}

    def begin(self, env: Any, episode: int) -> None:
        """A new episode starts on ``env`` (already reset)."""
        self.env = env

    def act(self, obs: np.ndarray) -> np.ndarray | int | None:
        """The next action; None ends the episode (the agent has nothing more to play)."""
        raise NotImplementedError

    def end(self, total: float, actions: list[Any]) -> None:
        """The episode ended with return ``total`` after playing ``actions``."""


def _buttons(env: Any) -> list[str]:
    return [b or "" for b in env.buttons]


class IdleAgent(Agent):
    """Presses nothing (useful to see what a scenario rewards when the player does nothing)."""

    name = "idle"

    def act(self, obs: np.ndarray) -> np.ndarray:
        return np.zeros(self.env.num_buttons, dtype=np.int8)


class RandomAgent(Agent):
    """Each button pressed with probability 1/2 every step."""

    name = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray) -> np.ndarray:
        return self.rng.integers(0, 2, self.env.num_buttons, dtype=np.int8)


class RightBiasedAgent(Agent):
    """Random, but RIGHT is held with probability ``right`` and the jump buttons pressed sometimes.

    The jump buttons are B (and A, C on Genesis pads) - whichever of them the system has.
    """

    name = "right-biased"
    JUMPS = ("B", "A", "C")

    def __init__(self, seed: int | None = 0, right: float = 0.8, jump: float = 0.25):
        self.rng = np.random.default_rng(seed)
        self.right = right
        self.jump = jump

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        names = _buttons(env)
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
    """

    name = "brute"

    def __init__(self, seed: int | None = 0, explore: float = 0.05, hold: int = 4):
        self.rng = np.random.default_rng(seed)
        self.explore = explore
        self.hold = max(1, hold)
        self.best: list[np.ndarray] = []
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

    def end(self, total: float, actions: list[Any]) -> None:
        if total > self.best_total:
            self.best_total = total
            self.best = [np.asarray(a, dtype=np.int8).copy() for a in actions]


class MovieAgent(Agent):
    """Plays a movie's player-1 keys (line 0, the reset frame, is skipped), then ends the episode.

    It uses ``Actions.ALL`` so that every recorded combination reaches the game unfiltered.
    """

    name = "movie"

    def __init__(self, path: str | Path):
        from emucore.movie import Movie

        self.path = Path(path)
        self.masks = Movie(self.path).get_masks()[1:, 0]

    @property
    def env_kwargs(self) -> dict[str, Any]:
        return {"use_restricted_actions": emucore.Actions.ALL}

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
    import importlib.util

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
    """

    name = "policy"

    def __init__(self, path: str | Path, algo: str | None = None, deterministic: bool = True):
        import stable_baselines3

        self.path = Path(path)
        self.algo = algo or algo_of(self.path) or "PPO"
        cls = getattr(stable_baselines3, self.algo)
        self.model = cls.load(str(self.path), device="cpu")
        self.deterministic = deterministic

    @property
    def env_kwargs(self) -> dict[str, Any]:
        from gymnasium import spaces

        space = self.model.action_space
        kwargs: dict[str, Any] = {}
        if isinstance(space, spaces.Discrete):
            kwargs["use_restricted_actions"] = emucore.Actions.DISCRETE
        elif isinstance(space, spaces.MultiDiscrete):
            kwargs["use_restricted_actions"] = emucore.Actions.MULTI_DISCRETE
        if len(self.model.observation_space.shape) == 1:
            kwargs["obs_type"] = emucore.Observations.RAM
        return kwargs

    def begin(self, env: Any, episode: int) -> None:
        super().begin(env, episode)
        want, have = self.model.observation_space.shape, env.observation_space.shape
        if tuple(want) != tuple(have):
            raise ValueError(f"the policy expects observations of shape {want}, the env gives {have}")

    def act(self, obs: np.ndarray) -> np.ndarray | int:
        action, _ = self.model.predict(obs, deterministic=self.deterministic)
        return action


# ---- the report ----


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
    index: int
    total: float
    length: int
    done_reason: str  # why done fired (emucore.done_explanation), "max steps", "agent finished" or "stopped"
    terminated: bool
    rewards: np.ndarray  # float64, one per step
    masks: np.ndarray  # uint16 button masks actually sent, one per step
    screen_hashes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.uint64))
    ram_hashes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.uint64))

    def keys(self, num_buttons: int) -> np.ndarray:
        """The buttons pressed each step, ``(length, num_buttons)`` bool."""
        return ((self.masks[:, None] >> np.arange(num_buttons, dtype=np.uint16)) & 1).astype(bool)


@dataclass
class Flag:
    name: str  # "never done", "done on first step", "reward always zero", "reward farming"
    detail: str


@dataclass
class RunReport:
    game: str
    state: str | None
    scenario: str | None
    agent: str
    buttons: list[str]
    episodes: list[EpisodeResult] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    best_index: int | None = None
    best_movie: bytes | None = None  # the best episode's .bk2
    stopped: bool = False

    @property
    def returns(self) -> list[float]:
        return [e.total for e in self.episodes]

    @property
    def lengths(self) -> list[int]:
        return [e.length for e in self.episodes]

    @property
    def flag_names(self) -> list[str]:
        return [f.name for f in self.flags]

    def save_best(self, path: str | Path) -> Path:
        """Writes the best episode's ``.bk2`` (replay it with ``emucore.movie.replay``)."""
        if self.best_movie is None:
            raise ValueError("no episode was recorded")
        path = Path(path)
        path.write_bytes(self.best_movie)
        return path


# ---- flags ----

FARM_WINDOW = 300
FARM_MIN_WINDOW = 30
FARM_REWARDED = 0.8
FARM_DISTINCT = 0.1
FARM_LINEAR = 0.95


def _linear_r2(values: np.ndarray) -> float:
    x = np.arange(len(values), dtype=np.float64)
    if np.ptp(values) == 0:
        return 0.0
    r = np.corrcoef(x, values)[0, 1]
    return float(r * r)


def farming_window(episode: EpisodeResult) -> tuple[int, int] | None:
    """The first ``(start, stop)`` window in which ``episode`` farms reward (see the module doc)."""
    n = episode.length
    window = min(FARM_WINDOW, n)
    if window < FARM_MIN_WINDOW:
        return None
    rewarded = episode.rewards > 0
    stride = max(1, window // 4)
    for start in range(0, n - window + 1, stride):
        stop = start + window
        if rewarded[start:stop].mean() < FARM_REWARDED:
            continue
        limit = max(2, int(FARM_DISTINCT * window))
        stalled = (
            len(np.unique(episode.screen_hashes[start:stop])) <= limit
            or len(np.unique(episode.ram_hashes[start:stop])) <= limit
        )
        if stalled and _linear_r2(np.cumsum(episode.rewards[start:stop])) >= FARM_LINEAR:
            return start, stop
    return None


def scenario_flags(episodes: list[EpisodeResult], max_steps: int) -> list[Flag]:
    """The likely scenario bugs these episodes show."""
    flags: list[Flag] = []
    if not episodes:
        return flags
    full = [e for e in episodes if e.done_reason == "max steps"]
    if full and not any(e.terminated for e in episodes):
        flags.append(Flag("never done", f"no episode was done within {max_steps} steps"))
    first = [e for e in episodes if e.terminated and e.length == 1]
    if first:
        flags.append(Flag("done on first step", f"episodes {[e.index for e in first]} were done after one step "
                          f"(episode {first[0].index}: {first[0].done_reason})"))
    if all(not np.any(e.rewards) for e in episodes):
        steps = sum(e.length for e in episodes)
        flags.append(Flag("reward always zero", f"no reward in {steps} steps"))
    for e in episodes:
        found = farming_window(e)
        if found is not None:
            start, stop = found
            flags.append(Flag(
                "reward farming",
                f"episode {e.index}: reward on {int((e.rewards[start:stop] > 0).sum())} of steps "
                f"{start + 1}-{stop} while the game stalled (screen or RAM repeating)",
            ))
            break
    return flags


# ---- the runner ----


def _hash(array: np.ndarray) -> int:
    return int.from_bytes(hashlib.blake2b(array.tobytes(), digest_size=8).digest(), "little")


def run_episodes(
    game: str | Path,
    *,
    state: str | None = None,
    scenario: str | None = None,
    agent: Agent,
    episodes: int = 1,
    max_steps: int = 4500,
    inttype: Any = None,
    on_step: Callable[[StepEvent], None] | None = None,
    on_episode: Callable[[EpisodeResult], None] | None = None,
    stop: threading.Event | None = None,
) -> RunReport:
    """Plays ``episodes`` episodes of ``game`` headless with ``agent`` and reports on them.

    Args:
        game: The integration's folder (what the studio has open), or a name looked up in ``inttype``.
        state: A state name or path (None: the game's default state).
        scenario: A scenario name or ``.json`` path (None: ``scenario.json``).
        agent: The agent; its ``env_kwargs`` pick the action and observation types.
        episodes: Episodes to play.
        max_steps: Steps after which an episode is cut ("max steps").
        inttype: Integration sets searched (default: all).
        on_step: Called after every step (from the calling thread).
        on_episode: Called after every episode.
        stop: Set it to stop after the current step (the episode is kept as "stopped").

    Returns:
        The episodes, the flags and the best episode's movie.
    """
    inttype = emucore.data.Integrations.ALL if inttype is None else inttype
    env = emucore.make(
        game,
        state=emucore.State.DEFAULT if state is None else state,
        scenario=scenario,
        inttype=inttype,
        render_mode=None,
        **agent.env_kwargs,
    )
    report = RunReport(env.gamename, state, scenario, agent.name, _buttons(env))
    folder = Path(tempfile.mkdtemp(prefix="agent-run-"))
    best_path: Path | None = None
    try:
        for index in range(episodes):
            if stop is not None and stop.is_set():
                report.stopped = True
                break
            path = folder / f"episode-{index}.bk2"
            env.record_movie(str(path))
            obs, _ = env.reset()
            agent.begin(env, index)
            rewards: list[float] = []
            masks: list[int] = []
            actions: list[Any] = []
            screens: list[int] = []
            rams: list[int] = []
            total = 0.0
            reason = "max steps"
            terminated = False
            for step in range(1, max_steps + 1):
                if stop is not None and stop.is_set():
                    reason, report.stopped = "stopped", True
                    break
                action = agent.act(obs)
                if action is None:
                    reason = "agent finished"
                    break
                mask = env.data.actions.decode(action, env.use_restricted_actions, 1)[0]
                obs, reward, terminated, _, _ = env.step(action)
                reward = float(reward)
                total += reward
                rewards.append(reward)
                masks.append(mask)
                actions.append(np.array(action, copy=True))
                screens.append(_hash(obs))
                rams.append(_hash(env.get_ram()))
                if on_step is not None:
                    on_step(StepEvent(index, step, reward, total, obs))
                if terminated:
                    reason = reasons_text(env.data.explain_done())
                    break
            env.movie.close()
            env.movie = None
            result = EpisodeResult(
                index, total, len(rewards), reason, bool(terminated),
                np.asarray(rewards, dtype=np.float64), np.asarray(masks, dtype=np.uint16),
                np.asarray(screens, dtype=np.uint64), np.asarray(rams, dtype=np.uint64),
            )
            agent.end(total, actions)
            report.episodes.append(result)
            if report.best_index is None or total > report.episodes[report.best_index].total:
                report.best_index = index
                if best_path is not None:
                    best_path.unlink(missing_ok=True)
                best_path = path
            else:
                path.unlink(missing_ok=True)
            if on_episode is not None:
                on_episode(result)
        if best_path is not None:
            report.best_movie = best_path.read_bytes()
        report.flags = scenario_flags(report.episodes, max_steps)
    finally:
        if env.movie is not None:
            env.movie.discard()
            env.movie = None
        env.close()
        shutil.rmtree(folder, ignore_errors=True)
    return report


AGENTS: dict[str, type[Agent]] = {
    "Random": RandomAgent,
    "Right-biased": RightBiasedAgent,
    "Brute": BruteAgent,
    "Idle": IdleAgent,
    "Movie (.bk2)": MovieAgent,
    "Policy (SB3 .zip)": PolicyAgent,
}
"""The agents the dialog offers, by title (Movie and Policy take a file path)."""


def make_agent(title: str, *, seed: int = 0, path: str | None = None) -> Agent:
    """An agent of :data:`AGENTS` by title."""
    cls = AGENTS[title]
    if cls in (MovieAgent, PolicyAgent):
        if not path:
            raise ValueError(f"{title} needs a file")
        return cls(path)
    if cls is IdleAgent:
        return IdleAgent()
    return cls(seed)
