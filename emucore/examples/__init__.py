"""stable-retro's ``retro.examples``: the example modules whose parts user code imports, written for emucore.

- :mod:`~emucore.examples.discretizer`: ``Discretizer(env, combos)``, ``SonicDiscretizer(env)``.
- :mod:`~emucore.examples.brute`: the Brute (``Brute``, ``Node``, ``select_actions``, ``rollout``,
  ``update_tree``, ``Frameskip``, ``TimeLimit``, ``EXPLORATION_PARAM``, ``brute_retro``).
- :mod:`~emucore.examples.ppo`: ``StochasticFrameSkip``, ``make_retro``, ``wrap_deepmind_retro``.

And one of emucore's own: :mod:`~emucore.examples.ppo_retro`, PPO in one file on a ``RetroVectorEnv`` with
TensorBoard logs (``python -m emucore.examples.ppo_retro``; the ``rl`` extra).

Not provided: ``interactive`` and ``retro_interactive`` (a pyglet window: ``emucore`` plays a game with
``render_mode="human"``, the studio edits one), ``random_agent``, ``trivial_random_agent`` and
``trivial_random_agent_multiplayer`` (a loop of ``env.action_space.sample()``, nothing to import),
``determinism`` (a wrapper that saves and restores the state around each step: emucore's env replays
exactly without it), and ``ppo``'s ``main`` (a 100M-step SB3 run; :mod:`emucore.sb3` trains in one process).
"""
