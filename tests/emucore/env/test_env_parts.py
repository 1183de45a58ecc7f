"""RetroEnv's parts share one typed EpisodeState: stable-retro's attribute names on the env are its values, and the
vector env's batch step reads it (and the env's public parts), never another object's private attributes."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import emucore
from emucore.env.episode_state import EpisodeState
from tests.conftest import require_core

ENV_PACKAGE = Path(emucore.__file__).parent / "env"


def test_stable_retros_attribute_names_are_the_episode_states_values(genesis_rom):
    require_core("genesis_plus_gx")
    env = emucore.make("StudioDemo-Genesis", use_restricted_actions=emucore.Actions.ALL)
    try:
        state = env.unwrapped.episode_state
        assert type(state) is EpisodeState and state.em is env.unwrapped.em
        assert state.evaluator is env.unwrapped.evaluator
        env.reset()
        start = env.unwrapped.em.get_state()
        env.unwrapped.initial_state = start  # what stable-retro scripts do before a reset
        assert state.initial_state is start
        env.unwrapped.multi_rewards = True
        assert state.multi_rewards is True
        env.step(np.zeros(12, dtype=np.int8))
        assert env.unwrapped.img is state.img and state.elapsed_steps == 1
    finally:
        env.close()


def _private_reads_of_others(path: Path) -> list[str]:
    """``x._name`` where ``x`` is not ``self`` (a module's own private names, ``_native`` modules excepted)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_batch_step_reads_no_private_attribute_of_an_env_or_the_vector_env():
    assert [hit for name in ("batch_slots.py", "vector_native.py")
            for hit in _private_reads_of_others(ENV_PACKAGE / name)] == []
