"""The open integration's scenario.json as an editable document, evaluated live. No Qt.

:class:`ScenarioDocument` owns ``scenario.json`` (and the Lua files it lists) while the studio
has it open. Every edit changes the decoded JSON object and is written at once, atomically,
through :func:`emucore.integration.dump_scenario_json`, then linted. The document is also
evaluated on the running game by the env's own evaluator (:class:`emucore.scenario.evaluator.Evaluator`),
once per emulated frame, so the reward the studio shows is the reward training sees.

Keys name places in the scenario as lint does: ``reward.variables.score``, ``done.nodes.lost.
variables.lives``, ``crop``, ``actions``. A done node is addressed by the tuple of node names
from the top (``()`` is ``done`` itself).

>>> doc = ScenarioDocument(session)
>>> doc.set_reward_term("score", reward=1.0)        # scenario.json is rewritten now
>>> doc.set_done_test((), "lives", op="equal", reference=0)
>>> session.advance(60)
>>> doc.reward, doc.cumulative, doc.done, doc.done_reasons
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from psygnal import Signal, SignalGroup

from emucore.integration import (
    DATA_FILE,
    SCENARIO_FILE,
    IntegrationError,
    LintFinding,
    lint,
    read_data_file,
    write_scenario_json,
    write_script,
)
from emucore.lua import LuaError, LuaScripts
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.explain import DoneReason
from emucore.scenario.loader import GameDataSources, load_game_data
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.scenario.integration_files import read_scenario, read_script, script_file

HISTORY = 20_000  # frames of (frame, reward, cumulative, done) kept for the timeline
MEASUREMENTS = ("delta", "absolute")
NodePath = tuple[str, ...]


@dataclass(frozen=True)
class Sample:
    """One evaluated frame."""

    frame: int
    reward: float
    cumulative: float
    done: bool


def _spec(measurement: str, default_measurement: str, op: str | None, reference: Any,
          reward: Any = 0.0, penalty: Any = 0.0) -> dict[str, Any]:
    """A term as stable-retro's saver writes it: default-valued fields left out."""
    spec: dict[str, Any] = {}
    if measurement != default_measurement:
        spec["measurement"] = measurement
    if op:
        spec["op"] = op
    if reference:
        spec["reference"] = reference
    if reward:
        spec["reward"] = float(np.float32(reward))
    if penalty:
        spec["penalty"] = float(np.float32(penalty))
    return spec


LOAD_FAILED = "fails when loaded (stable-retro runs on without it)"


class ScenarioEvents(SignalGroup):
    changed = Signal()
    """After every edit: the document, its findings and evaluator are up to date."""
    evaluated = Signal()
    """The live result or its history changed (a frame was evaluated, a rewind, a new evaluator)."""


class ScenarioDocument:
    """scenario.json of ``session.folder``: edited, saved, linted and evaluated per frame.

    Attributes:
        data: The decoded scenario (the file's content); change it only through the methods.
        variables: data.json's variables (reloaded when the file changes).
        findings: Lint findings about the scenario and its scripts, plus the studio's own.
        lua_errors: Syntax errors of the listed Lua files by file name.
        load_errors: Errors the listed Lua files raise when their top level runs (stable-retro only
            logs these, and its env then runs without the script), by file name.
        error: Why the live evaluation stopped (a Lua error, an unknown variable), or "".
        reward, cumulative, done: The last evaluated frame's result.
        done_reasons: Why ``done`` is true (:meth:`Evaluator.explain_done`); empty when it is not.
    """

    def __init__(self, session: Session):
        self.session = session
        self.folder = session.folder
        self.path = self.folder / SCENARIO_FILE
        self.events = ScenarioEvents()
        self._connections = Connections()
        self.data: dict[str, Any] = {}
        self.load_error = ""  # why scenario.json cannot be read: then nothing is saved over it
        self._read()
        self.variables: dict[str, Any] = {}
        self._data_stamp: tuple[int, int] | None = None
        self.lua_sources: dict[str, str] = {}
        self.lua_errors: dict[str, LuaError] = {}
        self.load_errors: dict[str, LuaError] = {}
        self.findings: list[LintFinding] = []
        self.history: deque[Sample] = deque(maxlen=HISTORY)
        self.reward = 0.0
        self.cumulative = 0.0
        self.done = False
        self.done_reasons: list[DoneReason] = []
        self.error = ""
        self._game: Evaluator | None = None
        self._last_frame = session.frame
        self.refresh_variables()
        self._load_scripts()
        self._relint()
        self._rebuild()
        self._connections.connect(session.events.after_frame, self._after_frame)
        self._connections.connect(session.events.frame, self._frame_changed)

    def close(self) -> None:
        """Stops evaluating (the session keeps running)."""
        self._connections.disconnect_all()

    # ---- reading ----

    @property
    def variable_names(self) -> list[str]:
        return list(self.variables)

    @property
    def reward_key(self) -> str:
        """Where player 1's reward lives: ``reward``, or ``rewards[0]`` in a per-player scenario."""
        return "rewards[0]" if "reward" not in self.data and isinstance(self.data.get("rewards"), list) else "reward"

    def _reward(self, create: bool = False) -> dict:
        if self.reward_key == "rewards[0]":
            players = self.data["rewards"]
            if not players or not isinstance(players[0], dict):
                if not create:
                    return {}
                players[:1] = [{}]
            return players[0]
        reward = self.data.get("reward")
        if not isinstance(reward, dict):
            if not create:
                return {}
            reward = self.data["reward"] = {}
        return reward

    def reward_terms(self) -> dict[str, dict]:
        """Player 1's reward terms by variable name, as written (missing fields take defaults)."""
        terms = self._reward().get("variables")
        return terms if isinstance(terms, dict) else {}

    def time_term(self) -> dict | None:
        time = self._reward().get("time")
        return time if isinstance(time, dict) else None

    def done_node(self, path: NodePath = ()) -> dict | None:
        """The done node at ``path`` as written, or None."""
        node = self.data.get("done")
        for name in path:
            if not isinstance(node, dict) or not isinstance(node.get("nodes"), dict):
                return None
            node = node["nodes"].get(name)
        return node if isinstance(node, dict) else None

    @property
    def crop(self) -> list[int]:
        crop = self.data.get("crop")
        return list(crop[:4]) if isinstance(crop, list) and len(crop) >= 4 else [0, 0, 0, 0]

    @property
    def actions(self) -> list | None:
        return self.data.get("actions") or None

    @property
    def scripts(self) -> list[str]:
        scripts = self.data.get("scripts")
        return [s for s in scripts if isinstance(s, str)] if isinstance(scripts, list) else []

    def findings_for(self, key: str) -> list[LintFinding]:
        """Findings at ``key`` or inside it (``reward`` gets ``reward.variables.score.op`` too)."""
        return [f for f in self.findings if f.key == key or f.key.startswith((key + ".", key + "["))]

    # ---- editing: reward ----

    def set_reward_term(self, name: str, *, measurement: str = "delta", op: str | None = None,
                        reference: int = 0, reward: float = 0.0, penalty: float = 0.0) -> None:
        """Adds or replaces the reward term on variable ``name``."""
        terms = self._reward(create=True).setdefault("variables", {})
        terms[name] = _spec(measurement, "delta", op, reference, reward, penalty)
        self._changed()

    def rename_reward_term(self, old: str, new: str) -> None:
        terms = self.reward_terms()
        if old == new or old not in terms or new in terms:
            return
        self._reward()["variables"] = {new if k == old else k: v for k, v in terms.items()}
        self._changed()

    def remove_reward_term(self, name: str) -> None:
        terms = self.reward_terms()
        if terms.pop(name, None) is not None:
            self._changed()

    def set_time_reward(self, reward: float) -> None:
        """The per-frame reward (negative for a cost); 0 removes the time term."""
        spec = self._reward(create=True)
        if reward:
            spec["time"] = {"reward": float(np.float32(reward))}
        else:
            spec.pop("time", None)
        self._changed()

    # ---- editing: done ----

    def _done_node(self, path: NodePath) -> dict:
        node = self.data.get("done")
        if not isinstance(node, dict):
            node = self.data["done"] = {}
        for name in path:
            nodes = node.setdefault("nodes", {})
            node = nodes.setdefault(name, {})
        return node

    def set_done_condition(self, path: NodePath, condition: str) -> None:
        node = self._done_node(path)
        if condition == "all":
            node["condition"] = "all"
        else:
            node.pop("condition", None)  # "any" is the default, which stable-retro's saver leaves out
        self._changed()

    def add_done_node(self, path: NodePath, name: str, condition: str = "any") -> NodePath:
        """A new (empty) sub-node ``name`` of the node at ``path``; returns its path."""
        parent = self._done_node(path)
        parent.setdefault("nodes", {})[name] = {"condition": "all"} if condition == "all" else {}
        self._changed()
        return (*path, name)

    def remove_done_node(self, path: NodePath) -> None:
        if not path:
            self.data.pop("done", None)
        else:
            parent = self.done_node(path[:-1])
            if parent is None or not isinstance(parent.get("nodes"), dict) or path[-1] not in parent["nodes"]:
                return
            del parent["nodes"][path[-1]]
            if not parent["nodes"]:
                del parent["nodes"]
        self._changed()

    def rename_done_node(self, path: NodePath, name: str) -> NodePath:
        """Renames the node at ``path`` (not the top), keeping its place among its siblings."""
        parent = self.done_node(path[:-1])
        if not path or not name or parent is None or name in (parent.get("nodes") or {}):
            return path
        parent["nodes"] = {name if k == path[-1] else k: v for k, v in parent["nodes"].items()}
        self._changed()
        return (*path[:-1], name)

    def set_done_test(self, path: NodePath, name: str, *, op: str | None = None, reference: int = 0,
                      measurement: str = "absolute") -> None:
        """Adds or replaces the test on variable ``name`` in the node at ``path``."""
        self._done_node(path).setdefault("variables", {})[name] = _spec(measurement, "absolute", op, reference)
        self._changed()

    def remove_done_test(self, path: NodePath, name: str) -> None:
        node = self.done_node(path)
        if not node:
            return
        variables = node.get("variables")
        if isinstance(variables, dict) and variables.pop(name, None) is not None:
            if not variables:
                del node["variables"]
            self._changed()

    # ---- editing: actions, crop, scripts ----

    def set_crop(self, crop: list[int]) -> None:
        x, y, w, h = (int(v) for v in crop)
        self.data["crop"] = [x, y, w, h]
        self._changed()

    def set_actions(self, groups: list | None) -> None:
        """The scenario's action groups (lists of combos of button names); None/[]: the system's."""
        if groups:
            self.data["actions"] = groups
        else:
            self.data.pop("actions", None)
        self._changed()

    def set_scripts(self, names: list[str]) -> None:
        if names:
            self.data["scripts"] = list(names)
        else:
            self.data.pop("scripts", None)
        self._load_scripts()
        self._changed()

    def set_script_function(self, which: str, reference: str | None) -> None:
        """``which`` is ``"reward"`` or ``"done"``: the Lua function (``"lua:f"``) that decides it."""
        target = self._reward(create=True) if which == "reward" else self._done_node(())
        if reference:
            target["script"] = reference
        else:
            target.pop("script", None)
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

    # ---- saving, lint, evaluator ----

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
        self._rebuild()
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

    def _relint(self) -> None:
        files = {SCENARIO_FILE, *self.scripts}
        findings = [f for f in lint(self.folder) if f.file in files]
        findings.extend(self._start_findings())
        for name, error in self.lua_errors.items():
            if any(f.file == name and f.level == "error" for f in findings):
                continue  # lint reported this syntax error already
            findings.append(LintFinding("error", name, f"line {error.line}" if error.line else "", error.message))
        self.findings = findings

    def _start_findings(self) -> list[LintFinding]:
        system = self.session.system
        if "START" not in system.buttons:
            return []
        groups = self.actions or system.actions
        if any("START" in combo for group in groups for combo in group):
            return []
        source = "the scenario's" if self.actions else "the system's default"
        return [LintFinding(
            "warning", SCENARIO_FILE, "actions",
            f"START can never be pressed by a FILTERED/DISCRETE agent: no group of {source} actions contains it; "
            'add ["START"] to a group if the game needs START to begin or continue',
        )]

    def _rebuild(self) -> None:
        """A new evaluator for the current document; the history starts again from the current frame."""
        self._game = None
        self.error = ""
        self.history.clear()
        self.reward = self.cumulative = 0.0
        self.done = False
        self.done_reasons = []
        self.events.evaluated.emit()
        self.refresh_variables()
        sources = GameDataSources(self.folder / DATA_FILE, self.path, variables=self.variables, scenario=self.data,
                                  scripts=self.lua_sources)
        try:
            game = load_game_data(sources, self.session.system, lambda: self.session.emulator.memory).data
            game.reset()
            self._report_load_errors(game)
            game.update_ram()  # the evaluation env.reset() makes; its reward is discarded
            game.totals = [np.float32(0)] * len(game.totals)  # the total sums the frames shown
            self.done_reasons = game.explain_done()  # done reads the memory now: shown at once, paused or not
            self.done = bool(game.done)
        except Exception as e:  # noqa: BLE001 - any evaluation failure is shown, never raised into the loop
            self.error = str(e) if isinstance(e, IntegrationError) else f"{type(e).__name__}: {e}"
            return
        self._game = game
        self._last_frame = self.session.frame

    def _report_load_errors(self, game: Evaluator) -> None:
        self.findings = [f for f in self.findings if not f.message.startswith(LOAD_FAILED)]
        errors = game.lua.load_errors if game.lua is not None else []
        self.load_errors = {e.file: e for e in errors if e.file and e.file not in self.lua_errors}
        for name, error in self.load_errors.items():
            line = f"line {error.line}" if error.line else ""
            self.findings.append(LintFinding("error", name, line, f"{LOAD_FAILED}: {error.message}"))

    def follow_data_json(self) -> bool:
        """Re-lints and re-evaluates if data.json changed on disk (the variables dock edits it).

        Cheap (one ``stat``): views call it from their refresh timer. True if it changed.
        """
        if not self.refresh_variables():
            return False
        self._changed(save=False)
        return True

    def restart(self) -> None:
        """A new episode from the current frame: totals and history cleared, scripts re-run."""
        self._rebuild()

    # ---- live evaluation ----

    def _after_frame(self) -> None:
        game = self._game
        if game is None:
            return
        try:
            game.update_ram()
            reasons = game.explain_done()
        except Exception as e:  # noqa: BLE001
            self._game = None
            self.error = f"{type(e).__name__}: {e}"
            self.events.evaluated.emit()
            return
        self.reward = game.current_reward(0)
        self.cumulative = game.total_reward(0)
        self.done = game.done
        self.done_reasons = reasons
        self._last_frame = self.session.frame
        self.history.append(Sample(self.session.frame, self.reward, self.cumulative, self.done))
        self.events.evaluated.emit()

    def _frame_changed(self) -> None:
        frame = self.session.frame
        if frame >= self._last_frame:
            return
        self._last_frame = frame
        if frame == 0 or self._game is None:  # reset to start: a new episode
            self._rebuild()
            return
        while self.history and self.history[-1].frame > frame:
            self.history.pop()
        last = self.history[-1] if self.history else None
        self.reward = last.reward if last else 0.0
        self.cumulative = last.cumulative if last else 0.0
        self.done = last.done if last else False
        self.done_reasons = []
        game = self._game
        try:  # a fresh snapshot of the rewound memory, so the next delta is against it
            game.update_ram()
            game.totals[0] = np.float32(self.cumulative)
        except Exception as e:  # noqa: BLE001
            self._game = None
            self.error = f"{type(e).__name__}: {e}"
        self.events.evaluated.emit()

    def timeline(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Frames, cumulative rewards, and the done events (frames where done became true), for the plot."""
        if not self.history:
            empty = np.zeros(0)
            return empty, empty, empty
        frames = np.fromiter((s.frame for s in self.history), float, len(self.history))
        cumulative = np.fromiter((s.cumulative for s in self.history), float, len(self.history))
        done = np.fromiter((s.done for s in self.history), bool, len(self.history))
        rising = done & ~np.concatenate(([False], done[:-1]))
        return frames, cumulative, frames[rising]

