"""stable-retro's ``retro.testing.tools``: the checks its own test suite runs on every integration.

Same functions, arguments and findings as stable-retro 1.0.1, so its suite runs unchanged on
emucore and a ``metadata.json`` ``whitelist`` written for stable-retro means the same here. Each
check returns ``(warnings, errors)``, lists of ``(file, message)``; ``file`` is
``<str(inttype)>/<game>/<file>`` (``str(Integrations.STABLE)`` is ``""``), as in stable-retro.

A whitelist is ``{"data.json": [message, ...], "scenario.json": [...]}`` in the game's
metadata.json: whitelisted warnings are dropped, and a whitelisted warning that no longer occurs
is an error (``missing warning``).

stable-retro's ``verify_scenario`` means to warn ``incorrect op: zero`` for a done test such as
``equal`` with reference 0, but compares the string ``"op"`` instead of the test's op, so it
never does. Neither do these: ``equal 0`` is an idiom of ~500 of its integrations, equivalent
to ``zero``, and the warnings would bury the real findings.

Where stable-retro's checks have bugs, these do what was meant (README, "differences"):

* ``verify_scenario`` gives the index in ``both variables and script present in rewards[i]``
  (stable-retro prints ``{i:d}``).
* ``load_whitelist``: a game without metadata.json has an empty whitelist (stable-retro raises
  ``TypeError``).
* ``verify_hash_collisions`` reads each ``rom.sha`` (stable-retro opens ``rom.sha/rom.sha``, so it
  never finds a collision). stable-retro's own data has none.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from emucore import data as retro_data

Findings = list[tuple[str, str]]

# data.json types stable-retro accepts: one byte, or an endianness then a width of 2-8 bytes
_VALID_TYPE = re.compile(r"\|[dinu]1|(>[<=]?|<[>=]?|=[><]?)[dinu][2-8]")
# legal but unusual: mixed endianness marks, or BCD wider than 4 bytes
_SUSPICIOUS_TYPE = re.compile(r"([><=]{2}|=[><]|<[>=]|>[<=])[dinu][2-8]|[><=]{1,2}d[5-8]")
_VERSION_SUFFIX = re.compile(r"-v\d+$")


def _label(game: str, inttype: Any, file: str) -> str:
    return os.path.join(str(inttype), game, file)


def _read_json(path: str, raw: str | None) -> Any:
    if raw:
        return json.loads(raw)
    with open(path) as f:
        return json.load(f)


def _game_json(game: str, inttype: Any, name: str, raw: str | None, io_error: bool = True) -> tuple[str, Any, Findings]:
    """``(label, document, errors)`` of one of the game's JSON files (``raw`` instead of it when given);
    the document is None when the game has no such file or it cannot be read."""
    file = _label(game, inttype, name)
    path = retro_data.get_file_path(game, name, inttype)
    if not path:
        return file, None, []
    try:
        return file, _read_json(path, raw), []
    except json.JSONDecodeError:
        return file, None, [(file, "fail decode")]
    except OSError:
        return file, None, [(file, "fail I/O")] if io_error else []


def load_whitelist(game: str, inttype: Any) -> tuple[dict | None, Findings]:
    """The ``whitelist`` of the game's metadata.json (``{}`` without one), or None and the error."""
    path = retro_data.get_file_path(game, "metadata.json", inttype | retro_data.Integrations.STABLE)
    if not path:
        return {}, []
    try:
        metadata = _read_json(path, None)
    except json.JSONDecodeError:
        return None, [(path, "fail decode")]
    except OSError:
        return None, [(path, "fail I/O")]
    whitelist = metadata.get("whitelist", {}) if isinstance(metadata, dict) else {}
    return whitelist, []


def _apply_whitelist(file: str, whitelisted: list[str], warnings: Findings, errors: Findings) -> Findings:
    """The warnings not whitelisted; whitelisted warnings that did not occur are added to ``errors``."""
    allowed = {(file, message) for message in whitelisted}
    found = set(warnings)
    errors.extend(("metadata.json", f'missing warning "{file}: {message}"') for _, message in allowed - found)
    return list(found - allowed)


def scan_missing() -> list[tuple[str, str]]:
    """``(game, file)`` for each file every integration needs that a game of any set lacks."""
    every = retro_data.Integrations.ALL
    missing = []
    for game in retro_data.list_games(every):
        for file in ("data.json", "scenario.json", "metadata.json"):
            if not retro_data.get_file_path(game, file, every):
                missing.append((game, file))
        if not retro_data.list_states(game, every):
            missing.append((game, "*.state"))
        if not retro_data.get_file_path(game, "rom.sha", every):
            missing.append((game, "rom.sha"))
    return missing


def _check_variable_type(file: str, name: str, definition: dict, warnings: Findings, errors: Findings) -> None:
    if "address" not in definition:
        errors.append((file, f"missing address for {name}"))
    if "type" not in definition:
        errors.append((file, f"missing type for {name}"))
        return
    type_text = definition["type"]
    if not isinstance(type_text, str) or not _VALID_TYPE.match(type_text):
        errors.append((file, f"invalid type {type_text} for {name}"))
    elif _SUSPICIOUS_TYPE.match(type_text):
        warnings.append((file, f"suspicious type {type_text} for {name}"))


def verify_data(game: str, inttype: Any, raw: str | None = None) -> tuple[Findings, Findings]:
    """data.json: every variable has an address and a valid type; unusual types for lives and score warn."""
    file, document, errors = _game_json(game, inttype, "data.json", raw)
    if document is None:
        return [], errors
    whitelist, errors = load_whitelist(game, inttype)
    if whitelist is None:
        return [], errors
    info = document.get("info") if isinstance(document, dict) else None
    if not info:
        return [], [(file, "missing info")]
    warnings: Findings = []
    for name, definition in info.items():
        _check_variable_type(file, name, definition, warnings, errors)
    lives_type = info.get("lives", {}).get("type", "")
    if "lives" in info and lives_type not in ("|u1", "|i1", "|d1"):
        warnings.append((file, f"suspicious type {lives_type} for lives"))
    if "score" in info:
        score_type = info["score"].get("type", "??")
        if score_type[1:] in ("u1", "d1", "n1", "n2") or "i" in score_type:
            warnings.append((file, f"suspicious type {score_type} for score"))
    return _apply_whitelist(file, whitelist.get("data.json", []), warnings, errors), errors


def _check_rewards(file: str, scenario: dict, warnings: Findings) -> None:
    both = "both variables and script present in"
    if "rewards" in scenario:
        for i, reward in enumerate(scenario["rewards"]):
            if "variables" not in reward and "script" not in reward:
                warnings.append((file, f"missing reward in rewards[{i:d}]"))
            elif "variables" in reward and "script" in reward:
                warnings.append((file, f"{both} rewards[{i:d}]"))
        if "reward" in scenario:
            warnings.append((file, "reward and rewards both present"))
        return
    reward = scenario.get("reward")
    if reward is None or ("variables" not in reward and "script" not in reward):
        warnings.append((file, "missing reward"))
    elif "variables" in reward and "script" in reward:
        warnings.append((file, f"{both} reward"))


def _check_done(file: str, done: dict, info: dict | None, warnings: Findings, errors: Findings) -> None:
    tests = done["variables"]
    checks = len(tests) + len(done.get("nodes", {}))
    condition = done.get("condition", "any")
    if "score" in tests:
        warnings.append((file, "suspicious variable in done condition: score"))
    if "health" in tests and "lives" in tests and "condition" not in done:
        warnings.append((file, "suspicious done condition: health OR lives"))
    if condition == "all" and checks < 2:
        errors.append((file, "incorrect done condition all with only 1 check"))
    if condition == "any" and checks > 2:
        warnings.append((file, "suspicious done condition any with more than 2 checks"))
    for name, test in tests.items():
        if "op" not in test:
            errors.append((file, f"invalid done condition {name}"))
        if not info:
            continue
        if name not in info:
            errors.append((file, f"invalid variable {name}"))
        elif ("i" not in info[name].get("type", "") and test.get("op", "") == "negative"
              and test.get("measurement") != "delta"):
            errors.append((file, f"op: negative on unsigned {name}"))


def _check_against_data(file: str, scenario: dict, info: dict | None, warnings: Findings, errors: Findings) -> None:
    known = info or {}
    reward = scenario.get("reward")
    if reward and "variables" in reward:
        for name, definition in reward["variables"].items():
            if name not in known:
                errors.append((file, f"invalid variable {name}"))
            if not definition:
                errors.append((file, f"invalid definition {name}"))
            elif "reward" not in definition and "penalty" not in definition:
                errors.append((file, f"blank reward {name}"))
    done = scenario.get("done")
    if done and "variables" in done:
        _check_done(file, done, info, warnings, errors)


def verify_scenario(
    game: str, inttype: Any, scenario: str = "scenario", raw: str | None = None, dataraw: str | None = None
) -> tuple[Findings, Findings]:
    """A scenario file: a reward and a done are given, and they use variables data.json defines sensibly."""
    file, document, errors = _game_json(game, inttype, f"{scenario}.json", raw)
    if document is None:
        return [], errors
    whitelist, errors = load_whitelist(game, inttype)
    if whitelist is None:
        return [], errors
    warnings: Findings = []
    _check_rewards(file, document, warnings)
    done = document.get("done")
    if done is None or not any(key in done for key in ("variables", "script", "nodes")):
        warnings.append((file, "missing done"))
    data_path = retro_data.get_file_path(game, "data.json", inttype | retro_data.Integrations.STABLE)
    try:
        data_document = json.loads(dataraw) if dataraw else _read_json(data_path, None) if data_path else None
    except (json.JSONDecodeError, OSError):
        data_document = None  # data.json's own check reports it
    if isinstance(data_document, dict):
        _check_against_data(file, document, data_document.get("info"), warnings, errors)
    whitelisted = whitelist.get(os.path.split(file)[-1], [])
    return _apply_whitelist(file, whitelisted, warnings, errors), errors


def verify_default_state(game: str, inttype: Any, raw: str | None = None) -> tuple[Findings, Findings]:
    """metadata.json names a ``default_state`` that the game has."""
    file, metadata, errors = _game_json(game, inttype, "metadata.json", raw, io_error=False)
    if metadata is None:
        return [], errors
    state = metadata.get("default_state") if isinstance(metadata, dict) else None
    if not state:
        return [], [(file, "default state missing")]
    if state not in retro_data.list_states(game, inttype | retro_data.Integrations.STABLE):
        return [], [(file, f"invalid default state {state}")]
    return [], []


def verify_hash_collisions() -> tuple[Findings, Findings]:
    """An error for each game whose ``rom.sha`` lists a hash another game lists too."""
    every = retro_data.Integrations.ALL
    games_of: dict[str, list[str]] = {}
    for game in retro_data.list_games(every):
        path = retro_data.get_file_path(game, "rom.sha", every)
        try:
            with open(path) as f:  # type: ignore[arg-type]  # list_games lists games with a rom.sha
                hashes = f.read().strip().split("\n")
        except OSError:
            continue
        for sha in hashes:
            games_of.setdefault(sha, []).append(game)
    errors = [(game, "sha duplicate") for games in games_of.values() if len(games) > 1 for game in games]
    return [], errors


def verify_genesis(game: str, inttype: Any) -> tuple[Findings, Findings]:
    """A Genesis game's ROM is ``rom.md`` with SEGA in its header (unless whitelisted)."""
    whitelist, errors = load_whitelist(game, inttype)
    if whitelist is None:
        return [], errors
    rom = retro_data.get_romfile_path(game, inttype=inttype)
    if not rom.endswith(".md"):
        errors.append((game, f"invalid extension for {rom}"))
    if "rom.md" in whitelist:
        return [], []
    with open(rom, "rb") as f:
        header = f.read(512)
    if header[0x100:0x105] not in (b"SEGA ", b" SEGA"):
        errors.append((game, "invalid genesis rom"))
    return [], errors


def verify_extension(game: str, inttype: Any) -> tuple[Findings, Findings]:
    """The ROM's extension is one of the system the game's name ends with."""
    whitelist, errors = load_whitelist(game, inttype)
    if whitelist is None:
        return [], errors
    rom = os.path.split(retro_data.get_romfile_path(game, inttype=inttype))[-1]
    system = retro_data.EMU_EXTENSIONS.get(os.path.splitext(rom)[-1])
    if not system or not _VERSION_SUFFIX.sub("", game).endswith(f"-{system}"):
        errors.append((game, f"invalid extension for {rom}"))
    return [], errors


def verify_rom(game: str, inttype: Any) -> tuple[Findings, Findings]:
    """The game's ROM is present and fits its system (:func:`verify_genesis`, :func:`verify_extension`)."""
    try:
        retro_data.get_romfile_path(game, inttype=inttype)
    except FileNotFoundError:
        return [], [(game, "ROM file missing")]
    if _VERSION_SUFFIX.sub("", game).endswith("-Genesis"):
        return verify_genesis(game, inttype)
    return verify_extension(game, inttype)
