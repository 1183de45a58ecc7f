"""``RetroEnv``: a Gymnasium env over an integration, step for step the same as stable-retro's.

The construction, reset and step sequences are stable-retro 1.0.1's (env-api.md §4, §7, §13), so
the same core, ROM, state and actions give identical observations, rewards, flags and info.
Differences, all deliberate: several envs may live in one process; ``render_mode`` defaults to
None (no window unless asked); MULTI_DISCRETE slices player 2's choices by group count.
"""

from __future__ import annotations

import os
import warnings
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium.utils.ezpickle import EzPickle

from emucore import data as retro_data
from emucore.enums import Actions, Observations, State
from emucore.env.frame_skip import Preprocessing, checked_step_limit
from emucore.env.frame_stepping import FrameStepping
from emucore.env.game_files import game_data_sources, game_metadata
from emucore.env.observing import Observing
from emucore.env.recording import MovieRecording
from emucore.env.registration import made_spec
from emucore.env.state_loading import StateLoading
from emucore.host.emulator import Emulator
from emucore.libretro import mask_table
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.load_checks import check_script_functions_defined
from emucore.scenario.loader import load_game_data
from emucore.systems import system_for_path

if TYPE_CHECKING:
    from emucore.retro.gamedata import GameData

_ARGUMENTS = ("game", "state", "scenario", "info", "use_restricted_actions", "record", "players", "inttype",
              "obs_type", "render_mode", "core")  # __init__'s positional ones, in order


class RetroEnv(FrameStepping, Observing, MovieRecording, StateLoading, gym.Env, EzPickle):
    """A game as a Gymnasium environment (stable-retro's ``RetroEnv`` API)."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 60, "video.frames_per_second": 60.0}

    def __init__(
        self,
        game: str | os.PathLike[str],
        state: State | str | None = State.DEFAULT,
        scenario: str | None = None,
        info: str | None = None,
        use_restricted_actions: Actions = Actions.FILTERED,
        record: bool | str = False,
        players: int = 1,
        inttype: Any = None,
        obs_type: Observations = Observations.IMAGE,
        render_mode: str | None = None,
        core: str | None = None,
        *,
        frame_skip: int = 1,
        max_pool: bool = True,
        obs_size: tuple[int, int] | None = None,
        grayscale: bool = False,
        sticky_prob: float = 0.0,
        max_episode_steps: int | None = None,
    ):
        inttype = retro_data.Integrations.STABLE if inttype is None else retro_data.resolve(inttype)
        EzPickle.__init__(
            self, game, state, scenario, info, use_restricted_actions, record, players, inttype, obs_type,
            render_mode, core, frame_skip=frame_skip, max_pool=max_pool, obs_size=obs_size, grayscale=grayscale,
            sticky_prob=sticky_prob, max_episode_steps=max_episode_steps,
        )
        if render_mode not in (None, "human", "rgb_array"):
            raise ValueError(f"render_mode must be None, 'human' or 'rgb_array', not {render_mode!r}")
        if players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, not {players!r}")
        game = os.fspath(game)
        if retro_data.is_game_folder_path(game):
            game = os.path.abspath(os.path.expanduser(game))
        self.gamename = retro_data.game_name(game)
        self._game_lookup = game  # a name, or a game folder's path (then only that folder is used)
        self.inttype = inttype
        self.players = players
        self._obs_type = Observations(obs_type)
        self._plan = None
        self.preprocessing = Preprocessing.checked(
            frame_skip, max_pool, obs_size, grayscale, image=self._obs_type is Observations.IMAGE,
            sticky_prob=sticky_prob,
        )
        self.max_episode_steps = checked_step_limit(max_episode_steps)
        self._elapsed_steps = 0
        self._sticky_ready = False  # an action of this episode is held: the next step may keep it a frame
        self.use_restricted_actions = Actions(use_restricted_actions)
        self.render_mode = render_mode
        self.img: np.ndarray | None = None
        self.ram: np.ndarray | None = None
        self.viewer = None
        self.multi_rewards = False
        self.initial_state: bytes | None = None
        self.statename: str | None = None
        self.movie = None
        self.movie_id = 0
        self.movie_path: str | None = None
        self._state_path: str | None = None
        self._data: GameData | None = None

        rom_path = retro_data.get_original_romfile_path(game, inttype)
        self.metadata_json = game_metadata(game, inttype)
        self.statename = self._default_state_name(state)
        if self.statename:
            self.load_state(self.statename, inttype)

        self.system = system_for_path(rom_path).name
        self.em = Emulator(rom_path, core=core)
        try:
            if self.initial_state:
                self.em.check_state(self.initial_state, source=self._state_path)  # at make, naming the file
            self.em.step()  # stable-retro runs one frame after configure_data
            self.evaluator = self._load_game_data(game, inttype, info, scenario)
            self._plan = (
                self.preprocessing.plan(self.em, self.evaluator.scenario.crop(0))
                if self._obs_type is Observations.IMAGE else None
            )
        except BaseException:
            self.em.close()
            raise
        self.buttons = list(self.em.system.buttons)
        self.num_buttons = len(self.buttons)
        self.button_combos = self.evaluator.actions.valid_actions()
        self.action_space = self._action_space()
        # One player's MultiBinary flags go to C as they are (ALL) or through FILTERED's table.
        self._flag_shape = (self.num_buttons,)
        mode = self.use_restricted_actions
        self._flag_table = (
            None if players != 1 or mode not in (Actions.FILTERED, Actions.ALL)
            else self.evaluator.actions.filter_pointer if mode is Actions.FILTERED else mask_table(None)
        )
        if self._obs_type is Observations.RAM:
            shape = self.get_ram().shape
        else:
            shape = self._observe(pool=False).shape
            self.img = None
        self._frames_loop = (self.preprocessing.frame_skip > 1 or self._plan is not None
                             or self.preprocessing.sticky_prob > 0)
        # the step in one C call (see _step_in_one_call) needs one player's flags and the whole screen
        width, height = self.em.get_resolution()
        whole = not self._frames_loop and shape[:2] == (height, width)
        self._screen_shape = (height, width, 3) if whole and self._flag_table is not None else None
        self.observation_space = gym.spaces.Box(low=0, high=255, shape=shape, dtype=np.uint8)
        self.metadata = dict(self.metadata, render_fps=self.em.get_screen_rate())
        self.spec = made_spec(self.gamename, dict(zip(_ARGUMENTS, self._ezpickle_args), **self._ezpickle_kwargs))
        if record is True:
            self.auto_record()
        elif record is not False:
            self.auto_record(record)

    @property
    def data(self) -> GameData:
        """stable-retro's ``env.data``: its ``GameData`` API (variables, memory search, ``load``, ...) over this
        env's :attr:`evaluator`, which is what the step itself calls."""
        data = self._data
        if data is None:
            # stable-retro's API sits on top of the env (emucore.retro is a layer above): named, imported here
            data = self._data = import_module("emucore.retro.gamedata").GameData.bound_to(self.evaluator)
        return data

    # ---- construction ----

    def _load_game_data(self, game: str, inttype: Any, info: str | None, scenario: str | None) -> Evaluator:
        sources = game_data_sources(game, inttype, info, scenario)
        loaded = load_game_data(sources, self.em.system, lambda: self.em.memory)
        for message, category in loaded.warnings:
            warnings.warn(message, category, stacklevel=4)
        check_script_functions_defined(loaded.data.scenario, loaded.data.lua, sources.scenario_path or Path(game))
        return loaded.data

    def _action_space(self) -> gym.Space:
        groups = self.evaluator.actions
        if self.use_restricted_actions is Actions.DISCRETE:
            return gym.spaces.Discrete(groups.discrete_size**self.players)
        if self.use_restricted_actions is Actions.MULTI_DISCRETE:
            return gym.spaces.MultiDiscrete(groups.choice_counts(self.players))
        return gym.spaces.MultiBinary(self.num_buttons * self.players)

    # ---- the episode ----

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if self.initial_state:
            self.em.set_state(self.initial_state)
        for player in range(self.players):
            self.em.set_button_mask(0, player)
        # A power-on movie must start from the state before the reset frame, which it replays as line 0.
        power_on_start = self.em.get_state() if self.movie_path is not None and not self.initial_state else None
        self.em.step()
        if self.movie_path is not None:
            self._start_episode_movie()
            if power_on_start is not None:
                self.movie.set_state(power_on_start)
        if self.movie is not None:
            self.movie.step()
        return self._start_episode()

    def _start_episode(self) -> tuple[np.ndarray, dict]:
        """The reset after its frame ran: the first evaluation of an episode and its observation."""
        self.evaluator.reset()
        self.evaluator.update_ram()
        self._elapsed_steps = 0
        self._sticky_ready = False
        if self.render_mode == "human":
            self.render()
        return self._observe(pool=False), {}

    def step(self, action) -> tuple[np.ndarray, Any, bool, bool, dict]:
        obs = self._step_in_one_call(action) if self._screen_shape is not None else None
        if obs is not None:
            data = self.evaluator
            reward, done, info = data.current_reward(), data.done, data.info_after_update()
        elif self._frames_loop:
            obs, reward, done, info = self._step_frames(action, None)
        else:
            self._act(action)
            obs = self._update_obs()
            reward, done, info = self._step_result()
        if self.render_mode == "human":
            self.render()
        return obs, reward, bool(done), self._time_is_up(), info

    def step_into(self, action, out: np.ndarray) -> tuple[Any, bool, bool, dict]:
        """``step()`` writing the observation into ``out`` (for vector envs): no new array."""
        if self._frames_loop:
            _, reward, done, info = self._step_frames(action, out)
            return reward, bool(done), self._time_is_up(), info
        self._act(action)
        if self._obs_type is Observations.IMAGE and self._plain_screen:
            self.img = self.em.get_screen(out)
        else:
            out[...] = self._update_obs()
        reward, done, info = self._step_result()
        return reward, bool(done), self._time_is_up(), info

    def _time_is_up(self) -> bool:
        """Counts the step; whether it is the episode's ``max_episode_steps``-th (Gymnasium's TimeLimit)."""
        self._elapsed_steps += 1
        return self.max_episode_steps is not None and self._elapsed_steps >= self.max_episode_steps

    def _step_in_one_call(self, action) -> np.ndarray | None:
        """The common step (one player's 1-byte MultiBinary flags, the whole screen observed, no movie)
        pressed, run and observed in one call into C, then evaluated; None where it does not apply."""
        if self.img is None or not self._flags_for_c(action):
            return None
        shape = self._screen_shape
        assert shape is not None  # step() calls this only then
        obs = np.empty(shape, dtype=np.uint8)
        result = self.em.step_pressed(action, self._flag_table, obs)
        if result < 0:
            return None  # a flag other than 0 or 1, nothing run: the decoder names the problem
        self.img = obs if result == 0 else self.get_screen(0, apply_rotation=True)
        self.evaluator.update_ram()
        return self.img

    def step_masks(self, masks: list[int]) -> tuple[Any, bool]:
        """A step from per-player button masks, with no observation or info built.

        For replays that only need rewards and done: the emulation and the evaluation are the
        same as ``step()``'s; ``get_screen()`` and ``compute_step()`` still work afterwards.
        """
        if self.img is None and self.ram is None:
            raise RuntimeError("Please call env.reset() before env.step()")
        self._hold(masks)
        self.em.step()
        self.evaluator.update_ram()
        return self._reward(), self.evaluator.is_done()

    def _act(self, action) -> None:
        self._frame(self._press(action))

    def _flags_for_c(self, action) -> bool:
        """Whether the action goes to C as it is: one player's 1-byte MultiBinary flags, and no movie
        that needs the decoded masks (C checks that each flag is 0 or 1)."""
        return (
            self._flag_table is not None and self.movie is None and type(action) is np.ndarray
            and action.shape == self._flag_shape and action.dtype.itemsize == 1 and action.dtype.kind in "biu"
            and action.flags.c_contiguous
        )

    def _press(self, action) -> list[int] | None:
        """Holds the action's buttons; its per-player masks, or None from the fast path (no movie to tell)."""
        if self.img is None and self.ram is None:
            raise RuntimeError("Please call env.reset() before env.step()")
        if self._flags_for_c(action) and self.em.press(action, self._flag_table):
            return None
        masks = self.evaluator.actions.decode(action, self.use_restricted_actions, self.players)
        self._hold(masks)
        return masks

    def _hold(self, masks: list[int]) -> None:
        """Holds each player's button mask."""
        for player, mask in enumerate(masks):
            self.em.set_button_mask(mask, player)

    def _held(self) -> list[int]:
        """Each player's buttons held now."""
        return [self.em.get_button_mask(player) for player in range(self.players)]

    def _frame(self, masks: list[int] | None) -> None:
        """One frame with the buttons held, recorded if a movie is, and its evaluation."""
        if self.movie is not None and masks is not None:
            for player, mask in enumerate(masks):
                for i in range(self.num_buttons):
                    self.movie.set_key(i, bool((mask >> i) & 1), player)
            self.movie.step()
        self.em.step()
        self.evaluator.update_ram()

    def _step_result(self) -> tuple[Any, bool, dict]:
        """compute_step() straight after the step's evaluation, reusing the values it read."""
        return self._result(self.evaluator.info_after_update())

    def compute_step(self) -> tuple[Any, bool, dict]:
        return self._result(self.evaluator.lookup_all())

    def _result(self, info: dict) -> tuple[Any, bool, dict]:
        return self._reward(), self.evaluator.is_done(), info

    def _reward(self) -> Any:
        """The last frame's reward: a float, or one per player with ``multi_rewards``."""
        if self.players > 1 and self.multi_rewards:
            return [self.evaluator.current_reward(p) for p in range(self.players)]
        return self.evaluator.current_reward()

    # ---- actions and values ----

    def action_to_array(self, action) -> list[np.ndarray]:
        masks = self.evaluator.actions.decode(action, self.use_restricted_actions, self.players)
        return [self.evaluator.actions.mask_to_array(mask) for mask in masks]

    def get_action_meaning(self, action) -> list:
        meanings = [
            [self.buttons[i] for i in np.flatnonzero(array)] for array in self.action_to_array(action)
        ]
        return meanings[0] if self.players == 1 else meanings

    def set_value(self, name: str, value) -> None:
        self.evaluator.set_value(name, value)

    def close(self) -> None:
        if self.movie is not None:
            self.movie.close()
            self.movie = None
        if getattr(self, "em", None) is not None:
            self.em.close()
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None
