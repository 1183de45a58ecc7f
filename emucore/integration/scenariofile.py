"""Scenario files (``scenario.json`` and the other ``*.json`` with ``reward``, ``rewards`` or ``done``).

Only what makes stable-retro fail to load a scenario is rejected here (checked against the
1.0.1 binary); everything else is kept as written, because stable-retro silently falls back to
defaults for unknown or ill-typed values and the evaluator interprets the structure. Lint
reports the rest.

Rejected: a top level that is not an object (stable-retro ignores it, which hides the mistake);
``rewards`` that is not an array; a ``script`` that is not a string; ``variables`` or ``nodes``
that are not objects (an empty array or null is accepted, as there); ``crop`` that is not an
array of at least four numbers (fewer crash stable-retro); ``actions`` that is not an array of
arrays of arrays of strings; a ``scripts`` array with a non-string element. Also refused, where
stable-retro's C++ casts would be undefined: a ``reference`` outside int64, a ``reward`` or
``penalty`` beyond float32's range, a ``crop`` element outside int32.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from emucore.fileio import atomic_write_text
from emucore.integration import jsontext
from emucore.integration import scenario_walk as walk
from emucore.integration.common import IntegrationError, read_file
from emucore.integration.jsontext import KeyPath

SCENARIO_FILE = "scenario.json"
SCENARIO_KEYS = walk.SCENARIO_KEYS
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
FLOAT32_MAX = 3.4028234663852886e38
TERM_RANGES = {  # stable-retro reads reference as int64 and reward and penalty as float
    walk.REFERENCE: (-(2**63), 2**63 - 1, "a 64-bit integer"),
    walk.TERM_REWARD: (-FLOAT32_MAX, FLOAT32_MAX, "within float32's range"),
    walk.PENALTY: (-FLOAT32_MAX, FLOAT32_MAX, "within float32's range"),
}


def is_scenario(decoded: Any) -> bool:
    """True for a decoded JSON file stable-retro lists as a scenario (``list_scenarios``)."""
    return isinstance(decoded, dict) and any(decoded.get(key) is not None for key in SCENARIO_KEYS)


def is_scenario_file(path: str | Path) -> bool:
    """Whether the JSON file at ``path`` is one stable-retro lists as a scenario (unreadable or
    malformed files are not)."""
    try:
        return is_scenario(json.loads(read_file(path)))
    except (IntegrationError, ValueError, RecursionError):
        return False


class _Checker:
    def __init__(self, file: Path, text: str | None):
        self.file = file
        self.text = text
        self._locator: jsontext.KeyLocator | None = None

    def fail(self, path: KeyPath, problem: str) -> IntegrationError:
        if self._locator is None and self.text is not None:
            self._locator = jsontext.KeyLocator(self.text)
        place = jsontext.where(self.text, path, self._locator)
        return IntegrationError(self.file, f"{place}: {problem}" if place else problem, jsontext.format_key(path))

    def mapping(self, value: Any, path: KeyPath, what: str) -> None:
        if walk.container(value) is walk.NOT_A_MAPPING:
            raise self.fail(path, f"{what} must be an object")

    def script(self, spec: dict, path: KeyPath) -> None:
        if walk.SCRIPT in spec and not isinstance(spec[walk.SCRIPT], str):
            raise self.fail((*path, walk.SCRIPT), "script must be a string such as 'lua:function'")

    def term(self, spec: Any, path: KeyPath) -> None:
        """A number stable-retro would cast out of range (undefined in C++) is refused."""
        if not isinstance(spec, dict):
            return
        for field, (low, high, what) in TERM_RANGES.items():
            value = spec.get(field)
            if jsontext.is_number(value) and not low <= value <= high:
                raise self.fail((*path, field), f"{field} {value!r} is out of range: it must be {what}")

    def reward(self, spec: Any, path: KeyPath) -> None:
        if not isinstance(spec, dict):
            return  # ignored by stable-retro; lint warns
        self.script(spec, path)
        self.mapping(spec.get(walk.VARIABLES), (*path, walk.VARIABLES), "reward variables")
        for _, term_path, term in walk.reward_terms(spec, path):
            self.term(term, term_path)
        self.term(spec.get(walk.TIME), (*path, walk.TIME))

    def done_node(self, node: Any, path: KeyPath, top: bool) -> None:
        if not isinstance(node, dict):
            return
        if top:
            self.script(node, path)
        self.mapping(node.get(walk.VARIABLES), (*path, walk.VARIABLES), "done variables")
        for _, test_path, test in walk.done_tests(node, path):
            self.term(test, test_path)
        self.mapping(node.get(walk.NODES), (*path, walk.NODES), "done nodes")

    def crop(self, crop: Any) -> None:
        if not isinstance(crop, list):
            raise self.fail(("crop",), "crop must be an array [x, y, width, height]")
        for i, element in enumerate(crop):
            if not jsontext.is_number(element):
                raise self.fail(("crop", i), "crop elements must be numbers")
            if not INT32_MIN <= element <= INT32_MAX:
                raise self.fail(("crop", i), f"crop element {element!r} is out of range (a 32-bit integer)")
        if len(crop) < 4:
            raise self.fail(("crop",), f"crop needs 4 numbers [x, y, width, height], it has {len(crop)}")

    def actions(self, actions: Any) -> None:
        shape = "actions must be an array of groups, each an array of combos, each an array of button names"
        if not isinstance(actions, list):
            raise self.fail(("actions",), shape)
        for i, group in enumerate(actions):
            if not isinstance(group, list):
                raise self.fail(("actions", i), shape)
            for j, combo in enumerate(group):
                if not isinstance(combo, list):
                    raise self.fail(("actions", i, j), shape)
                for k, button in enumerate(combo):
                    if not isinstance(button, str):
                        raise self.fail(("actions", i, j, k), "button names must be strings")

    def scenario(self, scenario: Any) -> None:
        if not isinstance(scenario, dict):
            raise IntegrationError(self.file, "a scenario must be a JSON object")
        for path, spec in walk.reward_specs(scenario):  # reward, then the entries of a rewards array
            self.reward(spec, path)
        rewards = scenario.get(walk.REWARDS)
        if rewards is not None and not isinstance(rewards, list):
            raise self.fail((walk.REWARDS,), "rewards must be an array of reward objects (one per player)")
        for path, node, top in walk.done_nodes(scenario):
            self.done_node(node, path, top)
        if "crop" in scenario:
            self.crop(scenario["crop"])
        if "actions" in scenario:
            self.actions(scenario["actions"])
        scripts = scenario.get("scripts")
        if isinstance(scripts, list):
            for i, name in enumerate(scripts):
                if not isinstance(name, str):
                    raise self.fail(("scripts", i), "script file names must be strings")


def validate_scenario(scenario: Any, path: Path | None = None, text: str | None = None) -> dict:
    """Checks a decoded scenario for what stable-retro refuses; returns it unchanged."""
    _Checker(Path(path) if path is not None else Path(SCENARIO_FILE), text).scenario(scenario)
    return scenario


def parse_scenario_json(text: str | bytes, path: Path | None = None) -> dict:
    """Reads a scenario file, keeping its structure as written.

    Args:
        text: The file content.
        path: The file, for error messages (``scenario.json`` when omitted).

    Returns:
        The decoded JSON object.

    Raises:
        IntegrationError: Malformed JSON, or a value stable-retro cannot load (see the module
            docstring). The message names the line, column and key.
    """
    file = Path(path) if path is not None else Path(SCENARIO_FILE)
    decoded = jsontext.decode(text, file)
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig")
    return validate_scenario(decoded, file, text)


def read_scenario_json(path: Path) -> dict:
    """The scenario file at ``path``; an IntegrationError naming it if unreadable or invalid."""
    return parse_scenario_json(read_file(path), path)


def variable_references(scenario: dict) -> list[tuple[str, str]]:
    """``(key path, variable name)`` for every reward term and done test of a decoded scenario."""
    found = [(walk.key(path), name) for spec_path, spec in walk.reward_specs(scenario)
             if walk.player(spec_path) is not None for name, path, _ in walk.reward_terms(spec, spec_path)]
    found += [(walk.key(path), name) for node_path, node, _ in walk.done_nodes(scenario)
              for name, path, _ in walk.done_tests(node, node_path)]
    return found


def dump_scenario_json(scenario: dict) -> str:
    """Scenario text in stable-retro's writer layout: keys sorted at every level, 2-space indent, final newline.

    The content is written as given; stable-retro's own saver also normalises it (drops
    default values, always adds ``crop``), which is the evaluator's business, not the file's.
    """
    return jsontext.dump(scenario)


def write_scenario_json(path: Path, scenario: dict) -> None:
    """Writes a scenario file atomically in stable-retro's writer layout (see :func:`dump_scenario_json`)."""
    atomic_write_text(Path(path), dump_scenario_json(scenario))
