"""A RetroEnv lent to the batch step (emucore.libretro.native_batch): its slot filled, and its episode handed back.

While lent, the env's episode lives in C: the evaluator's totals and delta history, the step count, the sticky
draws, an autoreset. ``lend`` fills the slot, or refuses an env whose step needs Python (a Lua or uncompiled
scenario, a movie, two players, RAM observations, a rotated or cropped screen without a plan, a live window);
``give_back`` writes what C did into the env's Python state, so that the env is exactly what stepping it alone
would have made it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from emucore.enums import Actions, Observations
from emucore.errors import EmulatorClosedError
from emucore.libretro.flags import mask_table
from emucore.libretro.native_batch import NativeBatch
from emucore.scenario.compiled import CompiledScenario

if TYPE_CHECKING:
    from emucore.env.retro_env import RetroEnv

MAX_TABLE = 1 << 16  # a Discrete action space this large is decoded in Python


@dataclass
class Lent:
    """What the vector env keeps of an env lent to C."""

    compiled: CompiledScenario
    rng_state: Mapping[str, Any] | None  # the env's generator before the draws the slot holds (sticky_prob)


class ActionTables:
    """Each action space's decoding for C: the choices of each action column and the table from the
    combined index to port 0's buttons (NULL: the index is the buttons). Shared by the envs of one game."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, Actions], tuple[Any, np.ndarray, Any]] = {}

    def decoding(self, env: RetroEnv) -> tuple[Any, np.ndarray, Any] | None:
        """(table pointer or None, radix, what keeps the table alive), or None where C cannot decode the action."""
        groups, mode = env.evaluator.actions, env.use_restricted_actions
        key = (id(groups), mode)
        made = self._made.get(key)
        if made is not None and made[2][0] is groups:
            return made
        if mode in (Actions.FILTERED, Actions.ALL):
            table = groups.filter_pointer if mode is Actions.FILTERED else None
            made = (table, np.full(env.num_buttons, 2, dtype=np.int64), (groups,))
        else:
            size = groups.discrete_size
            if size > MAX_TABLE:
                return None
            masks = np.array([groups.decode(i, Actions.DISCRETE, 1)[0] for i in range(size)], dtype=np.uint16)
            radix = np.array([size], dtype=np.int64) if mode is Actions.DISCRETE else groups.choice_counts(1)
            made = (mask_table(masks), np.ascontiguousarray(radix, dtype=np.int64), (groups, masks))
        self._made[key] = made
        return made


def columns(env: RetroEnv) -> int:
    """The int64 columns of one env's action row."""
    mode = env.use_restricted_actions
    if mode is Actions.DISCRETE:
        return 1
    if mode is Actions.MULTI_DISCRETE:
        return len(env.evaluator.actions.groups)
    return env.num_buttons


def lend(env: RetroEnv, batch: NativeBatch, index: int, tables: ActionTables, autoreset: bool,
         same_step: bool) -> Lent | None:
    """Fills slot ``index`` from ``env``; None, with the slot left empty, where its step needs Python."""
    batch.clear(index)
    state = env.episode_state
    if (state.players != 1 or state.obs_type is not Observations.IMAGE or state.movie is not None
            or env.recorder.movie_path is not None or env.render_mode == "human" or state.img is None
            or state.evaluator.custom):
        return None
    em = state.em
    try:
        session = em.session
        host = session.host_pointer
    except EmulatorClosedError:
        return None
    plan = state.plan
    if em.get_rotation() % 4 or (plan is None and not env.observer.plain_screen):
        return None
    decoding = tables.decoding(env)
    compiled = state.evaluator.native_program()
    if decoding is None or compiled is None:
        return None
    table, radix, table_keep = decoding
    slot = batch.slots[index]
    preprocessing = state.preprocessing
    slot.frame_skip = preprocessing.frame_skip
    slot.pool = int(preprocessing.pools)
    slot.reward_slot = compiled.slot_of(0)
    slot.reset_in_c = int(not em.core_library.reload_on_state_load)
    slot.same_step = int(same_step)
    slot.ram_data, slot.ram_size, slot.memory_maps_sets = session.memory_location
    slot.check_ram = int(not session.memory_maps)
    slot.sticky_prob = preprocessing.sticky_prob
    lent = Lent(compiled, None)
    batch.next_draw[index] = 0
    if preprocessing.sticky_prob:
        draw(env, batch, index, lent)
    slot.max_steps = state.max_episode_steps or 0
    height, width = env.observation_space.shape[:2]  # type: ignore[index]  # a Box's shape
    slot.screen_width, slot.screen_height = width, height
    slot.autoreset = int(autoreset)
    slot.sticky_ready = int(state.sticky_ready)
    slot.elapsed = state.elapsed_steps
    slot.frames = slot.resets = slot.evaluated_any = 0
    slot.done = int(state.evaluator.done)
    native = compiled.native
    batch.point(index, host=host, program=native.program, obs=None if plan is None else plan.pointer, table=table,
                radix=radix, state=state.initial_state, sums=native.sums, keep=[compiled, plan, table_keep, session])
    return lent


def draw(env: RetroEnv, batch: NativeBatch, index: int, lent: Lent) -> None:
    """Fills env ``index``'s draws from its generator, keeping the generator's state before them."""
    generator = env.np_random
    lent.rng_state = generator.bit_generator.state
    generator.random(out=batch.draws[index])
    batch.next_draw[index] = 0


def give_back(env: RetroEnv, batch: NativeBatch, index: int, lent: Lent) -> bool:
    """Writes what C did to env ``index`` into its Python state and empties its slot; whether an
    autoreset is due (the last step ended the episode)."""
    slot = batch.slots[index]
    batch.clear(index)
    state = env.episode_state
    if slot.resets:
        state.evaluator.reset()
    state.evaluator.native_ran(lent.compiled, slot.frames if slot.evaluated_any else 0, bool(slot.done))
    state.elapsed_steps = int(slot.elapsed)
    state.sticky_ready = bool(slot.sticky_ready)
    state.img = batch.observations[index].copy()
    if lent.rng_state is not None:  # the generator as if it had drawn only the draws used, one per step
        generator = env.np_random
        generator.bit_generator.state = lent.rng_state
        used = int(batch.next_draw[index])
        if used:
            generator.random(used)
    return bool(slot.autoreset)
