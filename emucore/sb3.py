"""``RetroVecEnv``: Stable-Baselines3's ``VecEnv`` over :class:`emucore.env.RetroVectorEnv`.

SB3 takes its own ``VecEnv`` rather than a Gymnasium vector env, so without this each env would need a
process (``SubprocVecEnv``). Here the N emulators step on RetroVectorEnv's threads in one process, with
Gymnasium's same-step autoreset: an env whose episode ends is reset on its worker thread in the step that
ended it. What SB3 expects of a ``VecEnv`` (its DummyVecEnv and SubprocVecEnv behave so):

- ``reset()`` returns the observations only; its infos go to ``reset_infos``; the seeds set by ``seed(s)``
  (``s + i`` for env ``i``) and the options set by ``set_options`` apply to that one reset;
- ``step()`` returns ``(observations, rewards, dones, infos)``, ``dones`` being terminated or truncated and
  ``infos`` a list of each env's dict (its data.json variables, as the single env gives them);
- an env that is done is already reset: its row of observations is the reset one, the last one is
  ``infos[i]["terminal_observation"]``, and ``infos[i]["TimeLimit.truncated"]`` says the episode was
  cut short (truncated, not terminated) for SB3 to bootstrap the value;
- ``get_attr``, ``set_attr`` and ``env_method`` reach each index's :class:`emucore.RetroEnv`.

>>> from stable_baselines3 import PPO
>>> from emucore.sb3 import RetroVecEnv
>>> venv = RetroVecEnv("StudioDemo-Genesis", 2, frame_skip=4, grayscale=True, obs_size=(84, 84))
>>> model = PPO("CnnPolicy", venv, n_steps=16, batch_size=32, n_epochs=1).learn(32)
>>> venv.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from emucore.errors import MissingExtraError

try:  # the rl extra brings both (and the env extra's Gymnasium with them)
    from gymnasium.vector import AutoresetMode
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

    from emucore.env import RetroEnv, RetroVectorEnv
except ModuleNotFoundError as exc:
    root = (exc.name or "").split(".")[0]
    if root not in ("gymnasium", "stable_baselines3", "torch"):
        raise
    module = "Gymnasium" if root == "gymnasium" else "stable-baselines3"
    raise MissingExtraError("emucore.sb3 (RetroVecEnv)", module, "rl") from exc

if TYPE_CHECKING:
    import gymnasium as gym

__all__ = ["RetroVecEnv"]


class RetroVecEnv(VecEnv):
    """``num_envs`` copies of ``game`` stepped on ``num_threads`` threads (default: the CPUs) as one SB3
    ``VecEnv``; ``make_kwargs`` go to :func:`emucore.make` (state, frame_skip, grayscale, obs_size, ...)."""

    def __init__(self, game: str, num_envs: int, *, num_threads: int | None = None, **make_kwargs: Any):
        # copy=True: SB3 keeps the previous step's observations (PPO's _last_obs) while the envs step again
        self.venv = RetroVectorEnv(game, num_envs, num_threads=num_threads, copy=True,
                                   autoreset_mode=AutoresetMode.SAME_STEP, **make_kwargs)
        try:
            super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        except BaseException:
            self.venv.close()
            raise

    @property
    def envs(self) -> list[RetroEnv]:
        """The emulators' envs, one per index."""
        return self.venv.envs

    def reset(self) -> np.ndarray:
        options = [options or None for options in self._options]
        obs, self.reset_infos = self.venv.reset_each(seed=list(self._seeds), options=options)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self.venv.step_async(actions)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminations, truncations, env_infos = self.venv.step_wait_each()
        dones = terminations | truncations
        infos: list[dict[str, Any]] = []
        for index, info in enumerate(env_infos):
            if dones[index]:
                final_obs, final_info = info.pop("final_obs"), info.pop("final_info")
                self.reset_infos[index] = info  # what the same-step reset returned
                info = {**final_info, "terminal_observation": final_obs}
            info["TimeLimit.truncated"] = bool(truncations[index] and not terminations[index])
            infos.append(info)
        return obs, rewards, dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Each env's screen (an emulator always has one, whatever the render mode)."""
        return list(self.venv.render())

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(env, attr_name) for env in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for env in self._targets(indices):
            setattr(env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        return [getattr(env, method_name)(*method_args, **method_kwargs) for env in self._targets(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """False for each: the envs are bare RetroEnvs (wrap the VecEnv instead, e.g. in VecMonitor)."""
        return [False for _ in self._targets(indices)]

    def _targets(self, indices: VecEnvIndices) -> list[RetroEnv]:
        return [self.venv.envs[index] for index in self._get_indices(indices)]
