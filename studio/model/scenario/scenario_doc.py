"""The open integration's scenario.json as an editable document, evaluated live. No Qt.

:class:`ScenarioDocument` owns ``scenario.json`` (and the Lua files it lists) while the studio
has it open. Every edit changes the decoded JSON object and is written at once, atomically,
through :func:`emucore.integration.dump_scenario_json`, then linted
(:mod:`~studio.model.scenario.scenario_doc_lint`). The document is also evaluated on the running
game by the env's own evaluator, once per emulated frame, so the reward the studio shows is the
reward training sees: that half is ``doc.live``, a
:class:`~studio.model.scenario.scenario_doc_evaluation.LiveEvaluation`.

Keys name places in the scenario as lint does: ``reward.variables.score``, ``done.nodes.lost.
variables.lives``, ``crop``, ``actions``. A done node is addressed by the tuple of node names
from the top (``()`` is ``done`` itself).

>>> import shutil
>>> from emucore.paths import integrations_dir
>>> from studio.model.opening import resolve_game
>>> from studio.model.play.session import Session
>>> folder = shutil.copytree(integrations_dir() / "StudioDemo-Nes", "StudioDemo-Nes")   # a copy to edit
>>> session = Session(*resolve_game(folder, None))
>>> doc = ScenarioDocument(session)
>>> doc.set_reward_term("score", reward=1.0)        # scenario.json is rewritten now
>>> doc.set_done_test((), "lives", op="less-than", reference=3)     # done when the first life is lost
>>> session.set_buttons(0, 1 << session.system.buttons.index("B"))   # B held: 10 points a frame
>>> session.advance(60)
>>> doc.live.reward, doc.live.cumulative, doc.live.done
(10.0, 600.0, False)
>>> session.advance(300)                            # a life is lost every 300 frames of play
>>> doc.live.done, [reason.text for reason in doc.live.done_reasons]
(True, ['lives < 3 (is 2)'])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.integration import (
    DATA_FILE,
    SCENARIO_FILE,
    IntegrationError,
    LintFinding,
    read_data_file,
    write_scenario_json,
    write_script,
)
from emucore.integration import scenario_walk as walk
from emucore.lua import LuaError, LuaScripts
from emucore.scenario.loader import GameDataSources
from studio.model.play.session import Session
from studio.model.scenario.integration_files import read_scenario, read_script, script_file
from studio.model.scenario.scenario_doc_evaluation import LiveEvaluation
from studio.model.scenario.scenario_doc_events import ScenarioEvents
from studio.model.scenario.scenario_doc_lint import scenario_findings

MEASUREMENTS = walk.MEASUREMENTS
NodePath = tuple[str, ...]


def _spec(measurement: str, default_measurement: str, op: str | None, reference: Any,
          reward: Any = 0.0, penalty: Any = 0.0) -> dict[str, Any]:
    """A term as stable-retro's saver writes it: default-valued fields left out."""
    spec: dict[str, Any] = {}
    if measurement != default_measurement:
        spec[walk.MEASUREMENT] = measurement
    if op:
        spec[walk.OP] = op
    if reference:
        spec[walk.REFERENCE] = reference
    if reward:
        spec[walk.TERM_REWARD] = float(np.float32(reward))
    if penalty:
        spec[walk.PENALTY] = float(np.float32(penalty))
    return spec


class ScenarioDocument:
    """scenario.json of ``session.folder``: edited, saved, linted and evaluated per frame.

    Attributes:
        data: The decoded scenario (the file's content); change it only through the methods.
        variables: data.json's variables (reloaded when the file changes).
        lua_errors: Syntax errors of the listed Lua files by file name.
        live: Its evaluation on the running game: the reward, done and their history, a script's load errors
            (:class:`~studio.model.scenario.scenario_doc_evaluation.LiveEvaluation`).
    """

    def __init__(self, session: Session):
        self.session = session
        self.folder = session.folder
        self.path = self.folder / SCENARIO_FILE
        self.events = ScenarioEvents()
        self.data: dict[str, Any] = {}
        self.load_error = ""  # why scenario.json cannot be read: then nothing is saved over it
        self._read()
        self.variables: dict[str, Any] = {}
        self._data_stamp: tuple[int, int] | None = None
        self.lua_sources: dict[str, str] = {}
        self.lua_errors: dict[str, LuaError] = {}
        self._lint: list[LintFinding] = []
        self.live = LiveEvaluation(session, self.events, self._sources)  # built from _sources(), which reads data.json
        self._load_scripts()
        self._relint()
        self.live.rebuild()

    def close(self) -> None:
        """Stops evaluating (the session keeps running)."""
        self.live.close()

    # ---- reading ----

    @property
    def findings(self) -> list[LintFinding]:
        """Lint findings about the scenario and its scripts, and the scripts that fail when loaded."""
        return self._lint + self.live.load_findings(skip=self.lua_errors)

    @property
    def variable_names(self) -> list[str]:
        return list(self.variables)

    @property
    def reward_key(self) -> str:
        """Where player 1's reward lives: ``reward``, or ``rewards[0]`` in a per-player scenario."""
        return walk.key(walk.edited_reward(self.data))

    def _reward(self, create: bool = False) -> dict:
        if walk.edited_reward(self.data) != (walk.REWARD,):
            players = self.data[walk.REWARDS]
            if not players or not isinstance(players[0], dict):
                if not create:
                    return {}
                players[:1] = [{}]
            return players[0]
        reward = self.data.get(walk.REWARD)
        if not isinstance(reward, dict):
            if not create:
                return {}
            reward = self.data[walk.REWARD] = {}
        return reward

    def reward_terms(self) -> dict[str, dict]:
        """Player 1's reward terms by variable name, as written (missing fields take defaults)."""
        return walk.entries(self._reward(), walk.VARIABLES)

    def time_term(self) -> dict | None:
        timed = walk.time_term(self._reward(), walk.edited_reward(self.data))
        return timed[1] if timed else None

    def done_node(self, path: NodePath = ()) -> dict | None:
        """The done node at ``path`` as written, or None."""
        node = self.data.get(walk.DONE)
        for name in path:
            if not isinstance(node, dict) or not isinstance(node.get(walk.NODES), dict):
                return None
            node = node[walk.NODES].get(name)
        return node if isinstance(node, dict) else None

    @property
    def crop(self) -> list[int]:
        crop = self.data.get(walk.CROP)
        return list(crop[:4]) if isinstance(crop, list) and len(crop) >= 4 else [0, 0, 0, 0]

    @property
    def actions(self) -> list | None:
        return self.data.get(walk.ACTIONS) or None

    @property
    def scripts(self) -> list[str]:
        scripts = self.data.get(walk.SCRIPTS)
        return [s for s in scripts if isinstance(s, str)] if isinstance(scripts, list) else []

    def findings_for(self, key: str) -> list[LintFinding]:
        """Findings at ``key`` or inside it (``reward`` gets ``reward.variables.score.op`` too)."""
        return [f for f in self.findings if f.key == key or f.key.startswith((key + ".", key + "["))]

    # ---- editing: reward ----

    def set_reward_term(self, name: str, *, measurement: str = "delta", op: str | None = None,
                        reference: int = 0, reward: float = 0.0, penalty: float = 0.0) -> None:
        """Adds or replaces the reward term on variable ``name``."""
        terms = self._reward(create=True).setdefault(walk.VARIABLES, {})
        terms[name] = _spec(measurement, "delta", op, reference, reward, penalty)
        self._changed()

    def rename_reward_term(self, old: str, new: str) -> None:
        terms = self.reward_terms()
        if old == new or old not in terms or new in terms:
            return
        self._reward()[walk.VARIABLES] = {new if k == old else k: v for k, v in terms.items()}
        self._changed()

    def remove_reward_term(self, name: str) -> None:
        terms = self.reward_terms()
        if terms.pop(name, None) is not None:
            self._changed()

    def set_time_reward(self, reward: float) -> None:
        """The per-frame reward (negative for a cost); 0 removes the time term."""
        spec = self._reward(create=True)
        if reward:
            spec[walk.TIME] = {walk.TERM_REWARD: float(np.float32(reward))}
        else:
            spec.pop(walk.TIME, None)
        self._changed()

    # ---- editing: done ----

    def _done_node(self, path: NodePath) -> dict:
        node = self.data.get(walk.DONE)
        if not isinstance(node, dict):
            node = self.data[walk.DONE] = {}
        for name in path:
            nodes = node.setdefault(walk.NODES, {})
            node = nodes.setdefault(name, {})
        return node

    def set_done_condition(self, path: NodePath, condition: str) -> None:
        node = self._done_node(path)
        if condition == "all":
            node[walk.CONDITION] = "all"
        else:
            node.pop(walk.CONDITION, None)  # "any" is the default, which stable-retro's saver leaves out
        self._changed()

    def add_done_node(self, path: NodePath, name: str, condition: str = "any") -> NodePath:
        """A new (empty) sub-node ``name`` of the node at ``path``; returns its path."""
        parent = self._done_node(path)
        parent.setdefault(walk.NODES, {})[name] = {walk.CONDITION: "all"} if condition == "all" else {}
        self._changed()
        return (*path, name)

    def remove_done_node(self, path: NodePath) -> None:
        if not path:
            self.data.pop(walk.DONE, None)
        else:
            parent = self.done_node(path[:-1])
            if parent is None or not isinstance(parent.get(walk.NODES), dict) or path[-1] not in parent[walk.NODES]:
                return
            del parent[walk.NODES][path[-1]]
            if not parent[walk.NODES]:
                del parent[walk.NODES]
        self._changed()

    def rename_done_node(self, path: NodePath, name: str) -> NodePath:
        """Renames the node at ``path`` (not the top), keeping its place among its siblings."""
        parent = self.done_node(path[:-1])
        if not path or not name or parent is None or name in (parent.get(walk.NODES) or {}):
            return path
        parent[walk.NODES] = {name if k == path[-1] else k: v for k, v in parent[walk.NODES].items()}
        self._changed()
        return (*path[:-1], name)

    def set_done_test(self, path: NodePath, name: str, *, op: str | None = None, reference: int = 0,
                      measurement: str = "absolute") -> None:
        """Adds or replaces the test on variable ``name`` in the node at ``path``."""
        self._done_node(path).setdefault(walk.VARIABLES, {})[name] = _spec(measurement, "absolute", op, reference)
        self._changed()

    def remove_done_test(self, path: NodePath, name: str) -> None:
        node = self.done_node(path)
        if not node:
            return
        variables = node.get(walk.VARIABLES)
        if isinstance(variables, dict) and variables.pop(name, None) is not None:
            if not variables:
                del node[walk.VARIABLES]
            self._changed()

    # ---- editing: actions, crop, scripts ----

    def set_crop(self, crop: list[int]) -> None:
        x, y, w, h = (int(v) for v in crop)
        self.data[walk.CROP] = [x, y, w, h]
        self._changed()

    def set_actions(self, groups: list | None) -> None:
        """The scenario's action groups (lists of combos of button names); None/[]: the system's."""
        if groups:
            self.data[walk.ACTIONS] = groups
        else:
            self.data.pop(walk.ACTIONS, None)
        self._changed()

    def set_scripts(self, names: list[str]) -> None:
        if names:
            self.data[walk.SCRIPTS] = list(names)
        else:
            self.data.pop(walk.SCRIPTS, None)
        self._load_scripts()
        self._changed()

    def set_script_function(self, which: str, reference: str | None) -> None:
        """``which`` is ``"reward"`` or ``"done"``: the Lua function (``"lua:f"``) that decides it."""
        target = self._reward(create=True) if which == "reward" else self._done_node(())
        if reference:
            target[walk.SCRIPT] = reference
        else:
            target.pop(walk.SCRIPT, None)
        self._changed()

    def lua_source(self, name: str) -> str:
        return self.lua_sources.get(name, "")

    def set_lua_source(self, name: str, source: str) -> LuaError | None:
        """Writes a Lua file of the integration (atomically); returns its syntax error, if any."""
        write_script(script_file(self.folder, name), source)
        self.lua_sources[name] = source
        self._check_lua(name)
        self._changed(save=False)
        return self.lua_errors.get(name)

    @staticmethod
    def check_lua(source: str, name: str) -> LuaError | None:
        """The syntax error of ``source`` (``.line`` is its line), or None."""
        return LuaScripts.check_syntax(source, name)

    # ---- saving, reloading, lint ----

    def _read(self) -> None:
        self.data, problem = read_scenario(self.path)
        self.load_error = str(problem) if problem else ""
        if problem is not None:
            self.session.report(problem)

    def reload(self) -> None:
        """Reads scenario.json (and its scripts) again, after it was fixed or replaced by another program."""
        self._read()
        self._load_scripts()
        self._changed(save=False)

    def replace_unreadable(self) -> None:
        """The user's explicit choice: an empty scenario is saved over the scenario.json that cannot be read."""
        self.load_error = ""
        self.data = {}
        self._changed()

    def _changed(self, save: bool = True) -> None:
        if save and self.load_error:
            raise IntegrationError(self.path, "cannot be read, so edits are not saved over it: fix it and reload")
        if save:
            write_scenario_json(self.path, self.data)
        self._relint()
        self.live.rebuild()
        self.events.changed.emit()

    def _load_scripts(self) -> None:
        self.lua_sources = {}
        self.lua_errors = {}
        for name in self.scripts:
            source, problem = read_script(self.folder, name)
            if problem is not None:
                self.session.report(problem)
                self.lua_errors[name] = LuaError(f"{name}: {problem.problem}", action="load")
            elif source is not None:
                self.lua_sources[name] = source
                self._check_lua(name)

    def _check_lua(self, name: str) -> None:
        error = LuaScripts.check_syntax(self.lua_sources[name], name)
        if error is None:
            self.lua_errors.pop(name, None)
        else:
            self.lua_errors[name] = error

    def refresh_variables(self) -> bool:
        """Re-reads data.json if it changed on disk (the variables dock edits it); True if it did."""
        path = self.folder / DATA_FILE
        try:
            stat = path.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            stamp = None
        if stamp == self._data_stamp:
            return False
        self._data_stamp = stamp
        try:
            self.variables = read_data_file(path).variables if stamp else {}
        except IntegrationError:  # the variables dock reports it
            self.variables = {}
        return True

    def _sources(self) -> GameDataSources:
        """What the live evaluation is built from: the document as it stands, data.json re-read if it changed."""
        self.refresh_variables()
        return GameDataSources(self.folder / DATA_FILE, self.path, variables=self.variables, scenario=self.data,
                               scripts=self.lua_sources)

    def _relint(self) -> None:
        self._lint = scenario_findings(self.folder, self.scripts, self.lua_errors, self.session.system, self.actions)

    def follow_data_json(self) -> bool:
        """Re-lints and re-evaluates if data.json changed on disk (the variables dock edits it).

        Cheap (one ``stat``): views call it from their refresh timer. True if it changed.
        """
        if not self.refresh_variables():
            return False
        self._changed(save=False)
        return True
