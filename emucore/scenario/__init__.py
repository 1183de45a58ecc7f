"""The scenario evaluator, the heart of an integration: what reward and done mean for a game.

* :mod:`~emucore.scenario.model` - scenario.json read into a model (rewards, done tree, actions);
* :mod:`~emucore.scenario.actions` - the action groups a scenario or system allows;
* :mod:`~emucore.scenario.evaluator` - :class:`Evaluator`, one evaluation per frame (done,
  rewards in float32, totals), in Python or compiled (:mod:`~emucore.scenario.compiled`);
* :mod:`~emucore.scenario.loader` - the one way from an integration's files to its evaluator,
  with the checks at load (:mod:`~emucore.scenario.load_checks`);
* :mod:`~emucore.scenario.explain` - why done fired, in words;
* :mod:`~emucore.scenario.custom_variables` - variables a Lua script sets, for the env's info.
"""
