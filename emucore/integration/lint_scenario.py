"""Lint rules for scenario files: stable-retro's verifier, plus tests that can never fire (IF §5)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from emucore.datatypes import U64, InvalidTypeError, parse_type
from emucore.integration import scenario_walk as walk
from emucore.integration.common import LintFinding
from emucore.integration.jsontext import KeyPath
from emucore.operations import Operation, scenario_operation

MEASUREMENTS = walk.MEASUREMENTS
INT64 = (-(1 << 63), (1 << 63) - 1)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def value_range(entry: Any) -> tuple[int, int]:
    """The values a data.json variable can read as (IF §4.3), or the whole int64 range when unknown."""
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return INT64
    try:
        dtype = parse_type(entry["type"])
    except InvalidTypeError:
        return INT64
    w = dtype.width
    if dtype.kind == "i":
        lo, hi = (-(1 << (8 * w - 1)), (1 << (8 * w - 1)) - 1) if w else (0, 0)
    else:
        lo, hi = 0, {"d": 100, "n": 10}.get(dtype.kind, 256) ** w - 1
        if hi > INT64[1]:  # a u8 above 2**63 wraps negative
            lo, hi = INT64
    mask = entry.get("mask")
    if isinstance(mask, int) and not isinstance(mask, bool) and (mask & U64) < (1 << 63):
        hi = min(hi, mask & U64) if lo >= 0 else mask & U64
        lo = 0
    return lo, hi


def outcomes(op: Operation | None, ref: int, lo: int, hi: int) -> tuple[bool, bool]:
    """Whether ``op(v)`` can be positive, and whether it can be negative, for ``v`` in ``[lo, hi]``."""
    if op is None or op == Operation.SIGN:
        return hi > 0, lo < 0
    return op.can_hold(ref, lo, hi), False


@dataclass
class _Context:
    file: str
    info: dict | None  # data.json's info, None when there is no usable data.json
    lua_variables: set[str]
    buttons: set[str] | None
    scripts: dict[str, str]  # loaded script file name -> source
    script_exists: Callable[[str], bool]
    out: list[LintFinding]

    def add(self, level: str, key: str, message: str) -> None:
        self.out.append(LintFinding(level, self.file, key, message))


def _spec_fields(ctx: _Context, spec: dict, path: KeyPath,
                 default_measurement: str) -> tuple[Operation | None, int, str]:
    raw = spec.get(walk.OP)
    op = scenario_operation(raw)
    if raw is not None and op is None:
        ctx.add("warning", walk.key((*path, walk.OP)), f"unknown op {raw!r} (stable-retro treats it as no op)")
    measurement = spec.get(walk.MEASUREMENT, default_measurement)
    if not isinstance(measurement, str) or measurement not in MEASUREMENTS:
        ctx.add(
            "warning",
            walk.key((*path, walk.MEASUREMENT)),
            f"unknown measurement {measurement!r} (stable-retro uses {default_measurement})",
        )
        measurement = default_measurement
    for name in walk.NUMBER_FIELDS:
        if name in spec and not _number(spec[name]):
            ctx.add("warning", walk.key((*path, name)), f"{name} {spec[name]!r} is not a number (stable-retro uses 0)")
    ref = spec.get(walk.REFERENCE, 0)
    return op, int(ref) if _number(ref) else 0, measurement


def _measured(ctx: _Context, name: str, measurement: str) -> tuple[int, int] | None:
    if ctx.info is None or name not in ctx.info:
        return None
    lo, hi = value_range(ctx.info[name])
    return (lo - hi, hi - lo) if measurement == "delta" else (lo, hi)


def _why(op: str | None, ref: int, measurement: str, span: tuple[int, int]) -> str:
    values = f"{measurement} values {span[0]}..{span[1]}"
    return f"op {op} with reference {ref} on {values}" if op else values


def _leaves_folder(name: object) -> bool:
    if not isinstance(name, str):
        return False
    path = PurePosixPath(name.replace("\\", "/"))
    return path.is_absolute() or ".." in path.parts or bool(PureWindowsPath(name).drive)


def _known(ctx: _Context, name: str, key: str) -> None:
    if ctx.info is not None and name in ctx.info or name in ctx.lua_variables:
        return
    ctx.add("error", key, f"invalid variable {name}")


def _reward(ctx: _Context, reward: Any, path: KeyPath) -> None:
    key = walk.key(path)
    if not isinstance(reward, dict):
        ctx.add("warning", key, f"{key} is not an object; stable-retro ignores it")
        return
    _script_ref(ctx, reward.get(walk.SCRIPT), walk.key((*path, walk.SCRIPT)))
    for name, term_path, spec in walk.reward_terms(reward, path):
        vkey = walk.key(term_path)
        _known(ctx, name, vkey)
        if not spec or not isinstance(spec, dict):
            ctx.add("error", vkey, f"invalid definition {name}")
            continue
        if walk.TERM_REWARD not in spec and walk.PENALTY not in spec:
            ctx.add("error", vkey, f"blank reward {name}")
        op, ref, measurement = _spec_fields(ctx, spec, term_path, "delta")
        span = _measured(ctx, name, measurement)
        if span is not None:
            can_pos, can_neg = outcomes(op, ref, *span)
            if spec.get(walk.TERM_REWARD) and _number(spec[walk.TERM_REWARD]) and not can_pos:
                ctx.add(
                    "warning",
                    walk.key((*term_path, walk.TERM_REWARD)),
                    f"the reward of {name} never applies: "
                    f"the result is never positive ({_why(op, ref, measurement, span)})",
                )
            if spec.get(walk.PENALTY) and _number(spec[walk.PENALTY]) and not can_neg:
                ctx.add(
                    "warning",
                    walk.key((*term_path, walk.PENALTY)),
                    f"the penalty of {name} never applies: "
                    f"the result is never negative ({_why(op, ref, measurement, span)})",
                )
    timed = walk.time_term(reward, path)
    if timed is not None:
        time_path, time = timed
        op, ref, _ = _spec_fields(ctx, time, time_path, "delta")
        if time.get(walk.PENALTY):
            ctx.add(
                "warning",
                walk.key((*time_path, walk.PENALTY)),
                "the time penalty is never applied (the time term's value is always 1); use a negative reward",
            )
        if time.get(walk.TERM_REWARD) and _number(time[walk.TERM_REWARD]) and not outcomes(op, ref, 1, 1)[0]:
            ctx.add("warning", walk.key((*time_path, walk.TERM_REWARD)),
                    f"the time reward never applies: {_why(op, ref, 'time', (1, 1))}")


def _done_node(ctx: _Context, node: Any, path: KeyPath, top: bool) -> None:
    key = walk.key(path)
    if not isinstance(node, dict):
        ctx.add("warning", key, f"{key} is not an object; stable-retro ignores it")
        return
    if (node.get(walk.CONDITION) == "all" and not node.get(walk.VARIABLES) and not node.get(walk.NODES)
            and (not top or walk.SCRIPT not in node)):
        ctx.add("warning", key, "condition all with no tests is always true: the episode ends at every step")
    for name, test_path, spec in walk.done_tests(node, path):
        vkey = walk.key(test_path)
        _known(ctx, name, vkey)
        if not isinstance(spec, dict):
            ctx.add("warning", vkey, f"the test on {name} is not an object; stable-retro tests value > 0")
            continue
        op, ref, measurement = _spec_fields(ctx, spec, test_path, "absolute")
        entry = (ctx.info or {}).get(name)
        if (
            top
            and isinstance(entry, dict)
            and "i" not in str(entry.get("type", ""))
            and spec.get(walk.OP) == "negative"
            and spec.get(walk.MEASUREMENT) != "delta"
        ):
            ctx.add("error", vkey, f"op: negative on unsigned {name}")
            continue
        span = _measured(ctx, name, measurement)
        if span is not None and not outcomes(op, ref, *span)[0]:
            ctx.add(
                "warning",
                vkey,
                f"the done test on {name} is never true: "
                f"the result is never positive ({_why(op, ref, measurement, span)})",
            )


def _done(ctx: _Context, scenario: dict) -> None:
    for path, node, is_top in walk.done_nodes(scenario):
        _done_node(ctx, node, path, is_top)
    done = scenario.get(walk.DONE)
    if not isinstance(done, dict):
        return
    top: KeyPath = (walk.DONE,)
    _script_ref(ctx, done.get(walk.SCRIPT), walk.key((*top, walk.SCRIPT)))
    variables = done.get(walk.VARIABLES)
    if not isinstance(variables, dict):
        return
    # stable-retro's verifier checks these on the top-level node only.
    checks = len(variables) + len(done.get(walk.NODES) or {})
    if "score" in variables:
        ctx.add("warning", walk.key(walk.term_path(top, "score")), "suspicious variable in done condition: score")
    if "health" in variables and "lives" in variables and walk.CONDITION not in done:
        ctx.add("warning", walk.DONE, "suspicious done condition: health OR lives")
    condition = done.get(walk.CONDITION, "any")
    if condition == "all" and checks < 2:
        ctx.add("error", walk.key((*top, walk.CONDITION)), "incorrect done condition all with only 1 check")
    if condition == "any" and checks > 2:
        ctx.add("warning", walk.DONE, "suspicious done condition any with more than 2 checks")
    for name, test_path, spec in walk.done_tests(done, top):
        if isinstance(spec, dict) and walk.OP not in spec:
            ctx.add("error", walk.key(test_path), f"invalid done condition {name}")


def _defines(source: str, function: str) -> bool:
    name = re.escape(function)
    return re.search(rf"\bfunction\s+{name}\s*\(|\b{name}\s*=\s*function\b", source) is not None


def _script_ref(ctx: _Context, ref: Any, key: str) -> None:
    if not isinstance(ref, str):
        return
    scope, _, function = ref.rpartition(":")
    scopes = {name.rsplit(".", 1)[-1] for name in ctx.scripts}
    if not ctx.scripts:
        ctx.add("error", key, f"script {ref} needs a Lua script, but the scenario loads none (stable-retro crashes)")
    elif scope and scope not in scopes:
        ctx.add("error", key, f"script {ref}: no loaded script has scope {scope!r} (loaded: {sorted(ctx.scripts)})")
    elif not scope and len(scopes) != 1:
        ctx.add("error", key, f"script {ref} has no scope and several script scopes are loaded")
    elif not any(_defines(source, function) for source in ctx.scripts.values()):
        ctx.add("warning", key, f"function {function} is not defined in {', '.join(sorted(ctx.scripts))}")


def _rewards_shape(ctx: _Context, scenario: dict) -> None:
    if isinstance(scenario.get(walk.REWARDS), list):
        for path, r in walk.reward_specs(scenario):
            key = walk.key(path)
            if path[0] != walk.REWARDS or not isinstance(r, dict):
                continue
            if walk.VARIABLES not in r and walk.SCRIPT not in r:
                ctx.add("warning", key, f"missing reward in {key}")
            elif walk.VARIABLES in r and walk.SCRIPT in r:
                ctx.add("warning", key, f"both variables and script present in {key}")
        if walk.REWARD in scenario:
            ctx.add("warning", walk.REWARDS, "reward and rewards both present")
        if len(scenario[walk.REWARDS]) > walk.PLAYERS:
            ctx.add("warning", walk.REWARDS, f"only the first {walk.PLAYERS} entries of rewards are used")
        return
    reward = scenario.get(walk.REWARD)
    if not isinstance(reward, dict) or (walk.VARIABLES not in reward and walk.SCRIPT not in reward):
        ctx.add("warning", walk.REWARD, "missing reward")
    elif walk.VARIABLES in reward and walk.SCRIPT in reward:
        ctx.add("warning", walk.REWARD, "both variables and script present in reward")


def _layout(ctx: _Context, scenario: dict) -> None:
    if walk.CROPS in scenario:
        ctx.add("error", walk.CROPS, "stable-retro cannot load a scenario with crops (it always raises); use crop")
    crop = scenario.get(walk.CROP)
    if isinstance(crop, list) and len(crop) > 4:
        ctx.add("warning", walk.CROP, f"crop has {len(crop)} numbers; stable-retro uses the first 4")
    actions = scenario.get(walk.ACTIONS)
    if ctx.buttons is not None and isinstance(actions, list):
        for i, group in enumerate(actions):
            for j, combo in enumerate(group if isinstance(group, list) else []):
                for button in combo if isinstance(combo, list) else []:
                    if isinstance(button, str) and button not in ctx.buttons:
                        ctx.add("warning", walk.key((walk.ACTIONS, i, j)),
                                f"unknown button {button!r} (the combo presses nothing)")


def lua_variables(sources: dict[str, str]) -> set[str]:
    """Names Lua scripts assign as ``data.name = ...``: custom variables a scenario may test."""
    found: set[str] = set()
    for source in sources.values():
        found.update(re.findall(r"\bdata\s*\.\s*([A-Za-z_]\w*)\s*=(?!=)", source))
        found.update(re.findall(r"\bdata\s*\[\s*[\"']([^\"']+)[\"']\s*\]\s*=(?!=)", source))
    return found


def lint_scenario(
    file: str,
    scenario: dict,
    info: dict | None,
    *,
    buttons: set[str] | None,
    scripts: dict[str, str],
    script_exists: Callable[[str], bool],
) -> list[LintFinding]:
    """Findings for one decoded (and validated) scenario file.

    Args:
        file: Its file name, e.g. ``scenario.json``.
        scenario: The decoded scenario.
        info: data.json's ``info`` (raw entries), or None when there is no usable data.json.
        buttons: The system's button names, or None when the system is unknown.
        scripts: Every Lua file of the folder by name -> source.
        script_exists: Whether a file named in ``scripts`` (relative to the folder) exists.
    """
    out: list[LintFinding] = []
    listed = scenario.get(walk.SCRIPTS)
    loaded: dict[str, str] = {}
    if isinstance(listed, list):
        for i, name in enumerate(listed):
            if _leaves_folder(name):
                problem = f"script file {name} is outside the integration folder"
                out.append(LintFinding("error", file, walk.key((walk.SCRIPTS, i)), problem))
            elif not script_exists(name):
                out.append(LintFinding("error", file, walk.key((walk.SCRIPTS, i)), f"script file {name} not found"))
            else:
                loaded[name] = scripts.get(name, "")
    ctx = _Context(
        file, info if isinstance(info, dict) else None, lua_variables(loaded), buttons, loaded, script_exists, out
    )
    _rewards_shape(ctx, scenario)
    for path, reward in walk.reward_specs(scenario):
        _reward(ctx, reward, path)
    done = scenario.get(walk.DONE)
    if not isinstance(done, dict) or not ({walk.VARIABLES, walk.SCRIPT, walk.NODES} & set(done)):
        ctx.add("warning", walk.DONE, "missing done")
    _done(ctx, scenario)
    _layout(ctx, scenario)
    return out
