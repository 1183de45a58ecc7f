"""``RetroEnv``: a Gymnasium env over an integration, step for step the same as stable-retro's.

The construction, reset and step sequences are stable-retro 1.0.1's (env-api.md §4, §7, §13), so
the same core, ROM, state and actions give identical observations, rewards, flags and info.
Differences, all deliberate: several envs may live in one process; ``render_mode`` defaults to
None (no window unless asked); MULTI_DISCRETE slices player 2's choices by group count.
"""

from __future__ import annotations

import os
import warnings
import weakref
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium.utils.ezpickle import EzPickle

from emucore import data as retro_data
from emucore.enums import Actions, Observations, State
from emucore.env.episode_state import EpisodeState, Forwarded
from emucore.env.frame_skip import Preprocessing, checked_step_limit
from emucore.env.game_files import game_data_sources, game_metadata
from emucore.env.observing import Observer
from emucore.env.recording import MovieRecorder
from emucore.env.registration import made_spec
from emucore.env.state_loading import StateFiles
from emucore.env.stepping import Stepper
from emucore.host.emulator import Emulator
from emucore.libretro import mask_table
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.load_checks import check_script_functions_defined
from emucore.scenario.loader import load_game_data
from emucore.systems import system_for_path

if TYPE_CHECKING:
    from emucore.env.viewer import ImageViewer
    from emucore.movie import Movie
    from emucore.retro.gamedata import GameData

_ARGUMENTS = ("game", "state", "scenario", "info", "use_restricted_actions", "record", "players", "inttype",
              "obs_type", "render_mode", "core")  # __init__'s positional ones, in order


class RetroEnv(gym.Env, EzPickle):
    """A game as a Gymnasium environment (stable-retro's ``RetroEnv`` API).

    Its parts: :attr:`evaluator` (the integration's variables, reward and done), :attr:`episode_state` (the
    emulator and the episode in progress, typed, which the parts below share), :attr:`stepper`,
    :attr:`observer`, :attr:`recorder` and :attr:`state_files`; ``env.data`` is stable-retro's ``GameData``.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 60, "video.frames_per_second": 60.0}

    # stable-retro's attributes, kept where they are used
    img: Forwarded[np.ndarray | None] = Forwarded("episode_state", "img")
    ram: Forwarded[np.ndarray | None] = Forwarded("episode_state", "ram")
    movie: Forwarded[Movie | None] = Forwarded("episode_state", "movie")
    multi_rewards: Forwarded[bool] = Forwarded("episode_state", "multi_rewards")
    initial_state: Forwarded[bytes | None] = Forwarded("episode_state", "initial_state")
    statename: Forwarded[str | None] = Forwarded("episode_state", "statename")
    preprocessing: Forwarded[Preprocessing] = Forwarded("episode_state", "preprocessing")
    max_episode_steps: Forwarded[int | None] = Forwarded("episode_state", "max_episode_steps")
    movie_path: Forwarded[str | None] = Forwarded("recorder", "movie_path")
    movie_id: Forwarded[int] = Forwarded("recorder", "movie_id")
    viewer: Forwarded[ImageViewer | None] = Forwarded("observer", "viewer")

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
        self.inttype = inttype
        self.players = players
        obs_type = Observations(obs_type)
        preprocessing = Preprocessing.checked(
            frame_skip, max_pool, obs_size, grayscale, image=obs_type is Observations.IMAGE, sticky_prob=sticky_prob,
        )
        step_limit = checked_step_limit(max_episode_steps)
        self.use_restricted_actions = Actions(use_restricted_actions)
        self.render_mode = render_mode
        self._data: GameData | None = None

        rom_path = retro_data.get_original_romfile_path(game, inttype)
        self.metadata_json = game_metadata(game, inttype)
        # a name, or a game folder's path (then only that folder is used)
        self.state_files = StateFiles(game, self.gamename, inttype, self.metadata_json, players)
        statename = self.state_files.name_of(state)
        initial_state, state_path = None, None
        if statename:
            statename, initial_state, state_path = self.state_files.read(statename, inttype)

        self.system = system_for_path(rom_path).name
        em = self.em = Emulator(rom_path, core=core)
        try:
            if initial_state:
                em.check_state(initial_state, source=state_path)  # at make, naming the file
            em.step()  # stable-retro runs one frame after configure_data
            self.evaluator = self._load_game_data(game, inttype, info, scenario)
            plan = (preprocessing.plan(em, self.evaluator.scenario.crop(0))
                    if obs_type is Observations.IMAGE else None)
        except BaseException:
            em.close()
            raise
        self.episode_state = EpisodeState(em, self.evaluator, players, obs_type, preprocessing, plan, step_limit,
                                          initial_state, statename)
        self.observer = Observer(self.episode_state)
        self.recorder = MovieRecorder(self.episode_state, self.gamename)
        self.buttons = list(em.system.buttons)
        self.num_buttons = len(self.buttons)
        self.button_combos = self.evaluator.actions.valid_actions()
        self.action_space = self._action_space()
        # One player's MultiBinary flags go to C as they are (ALL) or through FILTERED's table.
        mode = self.use_restricted_actions
        flag_table = (
            None if players != 1 or mode not in (Actions.FILTERED, Actions.ALL)
            else self.evaluator.actions.filter_pointer if mode is Actions.FILTERED else mask_table(None)
        )
        if obs_type is Observations.RAM:
            shape = self.get_ram().shape
        else:
            shape = self.observer.observe(pool=False).shape
            self.episode_state.img = None
        width, height = em.get_resolution()
        self.stepper = Stepper(self.episode_state, self.observer, mode, partial(_np_random, weakref.ref(self)),
                               flag_table, whole_screen=shape[:2] == (height, width))
        self.observation_space = gym.spaces.Box(low=0, high=255, shape=shape, dtype=np.uint8)
        self.metadata = dict(self.metadata, render_fps=em.get_screen_rate())
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
        em = self.em  # the evaluator holds the emulator, not the env
        loaded = load_game_data(sources, em.system, lambda: em.memory)
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
        em, state, recorder = self.em, self.episode_state, self.recorder
        if state.initial_state:
            em.set_state(state.initial_state)
        for player in range(self.players):
            em.set_button_mask(0, player)
        # A power-on movie must start from the state before the reset frame, which it replays as line 0.
        power_on_start = em.get_state() if recorder.movie_path is not None and not state.initial_state else None
        em.step()
        if recorder.movie_path is not None:
            recorder.start_episode_movie()
            if power_on_start is not None:
                assert state.movie is not None  # just started
                state.movie.set_state(power_on_start)
        if state.movie is not None:
            state.movie.step()
        obs, info = self.stepper.start_episode()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action) -> tuple[np.ndarray, Any, bool, bool, dict]:
        stepper = self.stepper
        obs, reward, done, info = stepper.step(action)
        if self.render_mode == "human":
            self.render()
        return obs, reward, bool(done), stepper.time_is_up(), info

    def step_into(self, action, out: np.ndarray) -> tuple[Any, bool, bool, dict]:
        """``step()`` writing the observation into ``out`` (for vector envs): no new array."""
        reward, done, info = self.stepper.step_into(action, out)
        return reward, bool(done), self.stepper.time_is_up(), info

    def step_masks(self, masks: list[int]) -> tuple[Any, bool]:
        """A step from per-player button masks, with no observation or info built.

        For replays that only need rewards and done: the emulation and the evaluation are the
        same as ``step()``'s; ``get_screen()`` and ``compute_step()`` still work afterwards.
        """
        return self.stepper.step_masks(masks)

    def compute_step(self) -> tuple[Any, bool, dict]:
        return self.stepper.reward(), self.evaluator.is_done(), self.evaluator.lookup_all()

    # ---- observations ----

    def get_screen(self, player: int = 0, apply_rotation: bool = False) -> np.ndarray:
        """The frame cropped by the player's crop (stable-retro's rules), optionally rotated."""
        return self.observer.get_screen(player, apply_rotation)

    def get_ram(self) -> np.ndarray:
        """All RAM blocks in address order, raw bytes."""
        return self.observer.get_ram()

    def render(self):
        return self.observer.render(self.render_mode, self.gamename)

    # ---- states and movies ----

    def load_state(self, statename: str, inttype: Any = None) -> None:
        """Reads a state (name or path) into ``initial_state``; it applies at the next reset()."""
        statename, initial_state, path = self.state_files.read(statename, inttype)
        self.em.check_state(initial_state, source=path)
        self.episode_state.initial_state, self.episode_state.statename = initial_state, statename

    def record_movie(self, path: str) -> None:
        self.recorder.record_movie(path)

    def auto_record(self, path: str | None = None) -> None:
        self.recorder.auto_record(path)

    def stop_record(self) -> None:
        self.recorder.stop_record()

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
        state = getattr(self, "episode_state", None)  # None: __init__ raised
        if state is not None and state.movie is not None:
            state.movie.close()
            state.movie = None
        if getattr(self, "em", None) is not None:
            self.em.close()
        if getattr(self, "observer", None) is not None:
            self.observer.close()


def _np_random(env: weakref.ref[RetroEnv]) -> np.random.Generator:
    """The env's generator now (``reset(seed=...)`` replaces it), for its stepper (a weak reference: no cycle)."""
    found = env()
    assert found is not None  # it is stepping
    return found.np_random
